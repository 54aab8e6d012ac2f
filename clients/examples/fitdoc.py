"""What clients/examples/gtk_app.py and terminal_app.py share: the document, the call to fitd,
what each frame is (a text and its string, an icon, a shape), and the state file the tests
read.

Both apps send the same document (settings-screen.json) to fitd's Layout and draw the frames
it returns; neither measures text itself.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from dataclasses import dataclass, replace
from typing import Optional

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DOCUMENT = os.path.join(HERE, "settings-screen.json")

try:
    import fitd
except ImportError:
    sys.exit("the fitd package is not installed: pip install ./clients/python (clients/examples/README.md)")
from fitd import FitError, LayoutResult, flatten_document

__all__ = ["Document", "DocumentError", "Drawable", "FitError", "decisions", "load_document", "write_state"]

# Properties a node passes down to every node below that does not set them
# (protocol/README.md, "Properties every kind takes": SwiftUI's environment).
_INHERITED = ("font", "textStyle")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Drawable:
    """One frame to draw: a text (with its string and font), an icon (an image), a shape (a
    spacer that is the back layer of a background, standing for a filled shape), or a scroll
    (a viewport onto content that may be larger: the frames of everything inside it)."""

    id: str
    what: str  # "text", "icon", "shape" or "scroll"
    text: str = ""
    text_style: Optional[str] = None
    font: Optional[str] = None
    x: float = 0.0
    y: float = 0.0
    width: float = 0.0
    height: float = 0.0
    line_count: int = 1
    on_shape: bool = False  # a text in front of a background's shape
    # The frame id of the nearest scroll this is inside, None at the top: it is drawn in that
    # scroll's content, which moves under the scroll's frame.
    scroll: Optional[str] = None
    # A scroll's: its axis, and its content's size from its frame's top-left corner (fitd frames
    # what is past the scroll's length; the toolkit scrolls it).
    axis: str = ""
    content_width: float = 0.0
    content_height: float = 0.0


class DocumentError(ValueError):
    """The document cannot be used by these apps (fitd checks everything else)."""


class Document:
    """A layout document as the apps need it: the flat nodes fitd is sent, and per node its
    kind, properties, parent and the properties it inherits."""

    def __init__(self, document: dict):
        self.source = document
        try:
            self.nodes = flatten_document(document)
        except FitError as error:
            raise DocumentError(f"not a layout document: {error.message}") from None
        self.index = {node_id: i for i, (node_id, _, _, _) in enumerate(self.nodes)}
        # Per node, how many forEach nodes are above it: how many "#<row>" its copies' ids end in.
        self.loops = [sum(1 for p in self._chain(i) if p != i and self.nodes[p][1] == "forEach")
                      for i in range(len(self.nodes))]

    def _chain(self, position: int):
        """The node at position and its ancestors, nearest first."""
        seen = 0
        while position >= 0:
            yield position
            position = self.nodes[position][2]
            seen += 1
            if seen > len(self.nodes):
                raise DocumentError("the document's parents form a cycle")

    def inherited(self, position: int, key: str):
        for p in self._chain(position):
            if key in self.nodes[p][3]:
                return self.nodes[p][3][key]
        return None

    def _fill(self, text: str, position: int, rows: list[int]) -> str:
        """{field} filled from the rows of the enclosing forEach nodes (innermost first, then
        outer ones), as the daemon's ForEachExpansion.substitute does; an unknown name stays."""
        scopes = []
        loops = [p for p in self._chain(position) if self.nodes[p][1] == "forEach"]
        loops.reverse()  # outermost first, as the "#outer#inner" suffixes are
        if len(loops) != len(rows):
            raise DocumentError(f"node {self.nodes[position][0]!r} has {len(rows)} row numbers and {len(loops)} forEach above it")
        for loop, row in zip(loops, rows):
            props = self.nodes[loop][3]
            fields, data = props.get("fields", []), props.get("data", [])
            values = data[row * len(fields):(row + 1) * len(fields)]
            scopes.insert(0, dict(zip(fields, values)))

        def value(match):
            for scope in scopes:
                if match.group(1) in scope:
                    return scope[match.group(1)]
            return match.group(0)
        return _PLACEHOLDER.sub(value, text)

    def resolve(self, frame_id: str) -> tuple[int, list[int]]:
        """A frame's id as the document node and its row numbers. A forEach copy is
        "<id>#<row>" ("cell#1#2" nested); a node the nested form gave no id is "#<index>"
        (flatten_document), so "#7" is that node and "#7#2" its copy in row 2. The node is
        the one whose id the frame id begins with, followed by exactly as many "#<row>" as
        there are forEach nodes above it."""
        cut = 0
        while cut >= 0:
            # A "#" in first place begins a generated id, never a row.
            cut = frame_id.find("#", cut + 1)
            base, rows = (frame_id, []) if cut < 0 else (frame_id[:cut], frame_id[cut + 1:].split("#"))
            position = self.index.get(base)
            if position is not None and len(rows) == self.loops[position] and all(r.isdigit() for r in rows):
                return position, [int(r) for r in rows]
        raise DocumentError(f"fitd returned a frame {frame_id!r} that is not a node of the document")

    def _frame_id(self, position: int, rows: list[int]) -> str:
        """The frame id of the node at position in the copy of rows (rows of the forEach nodes
        above a node inside it: the node takes as many as are above it)."""
        return self.nodes[position][0] + "".join(f"#{r}" for r in rows[:self.loops[position]])

    def _scroll_above(self, position: int, rows: list[int]) -> Optional[str]:
        """The frame id of the nearest scroll above the node, None if there is none."""
        for p in self._chain(position):
            if p != position and self.nodes[p][1] == "scroll":
                return self._frame_id(p, rows)
        return None

    def drawables(self, layout: LayoutResult) -> list[Drawable]:
        """What to draw, in document order (a scroll before what it holds): the visible, not
        hidden frames of texts, images, spacers that are a background's back layer, and
        scrolls, each with the scroll it is inside."""
        out = []
        scrolls = {}  # frame id: [x, y, width, height, content right, content bottom]
        for frame in layout.frames:
            if not frame.visible or frame.hidden:
                continue
            frame_id = frame.id
            position, rows = self.resolve(frame_id)
            _, kind, parent, props = self.nodes[position]
            scroll = self._scroll_above(position, rows)
            if scroll in scrolls:
                # Every frame inside, containers too, extends the content the scroll moves.
                extent = scrolls[scroll]
                extent[4], extent[5] = max(extent[4], frame.x + frame.width), max(extent[5], frame.y + frame.height)
            geometry = dict(x=frame.x, y=frame.y, width=frame.width, height=frame.height, scroll=scroll)
            if kind == "text":
                out.append(Drawable(frame_id, "text", self._fill(str(props.get("text", "")), position, rows),
                                    self.inherited(position, "textStyle"), self.inherited(position, "font"),
                                    line_count=frame.line_count,
                                    on_shape=any(self.nodes[p][1] == "background" for p in self._chain(position)),
                                    **geometry))
            elif kind == "image":
                out.append(Drawable(frame_id, "icon", **geometry))
            elif kind == "spacer" and parent >= 0 and self.nodes[parent][1] == "background" \
                    and self._first_child(parent) != position:
                out.append(Drawable(frame_id, "shape", **geometry))
            elif kind == "scroll":
                scrolls[frame_id] = [frame.x, frame.y, frame.width, frame.height, frame.x + frame.width, frame.y + frame.height]
                out.append(Drawable(frame_id, "scroll", axis=str(props.get("axis", "vertical")), **geometry))
        return [replace(d, content_width=scrolls[d.id][4] - d.x, content_height=scrolls[d.id][5] - d.y)
                if d.what == "scroll" else d for d in out]

    def _first_child(self, parent: int) -> int:
        return next(i for i, node in enumerate(self.nodes) if node[2] == parent)


def load_document(path: str) -> Document:
    try:
        with open(path, encoding="utf-8") as f:
            return Document(json.load(f))
    except OSError as error:
        raise DocumentError(f"{path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise DocumentError(f"{path}: not JSON: {error}") from None


def decisions(layout: LayoutResult) -> dict:
    """The decisions as both apps report them: per decision node its kind and outcome
    (candidate, axis, ...), as fitd sent them."""
    return {d.id: dict(d.outcome, kind=d.kind) for d in layout.decisions}


def write_state(path: Optional[str], state: dict) -> None:
    """Writes the state file atomically (a reader never sees half a file)."""
    if not path:
        return
    state = dict(state, written_at=time.time())
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    os.replace(tmp, path)
