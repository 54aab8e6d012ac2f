"""A small Python client of fitd (org.fitd.Fit1 on the D-Bus session bus), on python-dbus.

    from fitd_client import FitClient
    fit = FitClient()
    m = fit.measure("Save changes?", "Noto Sans 11", max_width=120, lines=True)
    print(m.width, m.line_count, [line.text for line in m.lines])

Needs Debian's python3-dbus (``import dbus``). The first call starts fitd by D-Bus
activation. Every option key and error is documented in protocol/README.md; an unknown
option key is sent as it is, so the daemon's UnknownOption error reaches you instead of a
silently ignored typo.

Layout documents (protocol/layout-document.schema.json) are dicts as ``json.load`` gives them,
flat (``nodes``) or nested (``root`` with ``children``): ``layout`` flattens them to the wire
form (``flatten_document``) and returns frames by id.

Signals (``on_generation_changed``) need a main loop: call
``dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)`` before making the client, then run
a ``GLib.MainLoop``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Sequence, Union

import dbus

BUS_NAME = "org.fitd.Fit1"
OBJECT_PATH = "/org/fitd/Fit1"
INTERFACE = "org.fitd.Fit1"

# The D-Bus type each known option is sent as (protocol/README.md, "Measure options").
_OPTION_TYPES = {
    "max_width": dbus.Double,
    "wrap": dbus.String,
    "max_lines": dbus.UInt32,
    "ellipsize": dbus.String,
    "features": lambda v: dbus.Array([dbus.String(f) for f in v], signature="s") if not isinstance(v, str) else dbus.String(v),
    "letter_spacing": dbus.Double,
    "unit": dbus.String,
    "lines": dbus.Boolean,
    "text_scale": dbus.Double,
    "language": dbus.String,
    "metrics": dbus.String,
    "markup": dbus.Boolean,
    "escapes": dbus.String,
    "ambiguous": dbus.String,
    "terminal": dbus.String,
}


class FitError(Exception):
    """An error reply: ``name`` is org.fitd.Fit1.Error.* or a standard D-Bus error name."""

    def __init__(self, name: str, message: str):
        super().__init__(f"{message} ({name})")
        self.name = name
        self.message = message

    @classmethod
    def from_dbus(cls, error: dbus.DBusException) -> "FitError":
        return cls(error.get_dbus_name() or "", error.get_dbus_message() or "")


@dataclass(frozen=True)
class Line:
    width: float
    ascent: float
    descent: float
    baseline: float  # from the top of the layout
    start: int  # in Unicode code points
    length: int
    text: str  # as shown, with "…" when ellipsized
    ellipsized: bool


@dataclass(frozen=True)
class Metrics:
    """Measure's result, in px (or cells with unit="cells")."""

    width: float
    height: float
    baseline: float
    line_count: int
    ellipsized: bool
    truncated: bool
    fonts: list[str]
    lines: list[Line] = field(default_factory=list)  # only with lines=True
    generation: int = 0

    @classmethod
    def from_dbus(cls, value) -> "Metrics":
        width, height, baseline, count, ellipsized, truncated, fonts, lines, generation = value
        return cls(
            float(width), float(height), float(baseline), int(count), bool(ellipsized), bool(truncated),
            [str(f) for f in fonts],
            [Line(float(l[0]), float(l[1]), float(l[2]), float(l[3]), int(l[4]), int(l[5]), str(l[6]), bool(l[7]))
             for l in lines],
            int(generation))


@dataclass(frozen=True)
class ResolvedFont:
    description: str
    family: str
    style: str
    weight: float  # OpenType, 100-1000
    file: str
    pixel_size: float
    ascent: float
    descent: float
    matched: bool  # False: the family is not installed and fontconfig substituted it
    fallbacks: list[str]


def options_dict(options: dict) -> dbus.Dictionary:
    """Python values as the a{sv} fitd expects; None means "leave out"."""
    entries = {}
    for key, value in options.items():
        if value is None:
            continue
        if isinstance(value, float) and not math.isfinite(value):
            # Sent as is: the daemon answers InvalidArgument, which names the option.
            entries[key] = dbus.Double(value)
            continue
        convert = _OPTION_TYPES.get(key)
        entries[key] = convert(value) if convert else value
    return dbus.Dictionary(entries, signature="sv")


Request = Union[str, tuple, dict]

MAX_LAYOUT_NODES = 10_000
MAX_LAYOUT_DEPTH = 128


def _layout_value(value):
    """A document property as the a{sv} value Layout reads: s, d, b or as."""
    if isinstance(value, bool):
        return dbus.Boolean(value)
    if isinstance(value, (int, float)):
        return dbus.Double(value)
    if isinstance(value, str):
        return dbus.String(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return dbus.Array([dbus.String(v) for v in value], signature="s")
    raise ValueError(f"a layout property is a string, number, boolean or list of strings, not {value!r}")


# LayoutLimits.maxForEachFields: the fields one forEach may name.
MAX_FOREACH_FIELDS = 64


def _node_properties(node: dict, skip: Sequence[str]) -> dict:
    properties = {k: v for k, v in node.items() if k not in skip}
    data = properties.get("data")
    # A forEach's rows as objects (field -> string): fields sorted, "" for a missing value,
    # as the Swift reader does (LayoutDocument.swift).
    if isinstance(data, list) and data and all(isinstance(row, dict) for row in data):
        names = {key for row in data for key in row}
        # Counted before the flat data is built (rows x fields), as the daemon's limit.
        if len(names) > MAX_FOREACH_FIELDS:
            raise ValueError(f"a forEach's rows name {len(names)} distinct fields; at most {MAX_FOREACH_FIELDS}")
        fields = sorted(names)
        properties["fields"] = fields
        properties["data"] = [str(row.get(f, "")) for row in data for f in fields]
    return properties


def flatten_document(document: dict) -> list[tuple[str, str, int, dict]]:
    """A layout document, flat or nested, as the wire's nodes: (id, kind, parent index or -1,
    properties) in order. Nested: a node without an id is "#<its index>", the root "root" (ids
    beginning with "#" are reserved for these); nodes come in tree order. Iterative, and bounded like the daemon's checks, so a
    deep or huge document fails here with ValueError rather than in recursion."""
    if ("nodes" in document) == ("root" in document):
        raise ValueError("a layout document has nodes (the flat form) or root (the nested form)")
    if "nodes" in document:
        nodes = document["nodes"]
        index = {}
        for position, node in enumerate(nodes):
            index.setdefault(node["id"], position)
        out = []
        for node in nodes:
            parent = node.get("parent")
            if parent is None:
                parent_index = -1
            elif isinstance(parent, int) and not isinstance(parent, bool):
                parent_index = parent
            elif parent in index:
                parent_index = index[parent]
            else:
                raise ValueError(f"node {node['id']!r} names parent {parent!r}, which is not a node")
            out.append((node["id"], node["kind"], parent_index, _node_properties(node, ("id", "kind", "parent"))))
        return out
    out = []
    stack = [(document["root"], -1, 0)]
    while stack:
        node, parent, depth = stack.pop()
        # Short at any depth and never a given id (LayoutDocument.flatten).
        node_id = node.get("id", "root" if parent == -1 else f"#{len(out)}")
        if "id" in node and str(node["id"]).startswith("#"):
            raise ValueError(f"node id {node['id']!r}: ids beginning with \"#\" are reserved for the ids the nested form generates")
        if depth > MAX_LAYOUT_DEPTH:
            raise ValueError(f"nodes are nested more than {MAX_LAYOUT_DEPTH} levels below the root")
        if len(out) >= MAX_LAYOUT_NODES:
            raise ValueError(f"more than {MAX_LAYOUT_NODES} nodes")
        if "parent" in node:
            raise ValueError(f"node {node_id!r} names a parent; in the nested form its place says it")
        out.append((node_id, node["kind"], parent, _node_properties(node, ("id", "kind", "children"))))
        here = len(out) - 1
        children = node.get("children", [])
        for child in reversed(children):
            stack.append((child, here, depth + 1))
    return out


def _layout_option(value):
    """A Layout option as its D-Bus type: markup is a boolean (a bool is an int in Python, so
    it is told apart before numbers), spacing a double, breakpoints a (min, max) pair of
    doubles, the rest strings."""
    if isinstance(value, (tuple, list)):
        return dbus.Struct([dbus.Double(v) for v in value], signature="dd")
    if isinstance(value, bool):
        return dbus.Boolean(value)
    if isinstance(value, (int, float)):
        return dbus.Double(value)
    return dbus.String(value)


def _breakpoints(frames) -> Optional[dict]:
    """The breakpoints in the root frame's extras (the Layout option breakpoints), or None."""
    extras = next((f[13] for f in frames if "min_content_width" in f[13]), None)
    if extras is None:
        return None
    low, high = extras["breakpoint_range"]
    return {
        "range": (float(low), float(high)),
        "min_content_width": float(extras["min_content_width"]),
        "max_content_width": float(extras["max_content_width"]),
        "decisions": {str(node_id): [{"from": float(a), "to": float(b),
                                      "candidate": int(c) if c >= 0 else None,
                                      "axis": str(axis) or None} for a, b, c, axis in intervals]
                      for node_id, intervals in extras.get("breakpoints", [])},
        "truncated": bool(extras.get("breakpoints_truncated", False)),
    }


class FitClient:
    """The org.fitd.Fit1 methods and properties as Python calls.

    ``bus`` defaults to the session bus ($DBUS_SESSION_BUS_ADDRESS). ``timeout`` is in
    seconds, D-Bus activation included.
    """

    def __init__(self, bus: Optional[dbus.Bus] = None, timeout: float = 25.0):
        self.bus = bus or dbus.SessionBus()
        self.timeout = timeout
        # introspect=False: the first call need not wait for Introspect, and signatures are ours.
        self._proxy = self.bus.get_object(BUS_NAME, OBJECT_PATH, introspect=False)

    def _call(self, member: str, signature: str, *args, interface: str = INTERFACE):
        try:
            return self._proxy.get_dbus_method(member, interface)(*args, signature=signature, timeout=self.timeout)
        except dbus.DBusException as error:
            raise FitError.from_dbus(error) from None

    def measure(self, text: str, font: str = "", **options) -> Metrics:
        """Measures one text. Options: max_width, wrap, max_lines, ellipsize, features,
        letter_spacing, unit, lines, text_scale, language, metrics, markup, escapes, ambiguous,
        terminal (protocol/README.md)."""
        return Metrics.from_dbus(self._call("Measure", "ssa{sv}", text, font, options_dict(options)))

    def measure_batch(self, requests: Iterable[Request]) -> list[Union[Metrics, FitError]]:
        """Measures many texts in one round trip. Each request is a text, a (text, font)
        or (text, font, options) tuple, or a dict with "text", "font" and option keys.
        One result per request, in order: Metrics, or the FitError of that request alone."""
        entries = []
        for request in requests:
            if isinstance(request, str):
                text, font, options = request, "", {}
            elif isinstance(request, dict):
                rest = dict(request)
                text, font = rest.pop("text"), rest.pop("font", "")
                options = rest
            else:
                parts = tuple(request)
                text = parts[0]
                font = parts[1] if len(parts) > 1 else ""
                options = parts[2] if len(parts) > 2 else {}
            entries.append(dbus.Struct((dbus.String(text), dbus.String(font), options_dict(options or {}))))
        results = self._call("MeasureBatch", "a(ssa{sv})", dbus.Array(entries, signature="(ssa{sv})"))
        return [Metrics.from_dbus(metrics) if ok else FitError(str(name), str(message))
                for ok, name, message, metrics in results]

    def layout(self, document: dict, width: Optional[float] = None, height: Optional[float] = None,
               **options) -> dict:
        """Lays out a layout document (flat or nested dict) at a proposed size (None: the ideal
        size on that axis). Options: unit, size_category, ui_font, spacing, language, metrics,
        markup, breakpoints=(min, max) (protocol/README.md, "Layout"). Returns {"size": (w, h), "frames": {id: {...}}, "order": [ids],
        "decisions": {id: {...}}, "truncated": bool, "generation": n}. A frame has visible, x, y,
        width, height, is_text, scale, line_count, truncated, first_baseline and last_baseline
        (None when the node shows no text), hidden and alignment (None unless set); frames of a
        document with forEach rows are its expansion's ("<id>#<row>"). With breakpoints,
        "breakpoints" is {"range": (min, max), "min_content_width", "max_content_width",
        "decisions": {id: [{"from", "to", "candidate", "axis"}]} (document order; candidate
        None where not shown or a threshold, axis None unless a shown threshold), "truncated"};
        else None."""
        nodes = dbus.Array([
            dbus.Struct((dbus.String(node_id), dbus.String(kind), dbus.Int32(parent),
                         dbus.Dictionary({k: _layout_value(v) for k, v in props.items()}, signature="sv")))
            for node_id, kind, parent, props in flatten_document(document)], signature="(ssia{sv})")
        proposal = dbus.Struct((dbus.Boolean(width is not None), dbus.Double(width or 0.0),
                                dbus.Boolean(height is not None), dbus.Double(height or 0.0)))
        entries = {k: _layout_option(v) for k, v in options.items()}
        size, frames, decisions, truncated, generation = self._call(
            "Layout", "a(ssia{sv})(bdbd)a{sv}", nodes, proposal, dbus.Dictionary(entries, signature="sv"))
        # A frame: id, visible, x, y, width, height, is_text, scale, line_count, truncated,
        # has_baselines, first_baseline, last_baseline, extras (hidden, alignment).
        keys = ("visible", "x", "y", "width", "height", "is_text", "scale", "line_count", "truncated",
                "first_baseline", "last_baseline", "hidden", "alignment")
        return {
            "breakpoints": _breakpoints(frames),
            "size": (float(size[0]), float(size[1])),
            "order": [str(f[0]) for f in frames],
            "frames": {str(f[0]): dict(zip(keys, (bool(f[1]), *(float(v) for v in f[2:6]), bool(f[6]), float(f[7]),
                                                   int(f[8]), bool(f[9]),
                                                   float(f[11]) if f[10] else None, float(f[12]) if f[10] else None,
                                                   bool(f[13].get("hidden", False)),
                                                   str(f[13]["alignment"]) if "alignment" in f[13] else None))) for f in frames},
            "decisions": {str(d[0]): dict({"node_index": int(d[1]), "kind": str(d[2])},
                                          **{str(k): (v if isinstance(v, (int, float)) else str(v)) for k, v in d[3].items()})
                          for d in decisions},
            "truncated": bool(truncated),
            "generation": int(generation),
        }

    def resolve_font(self, font: str) -> ResolvedFont:
        """What a Pango font description resolves to through fontconfig."""
        d, family, style, weight, file, px, ascent, descent, matched, fallbacks = self._call("ResolveFont", "s", font)
        return ResolvedFont(str(d), str(family), str(style), float(weight), str(file), float(px), float(ascent),
                            float(descent), bool(matched), [str(f) for f in fallbacks])

    def stats(self) -> dict:
        """GetStats: {"caches": {name: {...}}, "requests_served": n, "uptime_seconds": s}."""
        caches, served, uptime = self._call("GetStats", "")
        keys = ("entries", "bytes", "byte_limit", "hits", "misses", "evictions")
        return {
            "caches": {str(c[0]): dict(zip(keys, (int(v) for v in c[1:]))) for c in caches},
            "requests_served": int(served),
            "uptime_seconds": float(uptime),
        }

    def get_property(self, name: str):
        """One property of org.fitd.Fit1 (Version, Generation, TextScale, …), as a Python value."""
        value = self._call("Get", "ss", INTERFACE, name, interface="org.freedesktop.DBus.Properties")
        if isinstance(value, (dbus.Double,)):
            return float(value)
        if isinstance(value, (dbus.UInt64, dbus.UInt32, dbus.Int32, dbus.Int64)):
            return int(value)
        return str(value) if isinstance(value, dbus.String) else value

    @property
    def version(self) -> str:
        return self.get_property("Version")

    @property
    def generation(self) -> int:
        return self.get_property("Generation")

    @property
    def text_scale(self) -> float:
        return self.get_property("TextScale")

    def set_text_scale(self, factor: float) -> None:
        """Sets the user's text scale (saved by fitd; every client's results change)."""
        self._call("Set", "ssv", INTERFACE, "TextScale", dbus.Double(factor), interface="org.freedesktop.DBus.Properties")

    def reset_text_scale(self) -> None:
        """Forgets the explicit text scale: the desktop's setting (or 1) applies again."""
        self._call("ResetTextScale", "")

    def on_generation_changed(self, callback: Callable[[int, Sequence[str]], None]):
        """Calls ``callback(generation, reasons)`` whenever fonts, their configuration or the
        text scale change (results computed under an older generation are stale). Needs a
        main loop (see the module's docstring). Returns the match; ``.remove()`` stops it."""
        def handler(generation, reasons):
            callback(int(generation), [str(r) for r in reasons])
        # No sender filter: a restarted daemon (a new unique name) is still heard.
        return self.bus.add_signal_receiver(
            handler, signal_name="GenerationChanged", dbus_interface=INTERFACE, path=OBJECT_PATH)
