#!/usr/bin/env python3
"""A terminal app laid out by fitd: the screen of settings-screen.json in character cells.

    python3 clients/examples/terminal_app.py [--document FILE] [--state-file FILE]

It asks fitd's Layout for the document at the terminal's width in cells (unit "cells") and
draws every text, icon and shape at whole cell positions with plain ANSI escapes. It lays out
again when the terminal is resized (SIGWINCH) and when fitd's GenerationChanged arrives (the
text scale, fonts or their configuration changed): the payment row turns vertical at large
text sizes and the settings list turns into columns when the terminal is too narrow for every
row. Its cells are the terminal's: fitd.terminal.detect() finds whether the terminal gives an
emoji sequence one width or adds up its code points' (tmux before 3.4, VTE, xterm), and every
text is measured and broken that way. q or Ctrl-C quits. With --state-file the decisions applied and what was drawn are written
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


class Screen:
    """A grid of cells drawn from the layout, written to the terminal in one go. A text is
    one run in the grid, as wide as fitd measured it in the terminal's profile: its first cell
    holds the whole line, the cells it covers nothing, and it is drawn at its own cursor
    position, so no cluster's width is guessed here."""

    def __init__(self, columns: int, rows: int):
        self.columns, self.rows = columns, rows
        self.chars = [[" "] * columns for _ in range(rows)]
        self.styles = [[PLAIN] * columns for _ in range(rows)]

    def fill(self, x: int, y: int, w: int, h: int, style: str) -> None:
        for row in range(max(0, y), min(self.rows, y + h)):
            for col in range(max(0, x), min(self.columns, x + w)):
                self.styles[row][col] = style

    def text(self, x: int, y: int, line: str, width: int) -> None:
        if not (0 <= y < self.rows and 0 <= x and x + width <= self.columns) or width == 0:
            return
        self.chars[y][x] = line
        for col in range(x + 1, x + width):
            self.chars[y][col] = ""

    def render(self) -> str:
        out = ["\x1b[H"]
        for row in range(self.rows):
            style = None
            out.append(f"\x1b[{row + 1};1H")
            for col in range(self.columns):
                if self.styles[row][col] != style:
                    style = self.styles[row][col]
                    out.append(f"\x1b[{style}m")
                run = self.chars[row][col]
                if len(run) > 1:  # a text: placed by the cursor, whatever came before it
                    out.append(f"\x1b[{row + 1};{col + 1}H")
                out.append(run)
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
                screen.text(x, y, ICON_MARK, 1)
            elif d.what == "shape":
                screen.fill(x, y, w, h, SHAPE)
        for d in drawables:
            if d.what == "text":
                x, y = drawn[d.id][:2]
                for i, (line, width) in enumerate(lines[d.id]):
                    screen.text(x, y + i, line, width)
        self.out.write(screen.render())
        self.out.flush()
        self.layouts += 1
        fitdoc.write_state(self.state_file, {
            "app": "terminal", "unit": "cells", "reason": reason, "layouts": self.layouts,
            "proposal": {"width": size.columns, "height": None}, "terminal": [size.columns, size.lines],
            "size": list(layout.size), "generation": layout.generation,
            "decisions": fitdoc.decisions(layout), "drawn": drawn,
            "texts": {d.id: [line for line, _ in lines[d.id]] for d in drawables if d.what == "text"},
            "terminal_profile": fitd.terminal.detect().profile, "terminal_reason": fitd.terminal.detect().reason,
        })

    async def _lines(self, texts: list) -> dict:
        """Each text's lines and their widths in cells as fitd broke them at its frame's width
        (one batch): a terminal cannot ask Pango, so the line breaks come from the same daemon
        as the layout, wrapped as layouts wrap (inside a word only when it alone is too wide),
        in the terminal's profile (the package sends fitd.terminal's). Layout itself counts
        cells by clusters, so where the terminal adds up code points (👩‍💻 is 4 cells, not 2) a
        text can be wider than its frame: it is kept to the frame's rows and ellipsized, never
        drawn over its neighbour."""
        results = await self.fit.measure_batch(
            [{"text": d.text, "unit": "cells", "wrap": "word-char", "lines": True, "ellipsize": "end",
              "max_width": float(cell(d.x + d.width) - cell(d.x)),
              "max_lines": max(1, cell(d.y + d.height) - cell(d.y))} for d in texts])
        out = {}
        for d, result in zip(texts, results):
            if isinstance(result, fitdoc.FitError):
                raise result
            out[d.id] = [(line.text, int(line.width)) for line in result.lines] or [(d.text, int(result.width))]
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
    # Asked before anything else reads the terminal (the key reader below would take its answers).
    fitd.terminal.detect()
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
