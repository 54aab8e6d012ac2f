"""Python values → the wire types of org.fitd.Fit1: measure options (a{sv}), batch requests
(a(ssa{sv})), layout documents (a(ssia{sv})), proposals ((bdbd)) and layout options."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from dbus_fast import Variant

from . import terminal
from .errors import InvalidDocument

BUS_NAME = "org.fitd.Fit1"
OBJECT_PATH = "/org/fitd/Fit1"
INTERFACE = "org.fitd.Fit1"

# The D-Bus type each Measure option is sent as (protocol/README.md, "Measure options").
# features may be a list (as) or one comma-separated string (s); see _feature_variant.
MEASURE_OPTION_TYPES = {
    "max_width": "d", "wrap": "s", "max_lines": "u", "ellipsize": "s", "letter_spacing": "d",
    "unit": "s", "lines": "b", "text_scale": "d", "language": "s", "metrics": "s", "markup": "b",
    "escapes": "s", "ambiguous": "s", "terminal": "s", "ui_font": "s",
}
# Layout's options (protocol/README.md, "Layout", options); breakpoints is (dd).
LAYOUT_OPTION_TYPES = {
    "unit": "s", "size_category": "s", "ui_font": "s", "spacing": "d", "language": "s",
    "metrics": "s", "markup": "b", "widget_sizes": "b", "label_sizes": "b", "text_scale": "d",
}

# LayoutLimits in FitLayout: checked here too so that a huge or deep document fails before
# it is sent (and before recursion could), with the daemon's words.
MAX_LAYOUT_NODES = 10_000
MAX_LAYOUT_DEPTH = 128
MAX_FOREACH_FIELDS = 64


def _guess_variant(key: str, value: Any) -> Variant:
    """An option the package does not know, sent with the type its Python value suggests, so
    the daemon's UnknownOption (or a newer daemon's answer) reaches the caller."""
    if isinstance(value, bool):
        return Variant("b", value)
    if isinstance(value, int):
        return Variant("x", value)
    if isinstance(value, float):
        return Variant("d", value)
    if isinstance(value, str):
        return Variant("s", value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return Variant("as", list(value))
    raise TypeError(f"option {key!r}: cannot send {type(value).__name__} {value!r}")


def _typed_variant(key: str, signature: str, value: Any) -> Variant:
    try:
        if signature == "d":
            # bool is an int in Python: True as a width is a mistake, not 1.0.
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError
            return Variant("d", float(value))
        if signature == "u":
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError
            # A negative or huge count cannot be a u: sent as a double, so the daemon's
            # InvalidArgument names the option and its range instead of a marshalling error.
            return Variant("u", value) if 0 <= value < 2**32 else Variant("d", float(value))
        if signature == "b":
            if not isinstance(value, bool):
                raise TypeError
            return Variant("b", value)
        if not isinstance(value, str):
            raise TypeError
        return Variant("s", value)
    except TypeError:
        names = {"d": "a number", "u": "a whole number", "b": "True or False", "s": "a string"}
        raise TypeError(f"option {key!r} is {names[signature]}, not {value!r}") from None


def measure_options(options: Mapping[str, object]) -> dict[str, Variant]:
    """Measure options as a{sv}; None means "leave out" (the daemon's default: for text_scale,
    the user's text scale)."""
    out = {}
    for key, value in options.items():
        if value is None:
            continue
        if key == "features":
            if isinstance(value, str):
                out[key] = Variant("s", value)
            elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                out[key] = Variant("as", list(value))
            else:
                raise TypeError(f"option 'features' is a string or a list of strings, not {value!r}")
            continue
        signature = MEASURE_OPTION_TYPES.get(key)
        out[key] = _typed_variant(key, signature, value) if signature else _guess_variant(key, value)
    # Cells are the terminal's: without a profile given, the one of the terminal this process
    # runs in, as fitctl sends (terminal.detect; nothing where it cannot tell).
    if options.get("unit") == "cells" and options.get("terminal") is None:
        profile = terminal.detect().profile
        if profile is not None:
            out["terminal"] = Variant("s", profile)
    return out


def layout_options(options: Mapping[str, object]) -> dict[str, Variant]:
    """Layout options as a{sv}; None leaves one out (size_category: the user's, from the text
    scale, as `fitctl fit` does without --category)."""
    out = {}
    for key, value in options.items():
        if value is None:
            continue
        if key == "breakpoints":
            pair: Any = value  # a (min, max) pair; anything else fails here, as before sending
            low, high = pair
            out[key] = Variant("(dd)", [float(low), float(high)])
            continue
        signature = LAYOUT_OPTION_TYPES.get(key)
        out[key] = _typed_variant(key, signature, value) if signature else _guess_variant(key, value)
    return out


@dataclass(frozen=True, slots=True)
class MeasureRequest:
    """One entry of measure_batch: a text, a font (Pango description or text style; "" for the
    default font) and Measure options."""

    text: str
    font: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)


Request = Union[str, MeasureRequest, tuple[Any, ...], Mapping[str, Any]]


def batch_entry(request: Request) -> list[Any]:
    """A request as (ssa{sv}). A str is a text in the default font; a tuple is (text[, font[,
    options]]); a mapping has "text", "font" and option keys."""
    if isinstance(request, str):
        return [request, "", {}]
    if isinstance(request, MeasureRequest):
        return [request.text, request.font, measure_options(request.options)]
    if isinstance(request, Mapping):
        rest = dict(request)
        text, font = rest.pop("text"), rest.pop("font", "")
        return [text, font, measure_options(rest)]
    text, *more = request
    font = more[0] if more else ""
    options = more[1] if len(more) > 1 else {}
    return [text, font, measure_options(options or {})]


def proposal(width: Optional[float], height: Optional[float]) -> list[Any]:
    """(bdbd): None on an axis asks for the ideal size there; math.inf is the maximum."""
    return [width is not None, float(width or 0.0), height is not None, float(height or 0.0)]


# --- layout documents ---------------------------------------------------------------------

Document = Union[Mapping[str, Any], "os.PathLike[str]"]


def _not_json_constant(name: str) -> Any:
    # Python's json reads NaN and Infinity; JSON has neither, and fitctl's reader (Foundation's
    # JSONDecoder, LayoutDocument+JSON.swift) refuses a file that has them.
    raise ValueError(f"{name} is not a JSON value")


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A key given twice is refused by fitctl's reader ("member given twice"); Python's json
    # would keep the last one silently.
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"member {key!r} given twice")
        out[key] = value
    return out


def load_document(document: Document) -> Mapping[str, Any]:
    """A document as a dict: given as one, or read from a JSON file (the files `fitctl fit`
    reads)."""
    if isinstance(document, Mapping):
        return document
    if isinstance(document, (os.PathLike,)):
        with open(document, encoding="utf-8") as f:
            try:
                loaded = json.load(f, parse_constant=_not_json_constant, object_pairs_hook=_json_object)
            except ValueError as error:  # json.JSONDecodeError is one
                raise InvalidDocument("", f"{os.fspath(document)}: not JSON: {error}") from None
        if not isinstance(loaded, dict):
            raise InvalidDocument("", f"{os.fspath(document)}: a layout document is a JSON object")
        return loaded
    raise TypeError(f"a layout document is a dict or a path (os.PathLike), not {type(document).__name__}")


def _bad(message: str) -> InvalidDocument:
    return InvalidDocument("org.fitd.Fit1.Error.InvalidDocument", message)


def _variant(value: Any) -> Optional[Variant]:
    """A property as the a{sv} value Layout reads, or None for a value a document cannot hold
    (LayoutPropertyValue): s, d (every JSON number: integers become doubles, as LayoutCodec
    sends them), b or as."""
    if isinstance(value, bool):
        return Variant("b", value)
    if isinstance(value, (int, float)):
        return Variant("d", float(value))
    if isinstance(value, str):
        return Variant("s", value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return Variant("as", list(value))
    return None


def _bad_value(node_id: str, key: str, value: Any) -> InvalidDocument:
    return _bad(f"node {node_id!r}: property {key!r} is a string, number, boolean or list of strings, not {value!r}")


def _value(node_id: str, key: str, value: Any) -> Variant:
    variant = _variant(value)
    if variant is None:
        raise _bad_value(node_id, key, value)
    return variant


def _properties(node_id: str, node: Mapping[str, Any], skip: Sequence[str]) -> dict[str, Any]:
    """A node's properties, each value checked when it is read, as decodeProperties in
    LayoutDocument.swift does (fitctl refuses the document there, before any daemon)."""
    properties = {k: v for k, v in node.items() if k not in skip}
    rows: Optional[list[Mapping[str, str]]] = None
    for key, value in properties.items():
        if _variant(value) is not None:
            continue
        # A forEach's rows written as objects (field -> string). Only strings: the Swift reader
        # decodes the rows as [[String: String]], so a number or null in a row is refused, not
        # turned into text.
        if key == "data" and isinstance(value, list) and all(isinstance(row, Mapping) for row in value):
            for row in value:
                for name, text in row.items():
                    if not isinstance(name, str) or not isinstance(text, str):
                        raise _bad(f"node {node_id!r}: property 'data': a row's values are strings, not {name!r}: {text!r}")
            rows = value
            continue
        raise _bad_value(node_id, key, value)
    if rows is not None:
        # Rows of objects name their fields; a "fields" beside them is refused (decodeProperties),
        # rather than one of the two winning.
        if "fields" in properties:
            raise _bad(f"node {node_id!r}: data written as rows of objects names its fields itself; leave fields out, "
                       "or write data as a flat array of strings")
        # The rows: fields sorted, "" for a missing value (decodeProperties).
        names = {key for row in rows for key in row}
        if len(names) > MAX_FOREACH_FIELDS:  # counted before rows x fields are built
            raise _bad(f"node {node_id!r}: a forEach's rows name {len(names)} distinct fields; at most {MAX_FOREACH_FIELDS}")
        fields = sorted(names)
        properties["fields"] = fields
        properties["data"] = [row.get(f, "") for row in rows for f in fields]
    return properties


def _node(node: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(node, Mapping):
        raise _bad(f"{where}: a node is a JSON object, not {node!r}")
    if not isinstance(node.get("kind"), str):
        raise _bad(f"{where}: a node needs a \"kind\" string")
    return node


def _parent_index(node: Mapping[str, Any], index: Mapping[str, int]) -> int:
    """A flat node's parent as the wire's index (-1: none), as LayoutCodec.parentIndices
    makes it before sending."""
    parent = node.get("parent")
    if parent is None:
        return -1
    if isinstance(parent, str):
        if parent not in index:
            raise _bad(f"node {node['id']!r} names parent {parent!r}, which is not a node")
        return index[parent]
    # JSON has one kind of number: fitctl's reader takes 1.0 or 1e0 as the index 1 (it decodes
    # an Int, which a whole number written so is).
    if isinstance(parent, float) and parent.is_integer():
        parent = int(parent)
    if isinstance(parent, bool) or not isinstance(parent, int):
        raise _bad(f"node {node['id']!r}: \"parent\" is an id (string) or an index (integer), not {parent!r}")
    # -1 marks the root on the wire; a document that names it as a parent names no node, and an
    # index past int32 cannot be sent. LayoutCodec.parentIndices refuses both.
    if not 0 <= parent < 2**31:
        raise _bad(f"node {node['id']!r} names parent index {parent}, which is not a node of the document")
    return parent


def _check_top_level(document: Mapping[str, Any]) -> None:
    """The document's own keys, as LayoutDocument.init(from:) reads them: version (1),
    description (a string), and nodes or root; nothing else."""
    for key in document:
        if key not in ("version", "description", "nodes", "root"):
            raise _bad(f"unknown top-level key {key!r}; a document has version, description and nodes (or root)")
    version = document.get("version")
    # Read as an Int there: 1.0 is 1, true is not a number.
    if version is not None and (isinstance(version, bool) or not isinstance(version, (int, float)) or version != 1):
        raise _bad(f"version {version!r} is not supported; this engine reads version 1")
    description = document.get("description")
    if description is not None and not isinstance(description, str):
        raise _bad(f"\"description\" is a string, not {description!r}")
    if ("nodes" in document) == ("root" in document):
        raise _bad("a layout document has \"nodes\" (the flat form) or \"root\" (the nested form)")


def flatten_document(document: Document) -> list[tuple[str, str, int, dict[str, Any]]]:
    """A layout document, flat ({"nodes": [...]}) or nested ({"root": {...}}), as the wire's
    nodes: (id, kind, parent index or -1, properties) in order, properties as plain Python
    values. As `fitctl fit --flatten`: in the nested form a node without an id is "#<its
    index>", the root "root" (ids beginning with "#" are reserved for these), nodes in tree
    order; in the flat form parent ids become indices. Iterative and bounded like the
    daemon's checks, so a deep or huge document fails with InvalidDocument, not recursion.
    Kinds and which properties a kind has are left to the daemon (a newer one may have more)."""
    document = load_document(document)
    _check_top_level(document)
    if "nodes" in document:
        nodes = document["nodes"]
        if not isinstance(nodes, list):
            raise _bad("\"nodes\" is a list")
        # Refused before any node is read, as LayoutDocument.init(from:) does.
        if len(nodes) > MAX_LAYOUT_NODES:
            raise _bad(f"the document has {len(nodes)} nodes; the limit is {MAX_LAYOUT_NODES}")
        index: dict[str, int] = {}
        for position, node in enumerate(nodes):
            node = _node(node, f"node {position}")
            if not isinstance(node.get("id"), str):
                raise _bad(f"node {position}: a node of the flat form needs an \"id\" string")
            # Not a property: the Swift reader (NodeObject) refuses it.
            if "children" in node:
                raise _bad(f"node {position} ({node['id']!r}): children are for the nested form (root, not nodes)")
            index.setdefault(node["id"], position)
        out = []
        for node in nodes:
            parent_index = _parent_index(node, index)
            out.append((node["id"], node["kind"], parent_index, _properties(node["id"], node, ("id", "kind", "parent"))))
        return out
    out = []
    stack: list[tuple[Any, int, int]] = [(document["root"], -1, 0)]
    while stack:
        node, parent, depth = stack.pop()
        node = _node(node, f"node {len(out)}")
        # Short at any depth and never a given id (LayoutDocument.flatten).
        node_id = node.get("id", "root" if parent == -1 else f"#{len(out)}")
        if not isinstance(node_id, str):
            raise _bad(f"node {len(out)}: \"id\" is a string, not {node_id!r}")
        if "id" in node and node_id.startswith("#"):
            raise _bad(f"node id {node_id!r}: ids beginning with \"#\" are reserved for the ids the nested form generates")
        if depth > MAX_LAYOUT_DEPTH:
            raise _bad(f"nodes are nested more than {MAX_LAYOUT_DEPTH} levels below the root")
        if len(out) >= MAX_LAYOUT_NODES:
            raise _bad(f"more than {MAX_LAYOUT_NODES} nodes")
        if "parent" in node:
            raise _bad(f"node {node_id!r} names a parent; in the nested form its place says it")
        out.append((node_id, node["kind"], parent, _properties(node_id, node, ("id", "kind", "children"))))
        here = len(out) - 1
        children = node.get("children", [])
        if not isinstance(children, list):
            raise _bad(f"node {node_id!r}: \"children\" is a list")
        for child in reversed(children):
            stack.append((child, here, depth + 1))
    return out


def document_nodes(document: Document) -> list[Any]:
    """The document as a(ssia{sv})."""
    return [[node_id, kind, parent, {k: _value(node_id, k, v) for k, v in props.items()}]
            for node_id, kind, parent, props in flatten_document(document)]

