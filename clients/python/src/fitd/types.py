"""Results as dataclasses, decoded from the wire types of protocol/org.fitd.Fit1.xml."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Optional

from dbus_fast import Variant


def plain(value: Any) -> Any:
    """A D-Bus value with its variants unwrapped, structures as tuples (extras, outcomes)."""
    if isinstance(value, Variant):
        return plain(value.value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a measured text (Measure with lines=True)."""

    width: float
    ascent: float
    descent: float
    baseline: float  # from the top of the text
    start: int  # in Unicode code points of the request's text
    length: int
    text: str  # as shown, with "…" where ellipsized
    ellipsized: bool


@dataclass(frozen=True, slots=True)
class Metrics:
    """Measure's result, in px (logical pixels at 96 dpi) or cells with unit="cells".
    Wire: (dddubbasa(dddduusb)t)."""

    width: float
    height: float
    baseline: float  # of the first line, from the top
    line_count: int
    ellipsized: bool  # "…" replaced text
    truncated: bool  # some text is not shown (ellipsized, or lines dropped by max_lines)
    fonts: tuple[str, ...]  # the families that drew the text, primary first
    lines: tuple[Line, ...] = ()  # only with lines=True
    generation: int = 0  # the daemon's Generation the result was computed under

    @classmethod
    def from_wire(cls, v: list[Any]) -> "Metrics":
        return cls(v[0], v[1], v[2], v[3], v[4], v[5], tuple(v[6]),
                   tuple(Line(*line) for line in v[7]) if v[7] else (), v[8])


@dataclass(frozen=True, slots=True)
class FontMatch:
    """What a font description resolves to through fontconfig (ResolveFont, (sssdsdddbas))."""

    description: str  # canonical
    family: str
    style: str
    weight: float  # OpenType, 100–1000
    file: str
    pixel_size: float
    ascent: float
    descent: float
    matched: bool  # False: the family is not installed and fontconfig substituted another
    fallbacks: tuple[str, ...]  # families covering other scripts, in order

    @property
    def substituted(self) -> bool:
        return not self.matched

    @classmethod
    def from_wire(cls, v: list[Any]) -> "FontMatch":
        return cls(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], tuple(v[9]))


@dataclass(frozen=True, slots=True)
class TextStyle:
    """A Dynamic Type text style at a size category (GetTextStyles, (ssdd)). ``name`` is
    SwiftUI's (``title``, ``caption``; fitd 0.1 said ``title1``, ``caption1``). ``font`` already
    includes the category: measure it with text_scale=1."""

    name: str
    font: str
    point_size: float
    line_height: float  # px


@dataclass(frozen=True, slots=True)
class TextScaleInfo:
    """The user's text size: the properties TextScale, TextScaleSource, SizeCategory, Dpi,
    UIFont and MonospaceFont read in one GetAll."""

    factor: float
    source: str  # explicit, fontconfig, gnome, kde or default
    size_category: str  # xSmall … large (1.0) … accessibilityExtraExtraExtraLarge
    dpi: float
    ui_font: str
    monospace_font: str


@dataclass(frozen=True, slots=True)
class GenerationChange:
    """A GenerationChanged signal: results computed under an older generation are stale.
    reasons: fonts, fontconfig, text-scale, config, desktop."""

    generation: int
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CacheStats:
    entries: int
    bytes: int
    byte_limit: int  # 0: counted in entries
    hits: int
    misses: int
    evictions: int


@dataclass(frozen=True, slots=True)
class Stats:
    """GetStats: per cache, requests served, uptime."""

    caches: dict[str, CacheStats]
    requests_served: int
    uptime_seconds: float


# The kinds whose frames carry a text's outcome (scale, line_count, truncated).
TEXT_KINDS = frozenset({"text", "template"})


class NodeNotFound(KeyError):
    """LayoutResult.frame(id) and decision(id) for an id that is no node of the layout."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One node's place (Layout's frames, a(sbddddbdubbdda{sv})): x and y from the root's
    top-left corner; zeros when not visible. scale, line_count and truncated are meaningful
    for texts and templates; baselines are None when the node shows no text. ``is_text`` says
    whether the node is a text (or template), shown or not: the wire's is_text is false for a
    text not shown (a candidate not chosen), so the client reads the kind from the document."""

    id: str
    visible: bool
    x: float
    y: float
    width: float
    height: float
    is_text: bool
    scale: float
    line_count: int
    truncated: bool
    first_baseline: Optional[float]
    last_baseline: Optional[float]
    hidden: bool  # laid out but drawn by nobody (the hidden property)
    alignment: Optional[str]  # a text's multilineTextAlignment, when set
    extras: dict[str, Any] = field(default_factory=dict)  # every extra as sent, variants unwrapped

    @classmethod
    def from_wire(cls, f: list[Any], kind: Optional[str] = None) -> "Frame":
        extras = plain(f[13]) if f[13] else {}
        return cls(f[0], f[1], f[2], f[3], f[4], f[5], f[6] or kind in TEXT_KINDS, f[7], f[8], f[9],
                   f[11] if f[10] else None, f[12] if f[10] else None,
                   bool(extras.get("hidden", False)), extras.get("alignment"), extras)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision taken (Layout's decisions, a(susa{sv})): candidate and candidate_id for
    firstFit and uniformFit, axis for threshold, length for fitting, scale for scaleGroup; the
    others None. ``outcome`` has every key as sent. A uniformFit picks a position: its
    candidate_ids are the nodes every choice point of the list shows at it (document order),
    and its candidate_id the first of them, what the position is called in the first item."""

    id: str
    node_index: int
    kind: str
    candidate: Optional[int]
    candidate_id: Optional[str]
    axis: Optional[str]
    length: Optional[float]
    scale: Optional[float]
    outcome: dict[str, Any]
    candidate_ids: tuple[str, ...] = ()

    @classmethod
    def from_wire(cls, d: list[Any]) -> "Decision":
        o = plain(d[3])
        return cls(d[0], d[1], d[2], o.get("candidate"), o.get("candidate_id"), o.get("axis"),
                   o.get("length"), o.get("scale"), o, tuple(o.get("candidate_ids", ())))


@dataclass(frozen=True, slots=True)
class BreakpointInterval:
    """Widths from..to over which a decision's outcome holds: candidate (None where not shown
    or a threshold), axis (None unless a shown threshold); exact_start, the smallest width with
    that outcome to 1/1024 px (the reply's breakpoint_flips; None where the daemon did not
    find it or is older)."""

    start: float
    end: float
    candidate: Optional[int]
    axis: Optional[str]
    exact_start: Optional[float] = None


@dataclass(frozen=True, slots=True)
class Breakpoints:
    """The Layout option breakpoints' answer, from the root frame's extras."""

    range: tuple[float, float]
    min_content_width: float
    max_content_width: float
    decisions: dict[str, tuple[BreakpointInterval, ...]]  # per decision id, in document order
    truncated: bool  # more than 1,024 intervals
    # The text scale the layout was measured at: a width in px is px / text_scale in sp
    # (libadwaita's unit); None from a daemon that does not send it.
    text_scale: Optional[float] = None

    @classmethod
    def from_extras(cls, extras: dict[str, Any]) -> Optional["Breakpoints"]:
        if "min_content_width" not in extras:
            return None
        low, high = extras["breakpoint_range"]
        flips = dict(extras.get("breakpoint_flips", []))

        def exact(node_id: str, index: int) -> Optional[float]:
            starts = flips.get(node_id, [])
            return starts[index] if index < len(starts) and starts[index] >= 0 else None

        return cls((low, high), extras["min_content_width"], extras["max_content_width"],
                   {node_id: tuple(BreakpointInterval(a, b, c if c >= 0 else None, axis or None, exact(node_id, i))
                                   for i, (a, b, c, axis) in enumerate(intervals))
                    for node_id, intervals in extras.get("breakpoints", [])},
                   bool(extras.get("breakpoints_truncated", False)), extras.get("breakpoint_text_scale"))


@dataclass(frozen=True, slots=True)
class LayoutResult:
    """Layout's answer: the root's size, one frame per node in document order (with forEach
    rows, the expansion's order and ids "<id>#<row>"), the decisions, whether any shown text
    was truncated, the generation, and the breakpoints when asked for."""

    width: float
    height: float
    frames: tuple[Frame, ...]
    decisions: tuple[Decision, ...]
    truncated: bool
    generation: int
    breakpoints: Optional[Breakpoints] = None

    @property
    def size(self) -> tuple[float, float]:
        return (self.width, self.height)

    def frame(self, node_id: str) -> Frame:
        """The frame of the node with this id. NodeNotFound (a KeyError) when no node of the
        layout has it, as decision()."""
        for f in self.frames:
            if f.id == node_id:
                return f
        raise NodeNotFound(node_id)

    def decision(self, node_id: str) -> Optional[Decision]:
        """The decision of the node with this id; None when the node took none (not shown, or
        not a decision). NodeNotFound (a KeyError) when no node of the layout has the id, as
        frame()."""
        found = next((d for d in self.decisions if d.id == node_id), None)
        if found is None:
            self.frame(node_id)
        return found

    @classmethod
    def from_wire(cls, body: list[Any], kinds: Optional[Mapping[str, str]] = None) -> "LayoutResult":
        """``kinds``: each node id's kind in the document sent (a forEach's rows are
        "<id>#<row>"), which says which frames are texts when they are not shown."""
        size, frames, decisions, truncated, generation = body
        kinds = kinds or {}
        decoded = tuple(Frame.from_wire(f, kinds.get(f[0]) or kinds.get(f[0].rpartition("#")[0])) for f in frames)
        breakpoints = next((b for b in (Breakpoints.from_extras(f.extras) for f in decoded) if b), None)
        return cls(size[0], size[1], decoded, tuple(Decision.from_wire(d) for d in decisions),
                   truncated, generation, breakpoints)
