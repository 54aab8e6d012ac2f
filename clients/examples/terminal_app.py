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
text is measured and broken that way. A scroll node shows its content clipped to its frame,
with < > (or ^ v in its last column) where there is more: the arrow keys move it, and Tab moves them to the next
scroll. q or Ctrl-C quits. With --state-file the decisions applied and what was drawn are
written there as JSON after every layout and every scroll.

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
# A scroll with more content on a side shows these there (a column of < or >; ^ and v in its
# last column), in reverse video: the scroll the arrow keys move, or dim: another one (Tab
# moves to it).
MORE = {"left": "<", "right": ">", "up": "^", "down": "v"}
FOCUSED, UNFOCUSED = "0;7", "0;2"
# How far one arrow key moves a scroll: columns, rows.
STEP = {"horizontal": 4, "vertical": 1}
KEYS = {b"\x1b[C": ("horizontal", 1), b"\x1b[D": ("horizontal", -1), b"\x1b[B": ("vertical", 1), b"\x1b[A": ("vertical", -1),
        b"\x1bOC": ("horizontal", 1), b"\x1bOD": ("horizontal", -1), b"\x1bOB": ("vertical", 1), b"\x1bOA": ("vertical", -1)}

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1: the cells x0 <= x < x1, y0 <= y < y1


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

    def fill(self, x: int, y: int, w: int, h: int, style: str, clip: "Rect | None" = None) -> None:
        x0, y0, x1, y1 = clip or (0, 0, self.columns, self.rows)
        for row in range(max(0, y, y0), min(self.rows, y + h, y1)):
            for col in range(max(0, x, x0), min(self.columns, x + w, x1)):
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
        self.needs_layout = True
        self.wake = asyncio.Event()
        self.stop = asyncio.Event()
        self.failure: str | None = None
        # The last layout: (layout, drawables, each text's lines, terminal size); drawn again
        # when a scroll moves, without asking fitd for another.
        self.laid_out = None
        # Per scroll node's frame id: how far its content is moved, [columns, rows].
        self.offsets: dict[str, list[int]] = {}
        self.focus: str | None = None  # the scroll the arrow keys move
        self.scrollable: list[str] = []  # the scrolls with more content than room, in order

    def relayout(self, reason: str) -> None:
        """Asks for a layout; a burst (a resize sends many SIGWINCH) makes one."""
        self.reason = reason
        self.needs_layout = True
        self.wake.set()

    def key(self, data: bytes) -> None:
        """Arrow keys move the focused scroll along its axis; Tab focuses the next scroll that
        has more content than room."""
        while data:
            if data.startswith(b"\t"):
                if self.scrollable:
                    at = self.scrollable.index(self.focus) if self.focus in self.scrollable else -1
                    self.focus = self.scrollable[(at + 1) % len(self.scrollable)]
                    self.wake.set()
                data = data[1:]
                continue
            sequence = next((k for k in KEYS if data.startswith(k)), None)
            if sequence is None:
                data = data[1:]
                continue
            data = data[len(sequence):]
            axis, direction = KEYS[sequence]
            focused = self.focus and self.laid_out and next(
                (d for d in self.laid_out[1] if d.id == self.focus), None)
            if focused and focused.axis == axis:
                offset = self.offsets.setdefault(self.focus, [0, 0])
                offset[axis == "vertical"] += direction * STEP[axis]  # clamped when drawn
                self.wake.set()

    async def run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            if self.needs_layout or self.laid_out is None:
                self.needs_layout = False
                await self._relayout_now(self.reason)
            else:
                await self._guarded(self._draw("scroll"))

    async def _guarded(self, work) -> bool:
        """Runs work; a fitd error (no daemon, a document fitd refuses) ends the app, saying why."""
        try:
            await work
            return True
        except (fitdoc.FitError, fitdoc.DocumentError) as error:
            self.failure = str(error)
            fitdoc.write_state(self.state_file, {"app": "terminal", "error": self.failure})
            self.stop.set()
            return False

    async def _relayout_now(self, reason: str) -> None:
        async def lay_out():
            size = os.get_terminal_size(self.out.fileno())
            layout = await self.fit.layout(self.document.source, width=size.columns, unit="cells")
            drawables = self.document.drawables(layout)
            lines = await self._lines([d for d in drawables if d.what == "text"])
            self.laid_out = (layout, drawables, lines, size)
            self.layouts += 1
            await self._draw(reason)
        await self._guarded(lay_out())

    def _scroll_views(self, drawables, frames) -> dict:
        """Per scroll, parents first: its viewport on the screen, how far its content is moved
        (clamped to what there is), what it can be moved, on which sides more content lies,
        and the shift and clip for what is inside it."""
        views = {None: {"shift": (0, 0), "clip": (0, 0, 10**6, 10**6)}}
        for d in drawables:
            if d.what != "scroll":
                continue
            outer = views[d.scroll]
            x, y, w, h = frames[d.id]
            content_w = cell(d.x + d.content_width) - x
            content_h = cell(d.y + d.content_height) - y
            horizontal = d.axis == "horizontal"
            most = [max(0, content_w - w) if horizontal else 0, 0 if horizontal else max(0, content_h - h)]
            offset = self.offsets.setdefault(d.id, [0, 0])
            offset[:] = [min(max(0, o), m) for o, m in zip(offset, most)]
            sx, sy = outer["shift"]
            ox0, oy0, ox1, oy1 = outer["clip"]
            view = (max(x - sx, ox0), max(y - sy, oy0), min(x - sx + w, ox1), min(y - sy + h, oy1))
            more = [side for side, is_more in (
                ("left", offset[0] > 0), ("right", offset[0] < most[0]),
                ("up", offset[1] > 0), ("down", offset[1] < most[1])) if is_more]
            # What is inside is clipped to the viewport less the cells the markers take: a
            # column at a side with more, or for ^ and v the last column (a row each would
            # take most of a short scroll).
            clip = (view[0] + ("left" in more), view[1],
                    view[2] - ("right" in more or "up" in more or "down" in more), view[3])
            views[d.id] = {"view": view, "offset": list(offset), "most": most, "more": more,
                           "shift": (sx + offset[0], sy + offset[1]), "clip": clip}
        return views

    async def _draw(self, reason: str) -> None:
        layout, drawables, lines, size = self.laid_out
        screen = Screen(size.columns, size.lines)
        frames = {}
        for d in drawables:
            frames[d.id] = [cell(d.x), cell(d.y), cell(d.x + d.width) - cell(d.x), cell(d.y + d.height) - cell(d.y)]
        views = self._scroll_views(drawables, frames)
        self.scrollable = [i for i, v in views.items() if i is not None and v["more"]]
        if self.focus not in self.scrollable:
            self.focus = self.scrollable[0] if self.scrollable else None
        drawn = {}
        for d in drawables:
            shift_x, shift_y = views[d.scroll]["shift"]
            x, y, w, h = frames[d.id]
            drawn[d.id] = [x - shift_x, y - shift_y, w, h]
        for d in drawables:
            x, y, w, h = drawn[d.id]
            clip = views[d.scroll]["clip"]
            if d.what == "icon":
                screen.fill(x, y, max(w, 1), max(h, 1), ICON, clip)
                if clip[0] <= x < clip[2] and clip[1] <= y < clip[3]:
                    screen.text(x, y, ICON_MARK, 1)
            elif d.what == "shape":
                screen.fill(x, y, w, h, SHAPE, clip)
        shown = await self._clipped_lines(drawables, drawn, lines, views)
        for d in drawables:
            for x, y, line, width in shown.get(d.id, []):
                screen.text(x, y, line, width)
        for scroll_id, view in views.items():
            if scroll_id is None:
                continue
            x0, y0, x1, y1 = view["view"]
            style = FOCUSED if scroll_id == self.focus else UNFOCUSED
            for side in view["more"]:
                cells = {"left": [(x0, r) for r in range(y0, y1)], "right": [(x1 - 1, r) for r in range(y0, y1)],
                         "up": [(x1 - 1, y0)], "down": [(x1 - 1, y1 - 1)]}[side]
                for col, row in cells:
                    screen.fill(col, row, 1, 1, style)
                    screen.text(col, row, MORE[side], 1)
        self.out.write(screen.render())
        self.out.flush()
        fitdoc.write_state(self.state_file, {
            "app": "terminal", "unit": "cells", "reason": reason, "layouts": self.layouts,
            "proposal": {"width": size.columns, "height": None}, "terminal": [size.columns, size.lines],
            "size": list(layout.size), "generation": layout.generation,
            "decisions": fitdoc.decisions(layout), "drawn": drawn,
            "texts": {d.id: [line for line, _ in lines[d.id]] for d in drawables if d.what == "text"},
            "shown": {i: [line for _, _, line, _ in runs] for i, runs in shown.items()},
            "scrolls": {i: {"viewport": list(v["view"]), "offset": v["offset"], "max": v["most"], "more": v["more"],
                            "focus": i == self.focus} for i, v in views.items() if i is not None},
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

    async def _clipped_lines(self, drawables, drawn, lines, views) -> dict:
        """Each text's lines as they show through the scrolls it is in: (x, y, line, width).
        A row outside the clip is left out; a line cut by its side is ellipsized by fitd to the
        cells that show, on the side it is cut (a terminal cannot cut a text between clusters
        it has not measured)."""
        shown: dict[str, list] = {}
        cut = []  # (id, row, x where the visible part starts, visible width, side cut, line)
        for d in drawables:
            if d.what != "text":
                continue
            x, y = drawn[d.id][:2]
            x0, y0, x1, y1 = views[d.scroll]["clip"]
            for i, (line, width) in enumerate(lines[d.id]):
                row = y + i
                if not y0 <= row < y1:
                    continue
                if x0 <= x and x + width <= x1:
                    shown.setdefault(d.id, []).append((x, row, line, width))
                elif max(x, x0) < min(x + width, x1):
                    cut.append((d.id, row, x, width, x < x0, max(x, x0), min(x + width, x1), line))
        if cut:
            results = await self.fit.measure_batch(
                [{"text": line, "unit": "cells", "lines": True, "max_width": float(right - left), "max_lines": 1,
                  "ellipsize": "start" if left_cut else "end"}
                 for _, _, _, _, left_cut, left, right, line in cut])
            for (text_id, row, x, width, left_cut, left, right, _), result in zip(cut, results):
                if isinstance(result, fitdoc.FitError):
                    raise result
                fitted = result.lines[0].text if result.lines else ""
                fitted_width = int(result.width)
                # Cut on the left only: the line keeps its end where it was.
                at = x + width - fitted_width if left_cut and right == x + width else left
                if fitted and fitted_width:
                    shown.setdefault(text_id, []).append((at, row, fitted, fitted_width))
        return shown

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
                data = os.read(sys.stdin.fileno(), 64)
                if data in (b"q", b"Q", b"\x03", b""):
                    stop.set()
                else:
                    app.key(data)
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
