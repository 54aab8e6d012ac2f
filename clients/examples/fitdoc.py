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
from dataclasses import dataclass
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
    """One frame to draw: a text (with its string and font), an icon (an image), or a shape
    (a spacer that is the back layer of a background, standing for a filled shape)."""

    id: str
    what: str  # "text", "icon" or "shape"
    text: str = ""
    text_style: Optional[str] = None
    font: Optional[str] = None
    x: float = 0.0
    y: float = 0.0
    width: float = 0.0
    height: float = 0.0
    line_count: int = 1
    on_shape: bool = False  # a text in front of a background's shape


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
        """A frame's id ("rate#3", "cell#1#2" for nested forEach copies) as the document node
        and its row numbers."""
        base, *rows = frame_id.split("#")
        if base not in self.index or not all(r.isdigit() for r in rows):
            raise DocumentError(f"fitd returned a frame {frame_id!r} that is not a node of the document")
        return self.index[base], [int(r) for r in rows]

    def drawables(self, layout: LayoutResult) -> list[Drawable]:
        """What to draw, in document order: the visible, not hidden frames of texts, images,
        and spacers that are a background's back layer."""
        out = []
        for frame in layout.frames:
            if not frame.visible or frame.hidden:
                continue
            frame_id = frame.id
            position, rows = self.resolve(frame_id)
            _, kind, parent, props = self.nodes[position]
            geometry = dict(x=frame.x, y=frame.y, width=frame.width, height=frame.height)
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
        return out

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
