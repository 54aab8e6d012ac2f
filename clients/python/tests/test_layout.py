"""Client.layout: documents flat or nested (the files fitctl fit reads), compared with
`fitctl fit --json` on the same daemon; decisions, options, breakpoints, errors; and
flatten_document without a daemon."""

from __future__ import annotations

import copy
import json
import math
import subprocess
from typing import Optional

import pytest

import fitd
from conftest import EXAMPLES, ROOT

WIDTHS = (None, 140.0, 320.0)


def nest(document: dict) -> dict:
    """A flat example written nested (ids kept), to check both forms lay out alike."""
    if "root" in document:
        return document
    nodes = [dict(n) for n in document["nodes"]]
    index = {n["id"]: i for i, n in enumerate(nodes)}
    for n in nodes:
        n["children"] = []
    root = None
    for n in nodes:
        parent = n.pop("parent", None)
        if parent is None:
            root = n
        else:
            nodes[parent if isinstance(parent, int) else index[parent]]["children"].append(n)
    for n in nodes:
        if not n["children"]:
            del n["children"]
    return {"version": 1, "root": root}


def flat(document: dict) -> dict:
    """A nested example written flat, parents by id."""
    if "nodes" in document:
        return document
    return {"version": 1, "nodes": [dict(props, id=node_id, kind=kind, **({"parent": nodes_ids[parent]} if parent >= 0 else {}))
                                    for nodes_ids in [[n[0] for n in fitd.flatten_document(document)]]
                                    for node_id, kind, parent, props in fitd.flatten_document(document)]}


def as_fitctl_json(result: fitd.LayoutResult) -> dict:
    """The parts of a LayoutResult `fitctl fit --json` prints, in its shape, keyed by id."""
    nodes = {}
    for f in result.frames:
        node = {"frame": {"x": f.x, "y": f.y, "width": f.width, "height": f.height}, "visible": f.visible, "hidden": f.hidden}
        if f.first_baseline is not None:
            node["first_baseline"], node["last_baseline"] = f.first_baseline, f.last_baseline
        if f.is_text and f.visible:  # a text not shown has no outcome (fitctl prints none)
            node["text"] = {"line_count": f.line_count, "scale": f.scale, "truncated": f.truncated}
        nodes[f.id] = node
    decisions = {d.id: {k: v for k, v in (("candidate", d.candidate), ("candidate_id", d.candidate_id),
                                          ("candidate_ids", list(d.candidate_ids) or None), ("axis", d.axis),
                                          ("length", d.length), ("scale", d.scale), ("kind", d.kind)) if v is not None}
                 for d in result.decisions}
    return {"size": {"width": result.width, "height": result.height}, "truncated": result.truncated,
            "nodes": nodes, "decisions": decisions}


def fitctl_fit(fitctl: str, path, width) -> dict:
    args = [fitctl, "fit", str(path), "--json"] + (["--width", repr(width)] if width is not None else [])
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    keep = ("frame", "visible", "hidden", "first_baseline", "last_baseline", "text")
    return {"size": out["size"], "truncated": out["truncated"],
            "nodes": {n["id"]: {k: n[k] for k in keep if k in n} for n in out["nodes"]},
            "decisions": {d["id"]: {k: v for k, v in d.items() if k not in ("id", "node_index")} for d in out["decisions"]}}


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_flat_and_nested_documents_lay_out_as_fitctl_fit(fit, fitctl, path):
    document = json.loads(path.read_text())
    for width in WIDTHS:
        expected = fitctl_fit(fitctl, path, width)
        from_path = fit.layout(path, width)
        assert as_fitctl_json(from_path) == expected, f"{path.name} at {width}"
        for form in (nest(document), flat(document)):
            assert as_fitctl_json(fit.layout(form, width)) == expected, f"{path.name} at {width}, {list(form)[1]}"
    # The form nobody wrote by hand: the wire's own nodes, sent back as a flat document.
    assert fit.layout(copy.deepcopy(document), 320).frames == from_path.frames


def test_rows_of_a_nested_foreach_are_framed_by_expanded_ids(fit):
    result = fit.layout(EXAMPLES[0].parent / "template-cells.json")
    assert [f.id for f in result.frames[:2]] == ["week", "cell#0"]
    cells = [result.frame(f"cell#{row}") for row in range(3)]
    # Every cell is the hidden "190" plus padding, whatever its value.
    assert all(c.width == cells[0].width > 8 for c in cells) and cells[1].x == cells[0].width + 8
    assert result.frame("widest#0").hidden and not result.frame("rate#0").hidden
    rate = result.frame("rate#0")
    assert 0 < rate.first_baseline <= rate.last_baseline <= rate.height and not result.truncated


def test_decisions_follow_the_width(fit):
    card = EXAMPLES[0].parent / "first-fit-card.json"
    wide, narrow = fit.layout(card, width=1000), fit.layout(card, width=10)
    assert (wide.decision("card").candidate_id, wide.decision("card").candidate) == ("row", 0)
    assert (narrow.decision("card").candidate_id, narrow.decision("card").kind) == ("column", "firstFit")
    assert narrow.frame("row").visible is False and narrow.decision("row") is None  # a node, no decision


def test_frame_and_decision_refuse_an_unknown_id_alike(fit):
    narrow = fit.layout(EXAMPLES[0].parent / "first-fit-card.json", width=10)
    for lookup in (narrow.frame, narrow.decision):
        with pytest.raises(fitd.NodeNotFound) as raised:
            lookup("nothing")
        assert isinstance(raised.value, KeyError) and raised.value.args == ("nothing",)


def test_a_text_not_shown_is_still_a_text(fit):
    """The candidate not chosen: the wire's is_text is false for it (no outcome), the frame's is not."""
    narrow = fit.layout(EXAMPLES[0].parent / "first-fit-card.json", width=10)
    hidden, shown, stack = narrow.frame("rowLabel"), narrow.frame("columnLabel"), narrow.frame("row")
    assert (hidden.visible, hidden.is_text) == (False, True)
    assert (shown.visible, shown.is_text) == (True, True)
    assert (stack.visible, stack.is_text) == (False, False)
    # forEach rows ("<id>#<row>") and nested documents' generated ids find their kind too.
    rows = fit.layout(EXAMPLES[0].parent / "template-cells.json", width=140)
    assert [f.is_text for f in rows.frames if f.id.startswith(("widest#", "rate#"))] == [True] * 6
    assert fit.layout(nest(json.loads((EXAMPLES[0].parent / "first-fit-card.json").read_text())), width=10).frame("rowLabel").is_text


def test_a_uniform_fit_decision_names_what_each_item_shows_at_its_position(fit):
    """A uniformFit's position, and per choice point the node shown there (protocol/README.md)."""
    result = fit.layout(EXAMPLES[0].parent / "uniform-list.json", width=100)
    uniform = result.decision("list")
    assert (uniform.kind, uniform.candidate, uniform.candidate_id) == ("uniformFit", 1, "col0")
    assert uniform.candidate_ids == ("col0", "col1", "col2")
    assert [result.decision(f"item{i}").candidate_id for i in range(3)] == ["col0", "col1", "col2"]
    wide = fit.layout(EXAMPLES[0].parent / "uniform-list.json", width=400).decision("list")
    assert (wide.candidate, wide.candidate_ids) == (0, ("row0", "row1", "row2"))


def test_the_user_size_category_decides_a_threshold_unless_one_is_given(fit):
    row = EXAMPLES[0].parent / "payment-row-threshold.json"
    assert fit.size_category == "large" and fit.layout(row, 320).decisions[0].axis == "horizontal"
    fit.set_text_scale(2.0)
    assert fit.size_category.startswith("accessibility")
    assert fit.layout(row, 320).decisions[0].axis == "vertical"
    assert fit.layout(row, 320, size_category="large").decisions[0].axis == "horizontal"


def test_layout_text_options_reach_the_measurer(fit):
    label = {"root": {"kind": "text", "text": "<b>Save</b> changes", "font": "DejaVu Sans 10"}}
    marked = fit.layout(label, markup=True)
    assert marked.width == pytest.approx(96.58, abs=0.005)  # as Measure's markup (Pango's width)
    assert fit.layout(label).width != marked.width
    gtk3 = fit.layout({"root": {"kind": "text", "text": "Hello World", "font": "DejaVu Sans 10"}}, metrics="gtk3", language="en-US")
    assert gtk3.size == (75.0, 17.0)
    assert fit.layout({"root": {"kind": "hstack", "children": [{"kind": "text", "text": "a"}, {"kind": "text", "text": "b"}]}},
                      spacing=100).width > 100
    with pytest.raises(fitd.InvalidArgument, match="language"):
        fit.layout(label, language="en US")
    with pytest.raises(fitd.UnknownOption):
        fit.layout(label, colour="red")


def test_cells_and_infinite_widths(fit):
    doc = {"root": {"kind": "frame", "maxWidth": "infinity", "children": [{"kind": "text", "text": "abc"}]}}
    assert fit.layout(doc, 40, unit="cells").size == (40.0, 1.0)
    assert math.isinf(fit.layout(doc, math.inf).width)


def test_breakpoints_give_each_decisions_widths_and_the_content_widths(fit):
    card = EXAMPLES[0].parent / "first-fit-card.json"
    found = fit.layout(card, width=320, breakpoints=(100, 600)).breakpoints
    assert found.range == (100.0, 600.0)
    # The row (icon, label in GTK's Sans 10) is 173.29 px wide: the column up to 173, the row from 174.
    column, row = found.decisions["card"]
    assert (column.start, column.end, column.candidate, column.axis) == (100.0, 173.0, 1, None)
    assert (row.start, row.end, row.candidate, row.axis) == (174.0, 600.0, 0, None)
    assert found.max_content_width == pytest.approx(173.29, abs=0.005)
    # Exactly, the row is shown from its own width on (to Pango's 1/1024 px).
    assert column.exact_start == 100.0
    assert row.exact_start == pytest.approx(found.max_content_width, abs=1 / 1024)
    assert found.text_scale == fit.text_scale
    assert found.min_content_width < found.max_content_width and not found.truncated
    assert fit.layout(card, width=320).breakpoints is None
    for bad in [(600, 100), (0, math.inf), (math.nan, 1), (0, 2e6)]:
        with pytest.raises(fitd.InvalidArgument, match="breakpoints"):
            fit.layout(card, width=320, breakpoints=bad)


def test_bad_documents_are_invalid_document_from_the_daemon_or_the_client(fit, tmp_path):
    with pytest.raises(fitd.InvalidDocument, match="colour") as caught:
        fit.layout({"root": {"kind": "text", "text": "x", "colour": "red"}})
    assert caught.value.name == "org.fitd.Fit1.Error.InvalidDocument"
    with pytest.raises(fitd.InvalidDocument, match="not a node"):
        fit.layout({"nodes": [{"id": "a", "kind": "vstack"}, {"id": "b", "kind": "text", "parent": "nobody"}]})
    with pytest.raises(fitd.InvalidDocument, match="kind"):
        fit.layout({"root": {"text": "no kind"}})
    with pytest.raises(fitd.InvalidDocument, match="property 'text'"):
        fit.layout({"root": {"kind": "text", "text": {"nested": "object"}}})
    (tmp_path / "broken.json").write_text("{ not json")
    with pytest.raises(fitd.InvalidDocument, match="not JSON"):
        fit.layout(tmp_path / "broken.json")
    with pytest.raises(fitd.InvalidArgument):
        fit.layout({"root": {"kind": "text", "text": "x"}}, width=-5)
    with pytest.raises(TypeError):
        fit.layout('{"root": {"kind": "text"}}')  # a str is neither a dict nor a path


# --- flatten_document, no daemon needed ---------------------------------------------------

def test_nested_ids_parents_and_data_objects():
    nodes = fitd.flatten_document({"root": {"id": "card", "kind": "vstack", "children": [
        {"kind": "text", "text": "Title"},
        {"kind": "forEach", "data": [{"name": "a", "n": "1"}, {"name": "b"}],
         "children": [{"id": "t", "kind": "text", "text": "{name}{n}"}]}]}})
    assert [(i, k, p) for i, k, p, _ in nodes] == [("card", "vstack", -1), ("#1", "text", 0), ("#2", "forEach", 0), ("t", "text", 2)]
    assert nodes[2][3] == {"fields": ["n", "name"], "data": ["1", "a", "", "b"]}


def test_generated_ids_stay_short_at_depth_and_the_prefix_is_reserved():
    deep = {"kind": "spacer"}
    for _ in range(127):
        deep = {"kind": "vstack", "children": [deep]}
    assert fitd.flatten_document({"root": deep})[-1][0] == "#127"
    with pytest.raises(fitd.InvalidDocument, match="reserved"):
        fitd.flatten_document({"root": {"kind": "vstack", "children": [{"id": "#1", "kind": "spacer"}]}})


def test_limits_are_checked_before_sending():
    rows = [{f"k{n}": "v"} for n in range(65)]
    with pytest.raises(fitd.InvalidDocument, match="65 distinct fields"):
        fitd.flatten_document({"root": {"kind": "forEach", "data": rows, "children": [{"kind": "text", "text": "x"}]}})
    deep = {"kind": "spacer"}
    for _ in range(200):
        deep = {"kind": "vstack", "children": [deep]}
    with pytest.raises(fitd.InvalidDocument, match="128"):
        fitd.flatten_document({"root": deep})
    wide = {"root": {"kind": "vstack", "children": [{"kind": "spacer"}] * 10_000}}
    with pytest.raises(fitd.InvalidDocument, match="10000"):
        fitd.flatten_document(wide)


def test_flat_parents_become_indices_and_integers_doubles():
    nodes = fitd.flatten_document({"nodes": [{"id": "r", "kind": "hstack", "spacing": 4},
                                             {"id": "a", "parent": "r", "kind": "text", "text": "x"},
                                             {"id": "b", "parent": 0, "kind": "spacer"}]})
    assert [p for _, _, p, _ in nodes] == [-1, 0, 0] and nodes[1][3] == {"text": "x"}
    from fitd.wire import document_nodes
    spacing = document_nodes({"nodes": [{"id": "r", "kind": "hstack", "spacing": 4}]})[0][3]["spacing"]
    assert (spacing.signature, spacing.value) == ("d", 4.0)


def test_a_document_has_one_form():
    with pytest.raises(fitd.InvalidDocument):
        fitd.flatten_document({"root": {"kind": "vstack"}, "nodes": []})
    with pytest.raises(fitd.InvalidDocument, match="names a parent"):
        fitd.flatten_document({"root": {"kind": "vstack", "children": [{"kind": "text", "parent": "x"}]}})


# What fitctl does with the same document: flatten_document follows LayoutDocument's reader
# (Sources/FitLayout/LayoutDocument.swift), so each case below is checked against the real one.

def fitctl_flatten(fitctl: str, path) -> Optional[list]:
    """`fitctl fit --flatten` of a file as the wire's nodes (parent ids as the index of the
    first node with that id, as LayoutCodec sends them), or None where fitctl refuses it."""
    run = subprocess.run([fitctl, "fit", str(path), "--flatten"], capture_output=True, text=True)
    if run.returncode != 0:
        return None
    nodes = json.loads(run.stdout)["nodes"]
    first: dict = {}
    for position, node in enumerate(nodes):
        first.setdefault(node["id"], position)
    parents = [-1 if n.get("parent") is None else first.get(n["parent"], n["parent"]) for n in nodes]
    return [(n["id"], n["kind"], parent, {k: v for k, v in n.items() if k not in ("id", "kind", "parent")})
            for n, parent in zip(nodes, parents)]


def flattens_as_fitctl(fitctl: str, tmp_path, text: str) -> bool:
    """Whether flatten_document reads the JSON text as fitctl does: the same nodes, or both
    refuse it."""
    path = tmp_path / "document.json"
    path.write_text(text)
    expected = fitctl_flatten(fitctl, path)
    if expected is None:
        with pytest.raises(fitd.InvalidDocument):
            fitd.flatten_document(path)
        return True
    return fitd.flatten_document(path) == expected


def test_examples_flatten_as_fitctl_fit_flatten(fitctl, tmp_path):
    for path in EXAMPLES + sorted((ROOT / "clients" / "examples").glob("*.json")):
        document = json.loads(path.read_text())
        for form in (document, nest(document)):
            assert flattens_as_fitctl(fitctl, tmp_path, json.dumps(form)), path.name


def test_a_flat_parent_written_as_a_whole_float_is_an_index(fitctl, tmp_path):
    for parent in ("0.0", "1e0", "0.5"):
        text = '{"nodes": [{"id": "r", "kind": "vstack"}, {"id": "a", "parent": 0, "kind": "vstack"},' \
               f' {{"id": "b", "parent": {parent}, "kind": "spacer"}}]}}'
        assert flattens_as_fitctl(fitctl, tmp_path, text), parent
    assert [p for _, _, p, _ in fitd.flatten_document({"nodes": [{"id": "r", "kind": "vstack"},
                                                                 {"id": "a", "parent": 0.0, "kind": "spacer"}]})] == [-1, 0]


def test_a_flat_parent_index_outside_the_document_is_refused_before_sending(fitctl, tmp_path):
    # fitctl --flatten prints such a parent; fitctl fit refuses it when it makes the wire's
    # indices (LayoutCodec.parentIndices), where -1 would mean "the root". (It connects to the
    # bus first, so this one may start a daemon.)
    for parent in (-1, 2**31):
        document = {"nodes": [{"id": "r", "kind": "vstack"}, {"id": "a", "parent": parent, "kind": "spacer"}]}
        with pytest.raises(fitd.InvalidDocument, match="not a node of the document"):
            fitd.flatten_document(document)
        (tmp_path / "parent.json").write_text(json.dumps(document))
        run = subprocess.run([fitctl, "fit", str(tmp_path / "parent.json"), "--json"], capture_output=True, text=True)
        assert run.returncode != 0 and "not a node of the document" in run.stderr, (parent, run.stderr)


def test_top_level_keys_version_and_description_are_checked(fitctl, tmp_path):
    refused = ['{"root": {"kind": "spacer"}, "extra": 1}', '{"version": 2, "root": {"kind": "spacer"}}',
               '{"version": "1", "root": {"kind": "spacer"}}', '{"version": true, "root": {"kind": "spacer"}}',
               '{"description": 5, "root": {"kind": "spacer"}}']
    accepted = ['{"version": 1.0, "root": {"kind": "spacer"}}',
                '{"version": null, "description": null, "root": {"kind": "spacer"}}',
                '{"version": 1, "description": "a spacer", "nodes": [{"id": "s", "kind": "spacer"}]}']
    for text in refused:
        (tmp_path / "top.json").write_text(text)
        assert fitctl_flatten(fitctl, tmp_path / "top.json") is None, text
        with pytest.raises(fitd.InvalidDocument):
            fitd.flatten_document(json.loads(text))
    for text in accepted:
        assert flattens_as_fitctl(fitctl, tmp_path, text), text


def test_foreach_row_values_are_strings(fitctl, tmp_path):
    for value in ("1", "null", "true", '"1"'):
        text = f'{{"root": {{"kind": "vstack", "children": [{{"kind": "forEach", "data": [{{"n": {value}}}, {{"m": "2"}}],' \
               ' "children": [{"kind": "text", "text": "{n}"}]}]}}'
        assert flattens_as_fitctl(fitctl, tmp_path, text), value
    with pytest.raises(fitd.InvalidDocument, match="a row's values are strings"):
        fitd.flatten_document({"root": {"kind": "forEach", "data": [{"n": 1}], "children": [{"kind": "text", "text": "{n}"}]}})


def test_explicit_fields_beside_data_rows_are_refused(fitctl, tmp_path):
    for pair in ('"fields": ["z"], "data": [{"a": "1"}]', '"data": [{"a": "1"}], "fields": ["z"]'):
        for text in (f'{{"nodes": [{{"id": "f", "kind": "forEach", {pair}}}]}}',
                     f'{{"root": {{"kind": "forEach", {pair}, "children": [{{"kind": "text", "text": "{{a}}"}}]}}}}'):
            assert flattens_as_fitctl(fitctl, tmp_path, text), text
            with pytest.raises(fitd.InvalidDocument, match="names its fields itself"):
                fitd.flatten_document(json.loads(text))


def test_children_in_a_flat_node_are_refused(fitctl, tmp_path):
    for children in ('["a"]', '[{"kind": "spacer"}]'):
        text = f'{{"nodes": [{{"id": "r", "kind": "vstack", "children": {children}}}]}}'
        assert flattens_as_fitctl(fitctl, tmp_path, text), children
    with pytest.raises(fitd.InvalidDocument, match="nested form"):
        fitd.flatten_document({"nodes": [{"id": "r", "kind": "vstack", "children": ["a"]}]})


def test_property_values_are_checked_when_flattening(fitctl, tmp_path):
    for value in ("null", '{"nested": "object"}', "[1, 2]", '["a", 2]'):
        text = f'{{"root": {{"kind": "text", "text": {value}}}}}'
        assert flattens_as_fitctl(fitctl, tmp_path, text), value
    with pytest.raises(fitd.InvalidDocument, match="property 'text'"):
        fitd.flatten_document({"root": {"kind": "text", "text": None}})


def test_document_files_are_strict_json(fitctl, tmp_path):
    for text in ('{"root": {"kind": "frame", "maxWidth": Infinity}}', '{"root": {"kind": "frame", "width": NaN}}',
                 '{"root": {"kind": "text", "text": "a", "text": "b"}}',
                 '{"root": {"kind": "text", "text": "a"}, "root": {"kind": "spacer"}}'):
        assert flattens_as_fitctl(fitctl, tmp_path, text), text
        with pytest.raises(fitd.InvalidDocument, match="not JSON"):
            fitd.flatten_document(tmp_path / "document.json")


def test_a_flat_document_has_at_most_10000_nodes(fitctl, tmp_path):
    for count in (10_000, 10_001):
        nodes = [{"id": "r", "kind": "vstack"}] + [{"id": f"n{i}", "parent": "r", "kind": "spacer"} for i in range(count - 1)]
        assert flattens_as_fitctl(fitctl, tmp_path, json.dumps({"nodes": nodes})), count
    with pytest.raises(fitd.InvalidDocument, match="10001 nodes"):
        fitd.flatten_document({"nodes": [{"id": "r", "kind": "vstack"}] * 10_001})
