#!/usr/bin/env python3
"""Writes protocol/layout-document.schema.json from the table below: every node kind and
property with a description. Kinds and property names must match
Sources/FitLayout/LayoutProperties.swift (`allowed(for:)`); Tests/FitLayoutJSONTests/SchemaTests
checks that they do. Usage: scripts/layout-schema.py [output]"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# The names fitd writes (FitTypes' TextStyle and SizeCategory, in their order): SwiftUI's
# Font.TextStyle and ContentSizeCategory case names. The engine also reads the aliases the notes
# name; the schema lists only the canonical names, which every document should use.
STYLES = ["largeTitle", "title", "title2", "title3", "headline", "body", "callout", "subheadline", "footnote", "caption", "caption2"]
STYLE_NOTE = ("; SwiftUI's Font.TextStyle names (fitd also reads any ASCII case, - _ or spaces between words, "
              "and UIKit's title1, caption1 and the HIG's subhead)")
CATEGORIES = ["xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "accessibilityMedium",
              "accessibilityLarge", "accessibilityExtraLarge", "accessibilityExtraExtraLarge", "accessibilityExtraExtraExtraLarge"]
CATEGORY_NOTE = ("; SwiftUI's ContentSizeCategory names (fitd also reads any ASCII case, ax1…ax5 and accessibility1…5 "
                 "for the accessibility sizes, and UIKit's extraSmall, extraLarge, extraExtraLarge, extraExtraExtraLarge)")
ALIGNMENTS = ["topLeading", "top", "topTrailing", "leading", "center", "trailing", "bottomLeading", "bottom", "bottomTrailing",
              # SwiftUI's text-baseline alignments (docs/swiftui-layout.md 1.4); an hstack reads the vertical part.
              "firstTextBaseline", "lastTextBaseline", "leadingFirstTextBaseline", "trailingFirstTextBaseline",
              "leadingLastTextBaseline", "trailingLastTextBaseline"]
BASELINES = ("; firstTextBaseline/lastTextBaseline (and leading…/trailing… with them) line up the first or last text "
             "baseline of each child, a child without text by its bottom")


def length(description, infinite=False):
    number = {"type": "number", "minimum": 0}
    if infinite:
        return {"description": description, "oneOf": [number, {"const": "infinity"}]}
    return dict(number, description=description)


def words(description, values):
    return {"description": description, "enum": values}


def alignment(description):
    return words(description, ALIGNMENTS)


# Properties every kind takes. The inherited ones, set on a container, reach every node below
# that does not set them itself (SwiftUI's environment; docs/swiftui-layout.md 4.9).
COMMON = {
    "id": {"type": "string", "minLength": 1, "maxLength": 256,
           "description": "unique name of the node; results and errors name nodes by it. Flat form: required. Nested form: optional, "
                          "a node without one is \"#<its index in the flat form>\" (the root \"root\"; ids beginning with \"#\" are reserved for these). A forEach's copies are \"<id>#<row>\"."},
    "when": words("on a child of a threshold: the only arrangement it appears in", ["horizontal", "vertical"]),
    "hidden": {"type": "boolean",
               "description": "laid out as if shown, drawn by nobody (SwiftUI's hidden()); applies to the whole subtree; reported "
                              "with hidden: true; a hidden text's truncation is not reported"},
    "gridCellColumns": {"type": "integer", "minimum": 1, "maximum": 10000,
                        "description": "on a cell of a gridRow: how many columns it covers (default 1); measured after the "
                                       "columns it covers, it widens the last of them only if it does not fit"},
    "font": {"type": "string",
             "description": "inherited: Pango font description the texts below are measured in, e.g. \"Noto Sans Bold 12\"; "
                            "not with textStyle on the same node"},
    "textStyle": words("inherited: the text style texts below are measured in, sized for the size category" + STYLE_NOTE, STYLES),
    "lineLimit": {"type": "integer", "minimum": 1,
                  "description": "inherited: at most this many lines; the last shown line ends in \"…\""},
    "truncation": words("inherited: where a cut text loses characters (SwiftUI's truncationMode)", ["head", "middle", "tail"]),
    "minimumScaleFactor": {"type": "number", "exclusiveMinimum": 0, "maximum": 1,
                           "description": "inherited: each text below may shrink down to this factor to fit its proposal, "
                                          "searching its own factor (a scaleGroup shares one)"},
    "layoutPriority": {"type": "number",
                       "description": "read by the parent stack: children of higher priority are sized first and offered all the "
                                      "space but what the lower ones minimally need (SwiftUI's layoutPriority); any finite number, "
                                      "default 0; a spacer's is always the lowest; frame, padding, fixedSize, overlay, background "
                                      "and scaleGroup pass their child's up"},
    "multilineTextAlignment": words("inherited: where the lines of a text sit in its frame; never changes a frame", ["leading", "center", "trailing"]),
    "layoutDirection": words("inherited: rightToLeft mirrors hstacks, leading/trailing alignments and padding, grid columns and flow lines",
                             ["leftToRight", "rightToLeft"]),
}

STACK_SPACING = length("between neighbours along the axis; without it, the default spacing (8 px / 1 cell, the spacing option)")
STACK_ALIGNMENT = alignment("across the axis: the vertical part for an hstack, the horizontal part for a vstack; default center"
                            + BASELINES + " (an hstack)")

# kind: (description, own properties, required)
KINDS = {
    "text": ("SwiftUI's Text: wraps to the proposed width (its width is its widest line), one line per paragraph when "
             "unconstrained; lineLimit, truncation and minimumScaleFactor as set on it or inherited.", {
        "text": {"type": "string", "maxLength": 65536, "description": "the string; in a forEach template, {field} is the row's value"},
        "font": COMMON["font"], "textStyle": COMMON["textStyle"], "lineLimit": COMMON["lineLimit"],
        "truncation": COMMON["truncation"], "minimumScaleFactor": COMMON["minimumScaleFactor"],
    }, ["text"]),
    "spacer": ("SwiftUI's Spacer: along its stack's axis takes what it is offered, at least minLength; nothing across; "
               "outside a stack, both axes.", {
        "minLength": length("the least it takes; default the default spacing"),
    }, []),
    "image": ("A fixed-size picture (a non-resizable Image): width × height, or one line of a text style or font tall "
              "(an icon that grows with the text).", {
        "width": length("its width, with height"), "height": length("its height, with width"),
        "font": dict(COMMON["font"], description="size it to one line of this font (then it is square, or aspectRatio)"),
        "textStyle": words("size it to one line of this text style" + STYLE_NOTE, STYLES),
        "aspectRatio": {"type": "number", "exclusiveMinimum": 0, "description": "width / height when sized to a text style or font"},
    }, []),
    "hstack": ("SwiftUI's HStack: children left to right, the width shared least flexible first; as tall as its tallest child.", {
        "spacing": STACK_SPACING, "alignment": STACK_ALIGNMENT,
    }, []),
    "vstack": ("SwiftUI's VStack: children top to bottom, the height shared least flexible first; as wide as its widest child.", {
        "spacing": STACK_SPACING, "alignment": STACK_ALIGNMENT,
    }, []),
    "zstack": ("SwiftUI's ZStack: every child proposed the same size, aligned over each other; as large as the largest.", {
        "alignment": alignment("where each child sits in the stack; default center" + BASELINES),
    }, []),
    "overlay": ("SwiftUI's overlay: the first child (the base) sets the size; every other child is proposed exactly that size "
                "and aligned in it, drawn in front.", {
        "alignment": alignment("where the layers sit on the base; default center" + BASELINES + " (the base's baseline)"),
    }, []),
    "background": ("SwiftUI's background: as overlay (the first child is the base and sets the size, the others are proposed "
                   "its size), drawn behind the base.", {
        "alignment": alignment("where the layers sit behind the base; default center"),
    }, []),
    "frame": ("SwiftUI's frame: a fixed width/height, or flexible bounds (min/ideal/max) around its one child.", {
        "width": length("fixed width: proposed to the child, and the frame's width"),
        "height": length("fixed height: proposed to the child, and the frame's height"),
        "minWidth": length("the frame is at least this wide"),
        "idealWidth": length("the width when no width is proposed"),
        "maxWidth": length("the frame is at most this wide; \"infinity\" takes the whole proposed width", infinite=True),
        "minHeight": length("the frame is at least this tall"),
        "idealHeight": length("the height when no height is proposed"),
        "maxHeight": length("the frame is at most this tall; \"infinity\" takes the whole proposed height", infinite=True),
        "alignment": alignment("where the child sits in the frame; default center" + BASELINES + " (on the frame's bottom)"),
    }, []),
    "padding": ("SwiftUI's padding: insets around its one child, taken off the proposal and added to the child's size.", {
        "length": length("every edge not given below; default twice the default spacing (16 px)"),
        "top": length("top inset"), "leading": length("leading inset (right in a right-to-left layout)"),
        "bottom": length("bottom inset"), "trailing": length("trailing inset"),
    }, []),
    "fixedSize": ("SwiftUI's fixedSize: proposes nothing (the ideal size) to its one child on the fixed axes.", {
        "horizontal": {"type": "boolean", "description": "fix the width; default true"},
        "vertical": {"type": "boolean", "description": "fix the height; default true"},
    }, []),
    "firstFit": ("Decision, SwiftUI's ViewThatFits: the first child (candidate) whose ideal size fits the proposal on the "
                 "constrained axes, else the last; reports candidate and candidate_id.", {
        "axes": words("the axes a candidate must fit on; default both", ["horizontal", "vertical", "both"]),
    }, []),
    "uniformFit": ("Decision (seed 000): ViewThatFits over a whole list (a stack along axis): the first position k under which "
                   "the list, with every choice point at k, has an ideal size that fits the proposal on axes, its own axis "
                   "included unless a scroll above proposes nothing there; else the last. Its choice points are its items that "
                   "are firstFits and every choice inside an item; an item may be any subtree, and a firstFit deeper inside one "
                   "decides for that item alone (as SwiftUI's ViewThatFits in a ForEach row). Reports candidate.", {
        "axis": words("the list's axis; default vertical", ["horizontal", "vertical"]),
        "axes": words("the axes the whole list must fit on; default both", ["horizontal", "vertical", "both"]),
        "spacing": STACK_SPACING, "alignment": STACK_ALIGNMENT,
    }, []),
    "threshold": ("Decision (seed 002): a stack that is horizontal below a size category and vertical from it on; children "
                  "with when appear in one arrangement only. Reports axis.", {
        "category": words("the first size category at which the children stack vertically" + CATEGORY_NOTE, CATEGORIES),
        "spacing": STACK_SPACING, "alignment": STACK_ALIGNMENT,
    }, ["category"]),
    "fitting": ("Decision (seed 001, CwlFitting): a stack laid out twice: a hidden copy at its own proposal, spacers at their "
                "minimum and flexible frames at their child's length, gives the length across (the widest row as wrapped); "
                "the visible copy is laid out at that length, so rows with spacers fill it and no more. Reports length.", {
        "axis": words("the stack's axis; default vertical", ["horizontal", "vertical"]),
        "spacing": STACK_SPACING, "alignment": STACK_ALIGNMENT,
    }, []),
    "template": ("The template view (seed 003): as large as the widest of its template strings in its font, its one optional "
                 "child (the actual value) proposed exactly that size and aligned in it.", {
        "templates": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                      "description": "the strings whose largest size is reserved; in a forEach template, {field} is the row's value"},
        "font": COMMON["font"], "textStyle": COMMON["textStyle"], "lineLimit": COMMON["lineLimit"],
        "alignment": alignment("where the value sits in the reserved size; default center" + BASELINES + " (the reserved strings')"),
    }, ["templates"]),
    "scaleGroup": ("Decision (seed 004): one minimum-scale factor for every text and template below, the largest under which "
                   "all fit. Reports scale.", {
        "minimumScaleFactor": {"type": "number", "exclusiveMinimum": 0, "maximum": 1,
                               "description": "the smallest factor the group may shrink to"},
    }, ["minimumScaleFactor"]),
    "grid": ("SwiftUI's Grid: gridRow children in columns, a column as wide as its widest cell (shared like a stack's "
             "children when the width is short), a row as tall as its tallest; a child that is not a gridRow spans the "
             "grid's width.", {
        "spacing": length("between columns and between rows; default the default spacing"),
        "alignment": alignment("where each cell sits in its column and row; default center"),
        "columns": words("ideal: each column as wide as its widest cell; equal: every column as wide as the widest one "
                         "(an equal share when that does not fit)", ["ideal", "equal"]),
    }, []),
    "gridRow": ("SwiftUI's GridRow: one row of a grid, its children the cells of the columns in order.", {
        "alignment": alignment("where its cells sit; default the grid's"),
    }, []),
    "flow": ("A wrapping stack (the Layout protocol's common FlowLayout): children at their ideal size left to right, a new "
             "line when the next would pass the proposed width; an item wider than the width is alone on its line and wraps.", {
        "spacing": length("between items and between lines; default the default spacing"),
        "alignment": alignment("horizontal part: each line in the flow's width (default leading); vertical part: each item "
                               "in its line (default top)"),
    }, []),
    "forEach": ("SwiftUI's ForEach: its children are a template repeated once per data row, and the copies take its place "
                "among its parent's children (ids \"<id>#<row>\"). Its other properties go to each copy. Bounded by the node "
                "limit after expansion.", {
        "fields": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 64,
                   "description": "names of a row's values; {name} in a text or templates string of the template is replaced"},
        "data": {"description": "the rows: flat, fields.count strings per row, row after row; or (JSON) one object per row, "
                                "field → string, from which fields are taken",
                 # anyOf: no rows ([]) is both forms at once, which oneOf would refuse.
                 "anyOf": [{"type": "array", "items": {"type": "string"}},
                           {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "string"}}}]},
    }, ["data"]),
}


KINDS["scroll"] = (
    "SwiftUI's ScrollView: proposes nothing along its axis to its one child (which takes its ideal length there) and the "
    "proposal across; as long as proposed along the axis (the child's length when nothing is proposed), as thick as the "
    "child across. A uniformFit inside is not constrained along the scroll's axis.", {
        "axis": words("the scrolling axis; default vertical", ["horizontal", "vertical"]),
    }, [])
KINDS["choice"] = (
    "A decision point anywhere inside a uniformFit item: shows the child at the position the enclosing uniformFit decides "
    "(its last when it has fewer), so that any subtree can be an item and the decision travels down (a firstFit below an "
    "item's top decides for its item alone); refused outside a uniformFit.",
    {}, [])


def kind_schema(name):
    description, own, required = KINDS[name]
    properties = {"kind": {"const": name, "description": "what the node is: " + name}}
    properties.update(own)
    return {"title": name, "description": description, "type": "object", "properties": properties, "required": ["kind"] + required}


def schema():
    kinds = [{"$ref": f"#/$defs/kinds/{name}"} for name in KINDS]
    parent = {"description": "the parent's id, or its index in nodes; absent for the root (one root per document)",
              "oneOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://fitd.org/protocol/layout-document.schema.json",
        "title": "fitd layout document",
        "description": "A tree of layout nodes, in one of two forms: flat (nodes, each naming its parent; what travels on the "
                       "wire) or nested (root, children inside their parent, ids optional; fitctl and the clients flatten it). "
                       "Lengths are px or terminal cells. Semantics: protocol/README.md (a section per kind) and "
                       "docs/swiftui-layout.md. Limits the schema cannot state: at most 10,000 nodes after forEach expansion, "
                       "depth at most 128, unique ids, no parent cycles. Generated by scripts/layout-schema.py.",
        "type": "object",
        "additionalProperties": False,
        "oneOf": [{"required": ["nodes"]}, {"required": ["root"]}],
        "properties": {
            "version": {"const": 1, "description": "the format version"},
            "description": {"type": "string", "description": "free text for people; layout ignores it"},
            "nodes": {"type": "array", "minItems": 1, "maxItems": 10000, "items": {"$ref": "#/$defs/node"},
                      "description": "the flat form: every node, each naming its parent"},
            "root": {"$ref": "#/$defs/nestedNode", "description": "the nested form: the root node, its children inside it"},
        },
        "$defs": {
            "node": {"description": "a node of the flat form", "type": "object", "oneOf": kinds,
                     "properties": dict(COMMON, parent=parent), "required": ["id", "kind"], "unevaluatedProperties": False},
            "nestedNode": {"description": "a node of the nested form", "type": "object", "oneOf": kinds,
                           "properties": dict(COMMON, children={"type": "array", "items": {"$ref": "#/$defs/nestedNode"},
                                                                "description": "the node's children, in order"}),
                           "required": ["kind"], "unevaluatedProperties": False},
            "kinds": {name: kind_schema(name) for name in KINDS},
        },
    }


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "protocol/layout-document.schema.json"
    with open(out, "w") as file:
        json.dump(schema(), file, indent=2, ensure_ascii=False)
        file.write("\n")
