#!/usr/bin/env python3
"""A terminal app laid out by fitd: the screen of settings-screen.json in character cells.

    python3 clients/examples/terminal_app.py [--document FILE] [--state-file FILE]

It asks fitd's Layout for the document at the terminal's width in cells (unit "cells") and
draws every text, icon and shape at whole cell positions with plain ANSI escapes. It lays out
again when the terminal is resized (SIGWINCH) and when fitd's GenerationChanged arrives (the
text scale, fonts or their configuration changed): the payment row turns vertical at large
text sizes and the settings list turns into columns when the terminal is too narrow for every
row. q or Ctrl-C quits. With --state-file the decisions applied and what was drawn are written
there as JSON after every layout.

Needs the fitd package (pip install ./clients/python); it runs on asyncio with fitd's
AsyncClient, nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import signal
import sys
import termios
import tty
import unicodedata

import fitdoc
import fitd

# Styles of a cell: SGR parameters (ECMA-48 8.3.117).
PLAIN, ICON, SHAPE = "0", "0;30;46", "0;97;45"
# An icon is a coloured cell with a mark in it (ASCII: one cell in every terminal).
ICON_MARK = "*"


def cell(value: float) -> int:
    """A cell position: fitd's frames in cells may be half cells (a text centred in an odd
    slot); the nearest whole cell, halves rounded up, is where a terminal can draw."""
    return math.floor(value + 0.5)


def char_cells(ch: str) -> int:
    """Columns one code point takes, as wcwidth: wide and fullwidth 2, combining 0. The texts
    here are fitd's lines, already broken to the cells fitd counted."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


class Screen:
    """A grid of cells drawn from the layout, written to the terminal in one go."""

    def __init__(self, columns: int, rows: int):
        self.columns, self.rows = columns, rows
        self.chars = [[" "] * columns for _ in range(rows)]
        self.styles = [[PLAIN] * columns for _ in range(rows)]

    def fill(self, x: int, y: int, w: int, h: int, style: str) -> None:
        for row in range(max(0, y), min(self.rows, y + h)):
            for col in range(max(0, x), min(self.columns, x + w)):
                self.styles[row][col] = style

    def text(self, x: int, y: int, line: str) -> None:
        if not 0 <= y < self.rows:
            return
        col = x
        for ch in line:
            width = char_cells(ch)
            if width == 0:
                continue
            if 0 <= col and col + width <= self.columns:
                self.chars[y][col] = ch
                if width == 2:
                    self.chars[y][col + 1] = ""
            col += width

    def render(self) -> str:
        out = ["\x1b[H"]
        for row in range(self.rows):
            style = None
            out.append(f"\x1b[{row + 1};1H")
            for col in range(self.columns):
                if self.styles[row][col] != style:
                    style = self.styles[row][col]
                    out.append(f"\x1b[{style}m")
                out.append(self.chars[row][col])
            out.append("\x1b[0m")
        return "".join(out)


class TerminalApp:
    def __init__(self, document: fitdoc.Document, fit: fitd.AsyncClient, state_file: str | None, out=sys.stdout):
        self.document = document
        self.state_file = state_file
        self.out = out
        self.fit = fit
        self.layouts = 0
        self.reason = "start"
        self.wake = asyncio.Event()
        self.stop = asyncio.Event()
        self.failure: str | None = None

    def relayout(self, reason: str) -> None:
        """Asks for a layout; a burst (a resize sends many SIGWINCH) makes one."""
        self.reason = reason
        self.wake.set()

    async def run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            await self._relayout_now(self.reason)

    async def _relayout_now(self, reason: str) -> None:
        size = os.get_terminal_size(self.out.fileno())
        try:
            layout = await self.fit.layout(self.document.source, width=size.columns, unit="cells")
            drawables = self.document.drawables(layout)
            lines = await self._lines([d for d in drawables if d.what == "text"])
        except (fitdoc.FitError, fitdoc.DocumentError) as error:
            # Nothing to draw without a layout (no daemon, a document fitd refuses): say why, stop.
            self.failure = str(error)
            fitdoc.write_state(self.state_file, {"app": "terminal", "error": self.failure})
            self.stop.set()
            return
        screen = Screen(size.columns, size.lines)
        drawn = {}
        for d in drawables:
            x, y, w, h = cell(d.x), cell(d.y), cell(d.x + d.width) - cell(d.x), cell(d.y + d.height) - cell(d.y)
            drawn[d.id] = [x, y, w, h]
            if d.what == "icon":
                screen.fill(x, y, max(w, 1), max(h, 1), ICON)
                screen.text(x, y, ICON_MARK)
            elif d.what == "shape":
                screen.fill(x, y, w, h, SHAPE)
        for d in drawables:
            if d.what == "text":
                x, y = drawn[d.id][:2]
                for i, line in enumerate(lines[d.id]):
                    screen.text(x, y + i, line)
        self.out.write(screen.render())
        self.out.flush()
        self.layouts += 1
        fitdoc.write_state(self.state_file, {
            "app": "terminal", "unit": "cells", "reason": reason, "layouts": self.layouts,
            "proposal": {"width": size.columns, "height": None}, "terminal": [size.columns, size.lines],
            "size": list(layout.size), "generation": layout.generation,
            "decisions": fitdoc.decisions(layout), "drawn": drawn,
            "texts": {d.id: lines[d.id] for d in drawables if d.what == "text"},
        })

    async def _lines(self, texts: list) -> dict:
        """Each text's lines as fitd broke them at its frame's width (one batch): a terminal
        cannot ask Pango, so the line breaks come from the same daemon as the layout, wrapped
        as layouts wrap (inside a word only when it alone is too wide)."""
        results = await self.fit.measure_batch(
            [{"text": d.text, "unit": "cells", "wrap": "word-char", "lines": True,
              "max_width": float(cell(d.x + d.width) - cell(d.x))} for d in texts])
        out = {}
        for d, result in zip(texts, results):
            if isinstance(result, fitdoc.FitError):
                raise result
            out[d.id] = [line.text for line in result.lines] or [d.text]
        return out


async def serve(document: fitdoc.Document, state_file: str | None) -> None:
    loop = asyncio.get_running_loop()
    async with fitd.AsyncClient() as fit:
        app = TerminalApp(document, fit, state_file)
        stop = app.stop
        await fit.on_generation_changed(lambda change: app.relayout("generation " + ",".join(change.reasons)))
        loop.add_signal_handler(signal.SIGWINCH, app.relayout, "resize")
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(signum, stop.set)
        if sys.stdin.isatty():
            def on_key():
                if os.read(sys.stdin.fileno(), 64) in (b"q", b"Q", b"\x03", b""):
                    stop.set()
            loop.add_reader(sys.stdin.fileno(), on_key)
        app.relayout("start")
        worker = asyncio.create_task(app.run())
        await stop.wait()
        worker.cancel()
    if app.failure:
        raise fitdoc.FitError("", app.failure)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--document", default=fitdoc.DEFAULT_DOCUMENT, help="the layout document (default: settings-screen.json)")
    parser.add_argument("--state-file", help="write the decisions and what was drawn here (JSON) after every layout")
    args = parser.parse_args(argv)
    if not sys.stdout.isatty():
        parser.error("standard output is not a terminal")
    try:
        document = fitdoc.load_document(args.document)
    except fitdoc.DocumentError as error:
        print(f"terminal_app: {error}", file=sys.stderr)
        return 1
    stdin = sys.stdin.fileno()
    saved = termios.tcgetattr(stdin) if sys.stdin.isatty() else None
    if saved is not None:
        tty.setcbreak(stdin)
    # The alternate screen, cursor hidden: the shell's screen comes back on exit.
    sys.stdout.write("\x1b[?1049h\x1b[?25l\x1b[2J")
    try:
        asyncio.run(serve(document, args.state_file))
    except fitd.FitError as error:  # no daemon, no session bus, a document fitd refuses
        failure = error.message or str(error)
    else:
        failure = None
    finally:
        try:
            sys.stdout.write("\x1b[0m\x1b[?25h\x1b[?1049l")
            sys.stdout.flush()
            if saved is not None:
                termios.tcsetattr(stdin, termios.TCSADRAIN, saved)
        except OSError:
            pass  # the terminal is gone (SIGHUP): nothing to restore
    if failure:
        print(f"terminal_app: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
