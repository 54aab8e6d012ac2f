"""fitd.terminal: the profile picked from the environment as fitctl picks it (compared with the
real fitctl on the same daemon), and the terminal query against scripted pseudo-terminals —
one that answers DECRQM 2027 and cursor reports as a terminal would, one that never answers,
one that floods — run in a child process whose controlling terminal the pty is."""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time

import pytest

import fitd
from fitd import terminal

TEXT = "\U0001F469\u200d\U0001F4BB dev"  # 👩‍💻 dev: 6 cells clustered, 8 added up
NOTHING_KNOWN = {"TERM": "xterm-256color"}  # VTE, Konsole and xterm alike

# The cases of Tests/FitTextTests/TerminalCellsTests.swift (fitctl's rule), with the answer.
ENVIRONMENTS = [
    ({"TERM": "xterm-kitty"}, "grapheme"),
    ({"TERM": "foot"}, "grapheme"),
    ({"TERM": "foot-extra"}, "grapheme"),
    ({"TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"}, "grapheme"),
    ({"TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"}, "grapheme"),
    ({"TERM": "alacritty"}, "wcwidth"),
    ({"TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"}, "wcwidth"),
    ({"TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"}, "grapheme"),
    ({"TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "next-3.7"}, "grapheme"),
    ({"TERM": "tmux-256color", "TERM_PROGRAM": "tmux"}, "wcwidth"),
    ({"TERM": "screen-256color"}, "wcwidth"),
    ({"TERM": "xterm-kitty", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"}, "wcwidth"),
    ({"TERM": "xterm-256color"}, None),
    ({}, None),
]


@pytest.mark.parametrize("environ,expected", ENVIRONMENTS)
def test_the_environment_decides_as_fitctl_does(environ, expected):
    found = terminal.from_environment(environ)
    assert (found.profile if found else None) == expected
    assert found is None or found.source == "environment" and found.reason


def _without_terminal_variables() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("TERM", "TERM_PROGRAM", "TERM_PROGRAM_VERSION")}


@pytest.mark.parametrize("environ", [e for e, _ in ENVIRONMENTS if "TERM_PROGRAM" in e or e.get("TERM") in ("xterm-kitty", "xterm-256color")])
def test_measure_in_cells_gives_what_fitctl_gives_in_the_same_environment(environ, fitctl):
    """The issue's case: the package and fitctl, in one environment, on one daemon, agree."""
    env = {**_without_terminal_variables(), **environ}
    # No controlling terminal (a new session): the environment alone decides, as for fitctl.
    script = f"import fitd; print(fitd.Client().measure({TEXT!r}, unit='cells').width)"
    python = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                            start_new_session=True, stdin=subprocess.DEVNULL, timeout=30)
    assert python.returncode == 0, python.stderr
    ctl = subprocess.run([fitctl, "measure", "--cells", "--json", TEXT], env=env, capture_output=True, text=True,
                         start_new_session=True, stdin=subprocess.DEVNULL, timeout=30)
    assert ctl.returncode == 0, ctl.stderr
    assert float(python.stdout) == json.loads(ctl.stdout)["width"]
    expected = {"grapheme": 6.0, "wcwidth": 8.0, None: 6.0}[terminal.detect_now(environ, ask=False).profile]
    assert float(python.stdout) == expected


def test_an_explicit_terminal_option_wins_over_the_detection(fit, monkeypatch):
    monkeypatch.setattr(terminal, "_detected", terminal.Detection("wcwidth", "environment", "test"))
    assert fit.measure(TEXT, unit="cells").width == 8.0
    assert fit.measure(TEXT, unit="cells", terminal="grapheme").width == 6.0
    assert fit.measure_batch([{"text": TEXT, "unit": "cells"}])[0].width == 8.0
    # Pixels are not a terminal's: the profile is not sent (the daemon would ignore it anyway).
    assert fit.measure("x", "DejaVu Sans 12").width == fit.measure("x", "DejaVu Sans 12", terminal="grapheme").width


# --- the query, against scripted terminals ------------------------------------------------

CHILD = r"""
import fcntl, json, os, sys, termios, time
os.environ.pop("TERM_PROGRAM", None)
os.environ["TERM"] = "xterm-256color"
fcntl.ioctl(0, termios.TIOCSCTTY, 0)   # the pty becomes this session's controlling terminal
from fitd import terminal
if sys.argv[2] == "background":        # a job in the background of its terminal
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0); sys.exit(0)
    os.setpgid(0, 0)
before = termios.tcgetattr(0)
start = time.monotonic()
found = terminal.detect_now()
elapsed = time.monotonic() - start
with open(sys.argv[1], "w") as out:
    json.dump({"profile": found.profile, "source": found.source, "reason": found.reason, "decrqm": found.decrqm,
               "cells": found.cursor_cells, "elapsed": elapsed, "restored": termios.tcgetattr(0) == before}, out)
"""


def run_in_pty(tmp_path, answer, mode="foreground", seconds=5.0):
    """Runs CHILD with a fresh pty as its controlling terminal; ``answer(request)`` gives the
    bytes the scripted terminal sends back to each request it reads. Returns the child's
    result and every byte the child wrote to its terminal."""
    master, slave = os.openpty()
    result = tmp_path / "result.json"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(result), mode], stdin=slave, stdout=slave,
                             stderr=subprocess.PIPE, start_new_session=True)
    os.close(slave)
    written, pending = b"", b""
    deadline = time.monotonic() + seconds
    try:
        while child.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.02)
            if not ready:
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed its side
                break
            written += chunk
            pending += chunk
            while (match := REQUEST.search(pending)) is not None:
                reply = answer(match.group(0))
                if reply:
                    os.write(master, reply)
                pending = pending[match.end():]
        child.wait(timeout=max(0.1, deadline - time.monotonic()))
    finally:
        if child.poll() is None:
            child.kill()
        os.close(master)
    assert child.returncode == 0, child.stderr.read().decode() if child.stderr else ""
    return json.loads(result.read_text()), written


CLUSTERS = [cluster.encode() for cluster, _ in terminal.PROBE_CLUSTERS]
REQUEST = re.compile(rb"\x1b\[6n|" + b"|".join(map(re.escape, CLUSTERS)) + rb"|\x1b\[\?2027\$p|\x1b\[c")


class ScriptedTerminal:
    """Answers as a terminal that draws the probe's clusters ``cells`` wide (None: no cursor
    reports) and whose mode 2027 is ``mode`` (None: DECRQM ignored), with DA1 unless ``silent``."""

    def __init__(self, cells=None, mode=None, silent=False):
        self.cells, self.mode, self.silent, self.column = cells, mode, silent, 1

    def __call__(self, request: bytes) -> bytes:
        if self.silent:
            return b""
        if request == b"\x1b[6n":
            return b"" if self.cells is None else f"\x1b[7;{self.column}R".encode()
        if request in CLUSTERS:
            self.column += self.cells[CLUSTERS.index(request)] if self.cells else 0
            return b""
        if request == b"\x1b[?2027$p":
            return b"" if self.mode is None else f"\x1b[?2027;{self.mode}$y".encode()
        return b"\x1b[?62;22c"


@pytest.mark.parametrize("mode,profile", [(1, "grapheme"), (3, "grapheme"), (2, "wcwidth"), (4, "wcwidth"), (0, "wcwidth")])
def test_decrqm_2027_decides_where_the_cursor_does_not_answer(tmp_path, mode, profile):
    found, _ = run_in_pty(tmp_path, ScriptedTerminal(mode=mode))
    assert (found["profile"], found["source"], found["decrqm"], found["cells"]) == (profile, "decrqm", mode, None)
    assert found["restored"]
    assert found["elapsed"] < 0.1, "a terminal that answers DA1 ends the query at once"


@pytest.mark.parametrize("cells,mode,profile", [
    ([2, 2, 2], None, "grapheme"),   # kitty, WezTerm, foot
    ([4, 4, 1], None, "wcwidth"),    # VTE, xterm
    ([4, 4, 1], 1, "wcwidth"),       # saying one thing, doing another: what it does counts
    ([2, 2, 2], 4, "grapheme"),
])
def test_where_the_cursor_lands_is_believed_first(tmp_path, cells, mode, profile):
    found, written = run_in_pty(tmp_path, ScriptedTerminal(cells=cells, mode=mode))
    assert (found["profile"], found["source"], found["cells"], found["decrqm"]) == (profile, "cursor", cells, mode)
    assert "no profile is exact" not in found["reason"]
    assert found["restored"]
    # The probe is erased where it was drawn: back to the saved cursor, blanks, back again.
    assert written.endswith(b"\x1b8" + b" " * sum(cells) + b"\x1b8"), written


def test_a_terminal_between_the_profiles_gets_the_nearer_one_and_says_so(tmp_path):
    """tmux 3.3a (measured with its cursor): the ZWJ sequence joined, skin tone and VS16 added up."""
    found, _ = run_in_pty(tmp_path, ScriptedTerminal(cells=[2, 4, 1]))
    assert (found["profile"], found["source"], found["cells"]) == ("wcwidth", "cursor", [2, 4, 1])
    assert "2 of 3" in found["reason"] and "no profile is exact" in found["reason"], found["reason"]


def test_a_terminal_that_never_answers_costs_the_timeout_and_nothing_else(tmp_path):
    found, written = run_in_pty(tmp_path, ScriptedTerminal(silent=True))
    assert found["profile"] is None and found["source"] == "none" and "did not answer" in found["reason"]
    assert terminal.DEFAULT_TIMEOUT <= found["elapsed"] < terminal.DEFAULT_TIMEOUT + 0.15, found["elapsed"]
    assert found["restored"]
    assert written.endswith(b"\x1b8\x1b[K\x1b8"), written


def test_a_flood_of_bytes_is_read_only_as_far_as_the_bound(tmp_path):
    found, _ = run_in_pty(tmp_path, lambda request: b"\x1b[" + b"9" * 4096 if request == b"\x1b[6n" else b"")
    assert found["profile"] is None and found["elapsed"] < terminal.DEFAULT_TIMEOUT + 0.15
    assert found["restored"]


def test_a_background_job_does_not_touch_its_terminal(tmp_path):
    asked = []
    found, written = run_in_pty(tmp_path, lambda request: asked.append(request) or b"", mode="background")
    assert found["profile"] is None and "foreground" in found["reason"], found
    assert asked == [] and written == b""


def test_without_a_controlling_terminal_only_the_environment_is_read():
    found = subprocess.run([sys.executable, "-c", "import fitd; print(fitd.terminal.detect().reason)"],
                           env={**_without_terminal_variables(), **NOTHING_KNOWN}, capture_output=True, text=True,
                           start_new_session=True, stdin=subprocess.DEVNULL, timeout=30)
    assert "no controlling terminal" in found.stdout, found


def test_detect_is_decided_once_per_process(monkeypatch):
    terminal.forget()
    calls = []
    monkeypatch.setattr(terminal, "detect_now", lambda: calls.append(1) or terminal.Detection("grapheme", "environment", "x"))
    assert fitd.terminal.detect() is fitd.terminal.detect()
    assert calls == [1]
    terminal.forget()
