"""Which terminal width profile the process's terminal draws by: ``grapheme`` (one width per
grapheme cluster) or ``wcwidth`` (every code point's wcwidth added up), as the Measure option
``terminal`` names them (protocol/README.md).

``detect()`` decides once per process, in this order:

1. The environment, with exactly fitctl's rules (FitTypes' ``TerminalProfile.detect``):
   TERM_PROGRAM (tmux by TERM_PROGRAM_VERSION, WezTerm, Ghostty), then TERM (kitty, Ghostty,
   WezTerm, foot: grapheme; Alacritty, screen, tmux without its version: wcwidth).
2. Where nothing there names a known terminal (VTE, Konsole and xterm all say
   xterm-256color) and the process is in the foreground of a controlling terminal: a query,
   bounded by ``timeout`` (0.1 s). The cursor-position probe ucs-detect uses: write each of
   three clusters on which the profiles differ — a ZWJ sequence, a skin tone, a VS16 emoji —
   between cursor position reports (CPR, ECMA-48 8.3.14/DSR 6), see how far the cursor moved,
   then erase them; the profile whose widths the terminal drew for most of them wins (tmux
   3.3a joins the ZWJ sequence but adds up the other two: no profile is exact for it, and the
   reason says so). Then the terminal's answer to DECRQM for mode 2027, grapheme clustering
   (contour's terminal-unicode-core spec): set or permanently set: grapheme; reset,
   permanently reset or not recognised: wcwidth. Where the cursor moved is what the terminal
   does, so it is believed over what it says.
3. Otherwise no profile: the caller leaves the option out and the daemon uses its default.

Measuring in cells (``unit="cells"``) without a ``terminal`` option sends the detected profile.
"""

from __future__ import annotations

import errno
import os
import re
import select
import termios
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, Optional

Profile = Literal["grapheme", "wcwidth"]

# Clusters and their widths in each profile (protocol/README.md's `terminal` row): a ZWJ
# sequence (woman 2 + ZWJ 0 + laptop 2), a skin tone (2 + 2), a VS16 emoji (heart 1 + VS16 0).
PROBE_CLUSTERS: tuple[tuple[str, dict[str, int]], ...] = (
    ("\U0001F469\u200d\U0001F4BB", {"grapheme": 2, "wcwidth": 4}),
    ("\U0001F44D\U0001F3FD", {"grapheme": 2, "wcwidth": 4}),
    ("\u2764\ufe0f", {"grapheme": 2, "wcwidth": 1}),
)

# DECRQM (DEC private mode 2027) answers: Ps per the terminal-unicode-core spec (and DECRPM,
# VT510 manual): 1 set, 2 reset, 3 permanently set, 4 permanently reset, 0 not recognised.
# Only set modes cluster: a reset mode is supported but off, so the terminal adds up wcwidths
# until a program turns it on, which this library does not do behind its caller's back.
_DECRQM_PROFILES: dict[int, Profile] = {1: "grapheme", 3: "grapheme", 2: "wcwidth", 4: "wcwidth", 0: "wcwidth"}

# Replies read from the terminal: untrusted input, read at most this many bytes.
MAX_REPLY_BYTES = 512
DEFAULT_TIMEOUT = 0.1

_CPR = re.compile(rb"\x1b\[(\d{1,5});(\d{1,5})R")
_DECRPM = re.compile(rb"\x1b\[\?2027;(\d{1,3})\$y")
_DA1 = re.compile(rb"\x1b\[\?[\d;]{0,64}c")


@dataclass(frozen=True, slots=True)
class Detection:
    """What detect() decided and why. ``profile`` is None when nothing said (the daemon's
    default, grapheme, applies); ``source`` is "environment", "cursor", "decrqm" or "none";
    ``reason`` names the rule in words. ``decrqm`` (the mode's Ps) and ``cursor_cells`` (how
    far each of PROBE_CLUSTERS moved the cursor) are the terminal's answers, None where it
    gave none or was not asked."""

    profile: Optional[Profile]
    source: str
    reason: str
    decrqm: Optional[int] = None
    cursor_cells: Optional[tuple[int, ...]] = None


class QueryError(Exception):
    """The terminal could not be queried (no controlling terminal, not in its foreground, an
    I/O error). detect() turns it into a Detection without a query; query() raises it."""


def _tmux_joins_clusters(version: str) -> bool:
    """Whether a tmux version ("3.4", "3.5a", "next-3.6") is 3.4 or later: from 3.4 tmux joins
    ZWJ sequences, skin tones and flags into one cell (screen-write.c, utf8-combined.c)."""
    match = re.match(r"\D*(\d+)(?:\.(\d*))?", version)
    if not match:
        return False
    major, minor = int(match.group(1)), int(match.group(2) or 0)
    return major > 3 or (major == 3 and minor >= 4)


def from_environment(environ: Mapping[str, str]) -> Optional[Detection]:
    """fitctl's rules (Sources/FitTypes/TerminalOptions.swift, TerminalProfile.detect), with
    the rule that decided; None when the environment names no known terminal."""
    program = environ.get("TERM_PROGRAM", "").lower()
    if program == "tmux":
        version = environ.get("TERM_PROGRAM_VERSION", "")
        if _tmux_joins_clusters(version):
            return Detection("grapheme", "environment", f"TERM_PROGRAM=tmux {version}: tmux ≥ 3.4 joins emoji clusters")
        return Detection("wcwidth", "environment",
                         f"TERM_PROGRAM=tmux {version or '(no TERM_PROGRAM_VERSION)'}: tmux before 3.4 adds up wcwidths")
    if program in ("wezterm", "ghostty"):
        return Detection("grapheme", "environment", f"TERM_PROGRAM={environ['TERM_PROGRAM']}")
    if "TERM" not in environ:
        return None
    term = environ["TERM"].lower()
    said = f"TERM={environ['TERM']}"
    if term in ("xterm-kitty", "xterm-ghostty", "wezterm") or term == "foot" or term.startswith("foot-"):
        return Detection("grapheme", "environment", said)
    if term == "alacritty" or term.startswith("alacritty-"):
        return Detection("wcwidth", "environment", said)
    if term.startswith("screen"):
        return Detection("wcwidth", "environment", said)
    if term.startswith("tmux"):
        return Detection("wcwidth", "environment", f"{said} without TERM_PROGRAM: tmux of unknown version")
    return None


def _read_replies(fd: int, deadline: float) -> bytes:
    """Reads the terminal's replies until its DA1 answer (it answers in order, so every reply
    asked before it has come) or the deadline; at most MAX_REPLY_BYTES."""
    data = b""
    while len(data) < MAX_REPLY_BYTES and not _DA1.search(data):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            ready, _, _ = select.select([fd], [], [], left)
        except InterruptedError:
            continue
        if not ready:
            break
        chunk = os.read(fd, MAX_REPLY_BYTES - len(data))
        if not chunk:
            break
        data += chunk
    return data


def query(fd: int, timeout: float = DEFAULT_TIMEOUT) -> tuple[Optional[tuple[int, ...]], Optional[int]]:
    """Asks the terminal on ``fd`` (its controlling terminal, in the foreground) how far each
    probe cluster moves the cursor and what its mode 2027 is: (cells per cluster, DECRQM Ps), each
    None where it did not answer within ``timeout`` seconds. The terminal's modes are saved
    and restored, the probe erased. QueryError when the terminal cannot be asked."""
    try:
        if os.tcgetpgrp(fd) != os.getpgrp():
            # A background job that touches its terminal's modes is stopped by SIGTTOU.
            raise QueryError("not in the terminal's foreground process group")
        saved = termios.tcgetattr(fd)
    except OSError as error:
        raise QueryError(f"cannot read the terminal's modes: {error}") from None
    raw = list(saved)
    raw[3] &= ~(termios.ICANON | termios.ECHO)  # lflag: replies byte by byte, never echoed
    raw[6] = list(saved[6])
    raw[6][termios.VMIN], raw[6][termios.VTIME] = 0, 0
    try:
        termios.tcsetattr(fd, termios.TCSANOW, raw)
        # DECSC, CPR, each cluster and a CPR after it, DECRQM 2027, DA1 (the sentinel nearly
        # every terminal answers, xterm's ctlseqs "Send Device Attributes").
        probe = b"".join(cluster.encode() + b"\x1b[6n" for cluster, _ in PROBE_CLUSTERS)
        os.write(fd, b"\x1b7\x1b[6n" + probe + b"\x1b[?2027$p\x1b[c")
        replies = _read_replies(fd, time.monotonic() + timeout)
        positions = [(int(row), int(col)) for row, col in _CPR.findall(replies)]
        cells = None
        if len(positions) == len(PROBE_CLUSTERS) + 1 and len({row for row, _ in positions}) == 1:
            cells = tuple(after[1] - before[1] for before, after in zip(positions, positions[1:]))
        # DECRC, then blanks over the cells the probe drew (a wrapped or unanswered probe: to
        # the end of the line), then DECRC again: the screen is as it was, the cursor back.
        erase = b" " * sum(cells) if cells is not None and 0 <= sum(cells) <= 16 else b"\x1b[K"
        os.write(fd, b"\x1b8" + erase + b"\x1b8")
        mode = _DECRPM.search(replies)
        return cells, int(mode.group(1)) if mode else None
    except OSError as error:
        raise QueryError(f"querying the terminal: {error}") from None
    finally:
        try:
            # TCSAFLUSH: a reply that came after the deadline is dropped, not read as keys.
            termios.tcsetattr(fd, termios.TCSAFLUSH, saved)
        except OSError:
            pass  # the terminal is gone: nothing left to restore


def _from_answers(cells: Optional[tuple[int, ...]], mode: Optional[int]) -> Optional[Detection]:
    if cells is not None:
        votes = {profile: sum(widths[profile] == moved for (_, widths), moved in zip(PROBE_CLUSTERS, cells))
                 for profile in ("grapheme", "wcwidth")}
        best: Profile = "grapheme" if votes["grapheme"] > votes["wcwidth"] else "wcwidth"
        if votes[best] > votes["grapheme" if best == "wcwidth" else "wcwidth"]:
            moved = ", ".join(f"{cluster} {n}" for (cluster, _), n in zip(PROBE_CLUSTERS, cells))
            exact = "" if votes[best] == len(cells) else "; no profile is exact for this terminal"
            return Detection(best, "cursor", f"the cursor moved {moved} cells: {best}'s widths for "
                             f"{votes[best]} of {len(cells)}{exact}", mode, cells)
    if mode is not None and mode in _DECRQM_PROFILES:
        return Detection(_DECRQM_PROFILES[mode], "decrqm",
                         f"DECRQM mode 2027 answered {mode}", mode, cells)
    return None


def _open_controlling_terminal() -> int:
    try:
        return os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        # ENXIO: no controlling terminal (a service, a pipe, setsid).
        raise QueryError("no controlling terminal" if error.errno == errno.ENXIO else f"/dev/tty: {error}") from None


def detect_now(environ: Optional[Mapping[str, str]] = None, ask: bool = True,
               timeout: float = DEFAULT_TIMEOUT) -> Detection:
    """detect() without its cache: the environment's rules, then (``ask``) the controlling
    terminal's answers."""
    found = from_environment(os.environ if environ is None else environ)
    if found is not None:
        return found
    if not ask:
        return Detection(None, "none", "the environment names no known terminal; not asked")
    try:
        fd = _open_controlling_terminal()
    except QueryError as error:
        return Detection(None, "none", f"the environment names no known terminal; {error}")
    try:
        cells, mode = query(fd, timeout)
    except QueryError as error:
        return Detection(None, "none", f"the environment names no known terminal; {error}")
    finally:
        os.close(fd)
    return _from_answers(cells, mode) or Detection(
        None, "none", f"the environment names no known terminal and the terminal did not answer within {timeout} s",
        mode, cells)


_lock = threading.Lock()
_detected: Optional[Detection] = None


def detect() -> Detection:
    """The profile of the terminal this process runs in, decided on the first call and kept
    for the process (see the module's documentation for the rules)."""
    global _detected
    if _detected is None:
        with _lock:
            if _detected is None:
                _detected = detect_now()
    return _detected


def forget() -> None:
    """Drops the cached detection, so the next detect() decides again (after the process has
    moved to another terminal, or in tests)."""
    global _detected
    with _lock:
        _detected = None
