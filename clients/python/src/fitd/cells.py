"""The cell width of one line of text as the terminal this process runs in draws it, from fitd
(Measure, unit "cells", with fitd.terminal's profile): what a terminal toolkit's own width
function would answer, for the adapters of fitd.toolkits and for curses.

    from fitd import cells
    cells.width("👩‍💻 dev")                      # 8 in tmux 3.3a, 6 in kitty
    x = cells.addstr(window, 0, 0, "👩‍💻 dev")   # curses: the column after the text

A toolkit asks for widths many times a frame, so answers are cached, printable ASCII is
counted without a round trip, and when no daemon answers the caller's own function (the
``fallback``) answers instead, without asking fitd again for ``retry_after`` seconds.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Optional

from .errors import FitError

# C0 and C1 controls and DEL: a terminal executes them, they take no cell (rich's and
# urwid's width functions count them as 0 too). Measured, a newline would start a second line.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")
_PRINTABLE_ASCII = re.compile("[\x20-\x7e]*")


class CellWidths:
    """Widths from one fitd connection, cached (``cache_size`` texts, least recently used
    dropped). ``timeout`` bounds a call, so a hung daemon stalls a frame by that much at most
    once per ``retry_after`` seconds."""

    def __init__(self, bus_address: Optional[str] = None, timeout: float = 2.0, cache_size: int = 4096,
                 retry_after: float = 5.0) -> None:
        self.bus_address, self.timeout, self.cache_size, self.retry_after = bus_address, timeout, cache_size, retry_after
        self._client: Any = None
        self._cache: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()
        self._down_until = 0.0
        self.last_error: Optional[FitError] = None

    def _measure(self, text: str) -> int:
        from .client import Client  # the blocking client starts a thread: only when needed
        if self._client is None:
            self._client = Client(self.bus_address, self.timeout)
        return int(self._client.measure(text, unit="cells").width)

    def width(self, text: str, fallback: Optional[Callable[[str], int]] = None) -> int:
        """Cells ``text`` takes on one line. Where fitd cannot answer, ``fallback(text)``
        (the toolkit's own function); without one, the FitError is raised."""
        if _PRINTABLE_ASCII.fullmatch(text):
            return len(text)
        text = _CONTROLS.sub("", text)
        with self._lock:
            cached = self._cache.get(text)
            if cached is not None:
                self._cache.move_to_end(text)
                return cached
        if time.monotonic() < self._down_until and fallback is not None:
            return fallback(text)
        try:
            cells = self._measure(text)
        except FitError as error:
            self.last_error = error
            if fallback is None:
                raise
            self._down_until = time.monotonic() + self.retry_after
            return fallback(text)
        with self._lock:
            self._cache[text] = cells
            if len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return cells

    def forget(self) -> None:
        """Drops every cached width (after fitd.terminal.forget(), say)."""
        with self._lock:
            self._cache.clear()
        self._down_until = 0.0

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


_shared: Optional[CellWidths] = None
_shared_lock = threading.Lock()


def shared() -> CellWidths:
    """The process's CellWidths, which width() and the toolkit adapters use."""
    global _shared
    if _shared is None:
        with _shared_lock:
            if _shared is None:
                _shared = CellWidths()
    return _shared


def width(text: str, fallback: Optional[Callable[[str], int]] = None) -> int:
    """Cells ``text`` takes on one line in this process's terminal (see CellWidths.width)."""
    return shared().width(text, fallback)


def addstr(window: Any, y: int, x: int, text: str, *attr: int) -> int:
    """curses: ``window.addstr(y, x, text[, attr])``, and the column after the text as the
    terminal draws it (fitd's width, not ncurses' per-code-point wcwidth): the place for what
    comes next on the line. Where fitd cannot answer, ncurses' own cursor column after it."""
    window.addstr(y, x, text, *attr)
    return x + width(text, fallback=lambda _: int(window.getyx()[1]) - x)
