"""fitd.toolkits and fitd.cells against the real Rich and urwid (the test extra installs them):
their widths, as their own layout code reads them, come from fitd in the detected profile,
and from their own functions when no daemon answers."""

from __future__ import annotations

import subprocess
import sys

import pytest

import fitd
from fitd import cells, terminal, toolkits

rich_cells = pytest.importorskip("rich.cells")
urwid = pytest.importorskip("urwid")

TEXT = "\U0001F469\u200d\U0001F4BB dev"  # 👩‍💻 dev: tmux 3.3a draws 8 cells, Rich and urwid say 6


@pytest.fixture
def as_tmux_33a(monkeypatch):
    """This process in tmux 3.3a's profile, every toolkit patched; everything undone after."""
    monkeypatch.setattr(terminal, "_detected", terminal.from_environment({"TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"}))
    cells.shared().forget()
    yield toolkits.install()
    toolkits.uninstall()
    cells.shared().forget()


def test_the_toolkits_own_widths_are_not_tmux_33as():
    assert rich_cells.cell_len(TEXT) == 6 and urwid.calc_width(TEXT, 0, len(TEXT)) == 6


def test_rich_measures_through_fitd_where_it_imported_cell_len_by_name(as_tmux_33a):
    import rich.segment
    import rich.text
    assert as_tmux_33a == ["rich", "urwid"]
    assert rich_cells.cell_len(TEXT) == 8 and rich_cells.cached_cell_len(TEXT) == 8
    assert rich.text.Text(TEXT).cell_len == 8                     # rich.text's own cell_len name
    assert rich.segment.Segment(TEXT).cell_length == 8            # rich.segment's
    # Textual imports cached_cell_len as cell_len (textual/_cells.py): a module imported now.
    namespace: dict = {}
    exec("from rich.cells import cached_cell_len as cell_len", namespace)
    assert namespace["cell_len"](TEXT) == 8
    assert rich_cells.cell_len("plain ascii") == 11 and rich_cells.cell_len("a\nb") == 2


def test_urwid_lays_out_through_fitd(as_tmux_33a):
    import urwid.text_layout
    assert urwid.calc_width(TEXT, 0, len(TEXT)) == 8
    assert urwid.text_layout.calc_width(TEXT, 3, len(TEXT)) == 4  # " dev" after the cluster
    assert urwid.text_layout.calc_width(TEXT, 2, len(TEXT)) == 6  # "💻 dev": the laptop alone is 2
    assert urwid.Text(TEXT).pack() == (8, 1)                     # the widget's own size
    assert urwid.Text("日本語 " + TEXT).pack() == (15, 1)


def test_uninstall_puts_the_toolkits_own_functions_back(as_tmux_33a):
    import rich.text
    toolkits.uninstall()
    assert rich_cells.cell_len(TEXT) == 6 and rich.text.Text(TEXT).cell_len == 6
    assert urwid.calc_width(TEXT, 0, len(TEXT)) == 6


def test_without_a_daemon_the_toolkits_own_widths_answer():
    """On a bus where org.fitd.Fit1 cannot be activated, in a child with its own patched Rich."""
    script = f"""
import os, fitd, fitd.adopt, rich.cells, rich.text
os.environ.pop("DBUS_SESSION_BUS_ADDRESS")
assert rich.cells.cell_len({TEXT!r}) == 6, rich.cells.cell_len({TEXT!r})
assert rich.text.Text({TEXT!r}).cell_len == 6
assert isinstance(fitd.cells.shared().last_error, fitd.DaemonUnavailable), fitd.cells.shared().last_error
print(fitd.adopt.installed)
"""
    env = {"PATH": "/usr/bin:/bin", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a",
           "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=30,
                          start_new_session=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['rich', 'urwid']"


def test_cells_width_without_a_fallback_raises_the_fit_error():
    widths = cells.CellWidths(bus_address="unix:path=/nonexistent/bus", timeout=2)
    with pytest.raises(fitd.DaemonUnavailable):
        widths.width(TEXT)
    assert widths.width(TEXT, fallback=len) == len(TEXT)
    assert widths.width("ascii needs no daemon") == 21


class FakeWindow:
    """What curses' window does with addstr, for the helper's arithmetic: ncurses moves its
    cursor by wcwidth per code point (👩‍💻: 2 + 0 + 2)."""

    def __init__(self):
        self.calls, self.x = [], 0

    def addstr(self, y, x, text, *attr):
        self.calls.append((y, x, text, attr))
        self.x = x + 8

    def getyx(self):
        return (0, self.x)


def test_curses_addstr_gives_the_column_the_terminal_drew_to(fit, monkeypatch):
    monkeypatch.setattr(terminal, "_detected", terminal.Detection("grapheme", "environment", "kitty"))
    cells.shared().forget()
    window = FakeWindow()
    assert cells.addstr(window, 3, 10, TEXT, 7) == 16
    assert window.calls == [(3, 10, TEXT, (7,))]
    cells.shared().forget()
