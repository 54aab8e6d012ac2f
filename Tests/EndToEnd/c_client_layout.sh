#!/usr/bin/env bash
# libfitd-client's typed API as application developers meet it (clients/c/README.md, "Layout
# from JSON"): a C program (clients/c/tests/layout.c), a GJS script (layout.js) and a Vala
# program (layout.vala) lay out a nested JSON document with a forEach, an array of strings,
# a threshold and a firstFit through a real daemon on a private bus and read typed frames,
# decisions and breakpoints; the three print the same lines, and they are fitctl's figures
# for the same document from the same daemon. The JSON flattening is `fitctl fit --flatten`'s
# for every example of protocol/examples. Bad input: truncated JSON names the line and
# column, a wrong shape the place in the document, a daemon's refusal is a FIT_ERROR with
# the daemon's sentence and no "GDBus.Error:" prefix — in all three languages.
# The Vala namespace is Fitd, as in GJS and PyGObject (the VAPI's metadata, meson.build).
# Before the bus: 30,000 randomly mutated documents are each flattened or refused as
# InvalidDocument, never a crash (tests/mutate.c).
source "$(dirname "$0")/lib.bash"

if [ -z "${E2E_INNER:-}" ]; then
  command -v gjs >/dev/null || skip "gjs is missing (scripts/bootstrap installs it)"
  command -v valac >/dev/null || skip "valac is missing (scripts/bootstrap installs it)"
  pkg-config --exists json-glib-1.0 || skip "json-glib is missing (scripts/bootstrap installs libjson-glib-dev)"
  # Built and installed from scratch, outside the private bus's time limit (as c_client.sh).
  c_client_build layout
  [ -e "$prefix/include/fitd-client/fit-results.h" ] || fail "meson install left out fit-results.h"
  vapi=$prefix/share/vala/vapi/fitd-client.vapi
  grep -q '^namespace Fitd {' "$vapi" || fail "the VAPI's namespace is not Fitd: $(grep -m1 '^namespace' "$vapi")"
  for name in LayoutResult Frame Decision Breakpoints Interval Metrics Line; do
    grep -q "public sealed class $name : GLib.Object" "$vapi" || fail "the VAPI has no Fitd.$name"
    grep -q "<class name=\"$name\"" "$prefix/share/gir-1.0/Fitd-1.0.gir" || fail "the GIR has no Fitd.$name"
  done
  grep -q '<constant name="IDEAL" value="-1"' "$prefix/share/gir-1.0/Fitd-1.0.gir" || fail "Fitd.IDEAL is not -1 in the GIR"
  ok "installed: fit-results.h; Fitd.IDEAL -1; GIR and VAPI both say Fitd (Fitd.LayoutResult, Frame, Decision, Breakpoints, Interval, Metrics, Line)"

  c_client_compile layout clients/c/tests/layout.c clients/c/tests/layout.vala
  ok "tests/layout.c compiles with pkg-config --cflags --libs fitd-client (-Wall -Wextra -Werror), layout.vala with --pkg fitd-client"
  # shellcheck disable=SC2046 # pkg-config's flags are words
  cc -Wall -Wextra -Werror -o "$C_WORK/mutate" clients/c/tests/mutate.c $(pkg-config --cflags --libs fitd-client) \
    2>"$C_WORK/cc.log" || fail "cc mutate.c: $(cat "$C_WORK/cc.log")"
  LD_LIBRARY_PATH=$prefix/lib "$C_WORK/mutate" 2000 protocol/examples/*.json clients/c/tests/nested.json >"$C_WORK/mutate.out" 2>&1 \
    || fail "mutated documents: $(cat "$C_WORK/mutate.out")"
  ok "mutated documents: $(cut -d';' -f1 "$C_WORK/mutate.out"), none crashed or failed otherwise; a megabyte of [ refused by its nesting"

  # JSON syntax as fitctl judges it (strict RFC 8259, fit-json.c), at the same line and
  # column and in the same words: what fitctl fit says of each text, fit_document_from_file()
  # says too. json-glib alone would take the comment, the quotes, the zero, the second value
  # and the duplicate, and read 1e400 as infinity.
  bad=$C_WORK/bad; mkdir -p "$bad"
  printf '%s' '{"root": {"kind": "text", "text": "a",}}' >"$bad/trailing-comma.json"
  printf '%s' '{"root": /* c */ {"kind": "text", "text": "a"}}' >"$bad/comment.json"
  printf '%s' "{'root': {'kind': 'text'}}" >"$bad/single-quotes.json"
  printf '%s' '{"root": {"kind": "text", "text": "a", "lineLimit": 01}}' >"$bad/leading-zero.json"
  printf '%s' '{"root": {"kind": "text", "text": "a", "lineLimit": 1e400}}' >"$bad/out-of-range.json"
  printf '%s' '{"root": {"kind": "text", "text": "a"}} {}' >"$bad/two-values.json"
  printf '%s' '{"root": {"kind": "text", "text": "a", "text": "b"}}' >"$bad/twice.json"
  printf '%s' '{"root": {"kind": "text", "text": "\ud83d é"}}' >"$bad/lone-surrogate.json"
  printf '{"root": {"kind": "text",\n  "text": "Zoë\tb"}}' >"$bad/control.json"
  printf '{"root": {"kind": "vstack",\n  "children": [\n    {"kind": "text", "text": "é"' >"$bad/truncated.json"
  for f in "$bad"/*.json; do
    "$FITCTL" fit "$f" --local >/dev/null 2>"$f.fitctl" && fail "fitctl took $(basename "$f")"
    LD_LIBRARY_PATH=$prefix/lib "$C_WORK/layout" flatten "$f" >"$f.c" 2>&1 && fail "fit_document_from_file took $(basename "$f")"
    # fitctl: "Error: FILE:LINE:COLUMN: REASON"; the library: "error …: FILE: line LINE, column COLUMN: REASON".
    want=$(sed -n "s|^Error: $f:\([0-9]*\):\([0-9]*\): |line \1, column \2: |p" "$f.fitctl")
    got=$(sed -n "s|^error fit-error-quark [0-9]*: $f: ||p" "$f.c")
    [ -n "$want" ] || fail "fitctl's error for $(basename "$f"): $(cat "$f.fitctl")"
    assert_eq "$got" "$want" "the syntax error in $(basename "$f")"
  done
  ok "JSON syntax: $(ls "$bad"/*.json | wc -l) bad texts (comment, quotes, leading zero, 1e400, two values, a member twice, a lone surrogate, a tab, truncated) refused at fitctl's line and column, in its words"
fi
on_private_bus "$@"

prefix=$C_WORK/prefix
export LD_LIBRARY_PATH=$prefix/lib GI_TYPELIB_PATH=$prefix/lib/girepository-1.0
out=$C_WORK/out; mkdir -p "$out"
c_test() { "$C_WORK/layout" "$@"; }
gjs_test() { gjs -m clients/c/tests/layout.js "$@"; }
vala_test() { "$C_WORK/vala/layout-vala" "$@"; }
doc=clients/c/tests/nested.json

# 1. Flattening: fit_document_from_file() of every example and of the test document is the
#    flat form fitctl sends (`fitctl fit --flatten`): ids (generated ones too), kinds,
#    parents, and every property with its wire type (numbers d, arrays as, forEach rows).
for f in protocol/examples/*.json "$doc"; do
  c_test flatten "$f" >"$out/flat.c" 2>&1 || fail "flatten $f: $(cat "$out/flat.c")"
  "$FITCTL" fit "$f" --flatten --local >"$out/flat.json" 2>"$out/flat.err" || fail "fitctl fit --flatten $f: $(cat "$out/flat.err")"
  "$PY" - "$out/flat.c" "$out/flat.json" "$f" <<'PY' || fail "flattening of $f differs from fitctl's"
import json, sys
from gi.repository import GLib
wire = GLib.Variant.parse(GLib.VariantType("a(ssia{sv})"), open(sys.argv[1]).read().strip(), None, None)
flat = json.load(open(sys.argv[2]))["nodes"]
def typed(value):  # the JSON value as the wire must carry it (LayoutCodec.encode)
    if isinstance(value, bool): return ("b", value)
    if isinstance(value, (int, float)): return ("d", float(value))
    if isinstance(value, str): return ("s", value)
    return ("as", value)
children = lambda v: [v.get_child_value(i) for i in range(v.n_children())]
def props(dictionary):  # name -> (wire type, value)
    return {e.get_child_value(0).get_string(): (e.get_child_value(1).get_variant().get_type_string(),
                                                  e.get_child_value(1).get_variant().unpack()) for e in children(dictionary)}
got = [(n.get_child_value(0).get_string(), n.get_child_value(1).get_string(), n.get_child_value(2).get_int32(),
        props(n.get_child_value(3))) for n in children(wire)]
# The flat form keeps parents named by id; the wire has the first node with that id's index.
first = {}
for i, n in enumerate(flat): first.setdefault(n["id"], i)
parent = lambda p: -1 if p is None else first[p] if isinstance(p, str) else p
want = [(n["id"], n["kind"], parent(n.get("parent")), {k: typed(v) for k, v in n.items() if k not in ("id", "kind", "parent")}) for n in flat]
if got != want:
    for g, w in zip(got, want):
        if g != w: print(f"  {sys.argv[3]}: C {g}\n  fitctl {w}", file=sys.stderr); break
    else: print(f"  {sys.argv[3]}: {len(got)} nodes vs fitctl's {len(want)}", file=sys.stderr)
    sys.exit(1)
PY
done
ok "fit_document_from_file() flattens $(ls protocol/examples/*.json | wc -l) examples and the nested test document as fitctl fit --flatten does (ids, parents, wire types)"

# 2. The nested document at 150 px with breakpoints over 50–400, typed, in C (file, JSON
#    text, async, async file: layout.c checks they agree), GJS (file, promisified async) and
#    Vala: the same lines in all three.
c_test layout "$doc" 150 50 400 >"$out/layout.c" 2>&1 || fail "layout.c: $(cat "$out/layout.c")"
gjs_test layout "$doc" 150 50 400 >"$out/layout.gjs" 2>&1 || fail "layout.js: $(cat "$out/layout.gjs")"
vala_test layout "$doc" 150 50 400 >"$out/layout.vala" 2>&1 || fail "layout.vala: $(cat "$out/layout.vala")"
cmp -s "$out/layout.c" "$out/layout.gjs" || fail "C and GJS differ: $(diff "$out/layout.c" "$out/layout.gjs")"
cmp -s "$out/layout.c" "$out/layout.vala" || fail "C and Vala differ: $(diff "$out/layout.c" "$out/layout.vala")"
! grep -q 'LOOKUP FAILED' "$out/layout.c" || fail "lookup by id: $(grep 'LOOKUP FAILED' "$out/layout.c")"
ok "C, GJS and Vala read the same $(grep -c '^frame ' "$out/layout.c") frames, $(grep -c '^decision ' "$out/layout.c") decisions, $(grep -c '^interval ' "$out/layout.c") breakpoint intervals; frame and decision lookup by id"

# 3. …and they are fitctl's figures for the same document from the same daemon.
compare_fitctl() {  # compare_fitctl DOC WIDTH [MIN MAX]: the C program's lines against fitctl fit --json
  local f=$1 width=$2 args=("$1" --width "$2" --json)
  [ $# -eq 4 ] && args+=(--breakpoints "$3:$4")
  "$FITCTL" fit "${args[@]}" >"$out/fitctl.json" 2>"$out/fitctl.err" || fail "fitctl fit $f: $(cat "$out/fitctl.err")"
  if [ $# -eq 4 ]; then c_test layout "$f" "$width" "$3" "$4"; else c_test layout "$f" "$width"; fi >"$out/typed" 2>&1 \
    || fail "layout.c $f: $(cat "$out/typed")"
  "$PY" - "$out/typed" "$out/fitctl.json" "$f" <<'PY' || fail "layout.c vs fitctl for $f"
import json, sys
lines = [l.split() for l in open(sys.argv[1]).read().splitlines()]
want = json.load(open(sys.argv[2]))
problems = []
def check(what, got, expected):
    if got != expected: problems.append(f"{what}: C {got}, fitctl {expected}")
size = next(l for l in lines if l[0] == "size")
check("size", (float(size[1]), float(size[2])), (want["size"]["width"], want["size"]["height"]))
frames = [l for l in lines if l[0] == "frame"]
check("frame ids", [l[1] for l in frames], [n["id"] for n in want["nodes"]])
for l, n in zip(frames, want["nodes"]):
    f = n["frame"]
    check(f"frame {l[1]}", (l[2] == "1", float(l[3]), float(l[4]), float(l[5]), float(l[6]), "hidden" in l),
          (n["visible"], f["x"], f["y"], f["width"], f["height"], n["hidden"]))
    if "text" in n:
        check(f"text {l[1]}", (float(l[8]), int(l[9]), l[10] == "1"), (n["text"]["scale"], n["text"]["line_count"], n["text"]["truncated"]))
        check(f"alignment {l[1]}", l[l.index("alignment") + 1] if "alignment" in l else None, n["text"].get("alignment"))
    if "first_baseline" in n:
        b = l.index("baselines")
        check(f"baselines {l[1]}", (float(l[b + 1]), float(l[b + 2])), (n["first_baseline"], n["last_baseline"]))
decisions = [l for l in lines if l[0] == "decision"]
check("decisions", [(l[1], l[2], int(l[3]), None if l[4] == "-" else l[4], None if l[5] == "-" else l[5]) for l in decisions],
      [(d["id"], d["kind"], d.get("candidate", -1), d.get("candidate_id"), d.get("axis")) for d in want["decisions"]])
if "breakpoints" in want:
    bp, b = want["breakpoints"], next(l for l in lines if l[0] == "breakpoints")
    check("breakpoints", tuple(float(x) for x in b[1:6]) + (b[6] == "1",),
          (bp["min_content_width"], bp["max_content_width"], bp["range"]["from"], bp["range"]["to"], bp["text_scale"], bp["truncated"]))
    got = [(l[1], float(l[2]), float(l[3]), int(l[4]), None if l[5] == "-" else l[5], float(l[6]), float(l[7]))
           for l in lines if l[0] == "interval"]
    expected = [(i, s["from"], s["to"], s.get("candidate", -1), s.get("axis"), s.get("exact_from", -1), s.get("exact_from_sp", -1))
                for i, spans in bp["decisions"].items() for s in spans]
    check("intervals", got, expected)
    if not got: problems.append("no breakpoint intervals")
check("truncated", lines[-1], ["truncated", "1" if want["truncated"] else "0"])
for p in problems: print(f"  {sys.argv[3]}: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}
compare_fitctl "$doc" 150 50 400
for f in protocol/examples/*.json; do compare_fitctl "$f" 320; done
ok "the typed results equal fitctl fit --json for the test document (frames, decisions, breakpoints and exact flips) and every example at 320 px"

# 4. Bad input, in all three languages: the same error lines.
same_error() {  # same_error WHAT EXPECTED-REGEX JSON
  local what=$1 expected=$2 json=$3 lang
  for lang in c_test gjs_test vala_test; do
    local status=0
    $lang json "$json" 200 >"$out/err.$lang" 2>&1 || status=$?
    assert_eq "$status" 1 "$lang $what: exit status ($(cat "$out/err.$lang"))"
    head -1 "$out/err.$lang" | grep -qE "$expected" || fail "$lang $what: $(cat "$out/err.$lang"), expected /$expected/"
    grep -q 'GDBus.Error' "$out/err.$lang" && fail "$lang $what keeps the GDBus.Error prefix: $(cat "$out/err.$lang")"
  done
  cmp -s "$out/err.c_test" <(head -1 "$out/err.gjs_test") || fail "$what: C and GJS say differently: $(cat "$out/err.c_test" "$out/err.gjs_test")"
  cmp -s "$out/err.c_test" <(head -1 "$out/err.vala_test") || fail "$what: C and Vala say differently: $(cat "$out/err.c_test" "$out/err.vala_test")"
  grep -qx 'matches Fitd.Error.INVALID_DOCUMENT' "$out/err.gjs_test" || [ "$what" = "bad font" ] || fail "GJS $what: not Fitd.Error.INVALID_DOCUMENT"
}
invalid_document="^error fit-error-quark $(grep -oE 'FIT_ERROR_[A-Z_]+,' clients/c/fit-client.h | grep -n '^FIT_ERROR_INVALID_DOCUMENT,' | cut -d: -f1 | awk '{print $1 - 1}'): "
same_error "truncated JSON" "${invalid_document}line 3, column [0-9]+: " $'{"root": {"kind": "vstack",\n  "children": [\n    {"kind": "text", "text": "a"'
same_error "an array holding a number" "${invalid_document}root\.children\[1\]\.templates\[1\] is a number; " \
  '{"root": {"kind": "vstack", "children": [{"kind": "text", "text": "a"}, {"kind": "template", "templates": ["190", 7], "children": [{"kind": "text", "text": "1"}]}]}}'
same_error "a node that is not an object" "${invalid_document}root\.children\[0\] is a string; a node is an object" \
  '{"root": {"kind": "vstack", "children": ["text"]}}'
same_error "a row value that is not a string" "${invalid_document}root\.data\[1\]\.rate is a number; " \
  '{"root": {"kind": "forEach", "data": [{"rate": "72"}, {"rate": 105}], "children": [{"kind": "text", "text": "{rate}"}]}}'
same_error "a given id beginning with #" "${invalid_document}root\.children\[0\]: id \"#1\": ids beginning with" \
  '{"root": {"kind": "vstack", "children": [{"id": "#1", "kind": "text", "text": "a"}]}}'
same_error "both nodes and root" "${invalid_document}give nodes \(the flat form\) or root \(the nested form\), not both" \
  '{"nodes": [], "root": {"kind": "text", "text": "a"}}'
same_error "nesting past the limit" "${invalid_document}line 1, column 265: nested more than 264 deep" \
  "$("$PY" -c 'print("[" * 100000)')"
# The daemon's refusal: its sentence ("node 1 (id …): …"), the code of InvalidDocument.
same_error "a property the daemon refuses" "${invalid_document}node 1 \(id \"#1\"\): a text has no property \"features\"" \
  '{"root": {"kind": "vstack", "children": [{"kind": "text", "text": "a", "features": ["tnum", "-liga"]}]}}'
ok "truncated JSON names line and column; a wrong shape the place (root.children[1].templates[1]); a refusal is FIT_ERROR with the daemon's sentence, no GDBus.Error prefix — alike in C, GJS and Vala"

# Another code: a font the daemon refuses is FIT_ERROR_INVALID_FONT through the typed Measure.
status=0
c_test measure "Hello" "DejaVu Sans 99999" >"$out/measure.err" 2>&1 || status=$?
assert_eq "$status" 1 "typed Measure of a 99999 pt font"
grep -qE "^error fit-error-quark 1: invalid font size" "$out/measure.err" || fail "typed Measure error: $(cat "$out/measure.err")"
c_test measure "Hello, world" "DejaVu Sans 12" >"$out/measure" 2>&1 || fail "typed Measure: $(cat "$out/measure")"
want=$("$FITCTL" measure "Hello, world" --font "DejaVu Sans 12" --json | json_get 'd["width"]')
got=$(sed -n 's/^width //p' "$out/measure")
"$PY" -c "import sys; sys.exit(float('$got') != float('$want'))" || fail "typed Measure width $got, fitctl $want"
grep -qx 'line-texts 1 \[Hello, world\]' "$out/measure" || fail "typed Measure lines: $(cat "$out/measure")"
ok "typed Measure: width $got as fitctl's, lines as FitLine; a 99999 pt font is FIT_ERROR_INVALID_FONT with the daemon's sentence"

# A file: its errors begin with its name; one that is missing is a G_IO_ERROR.
printf '{"root": {"kind": "text",\n "text": }}' >"$out/broken.json"
status=0
c_test layout "$out/broken.json" 100 >"$out/file.err" 2>&1 || status=$?
grep -qE "^error fit-error-quark [0-9]+: $out/broken.json: line 2, column [0-9]+: " "$out/file.err" || fail "a broken file: $(cat "$out/file.err")"
c_test layout "$out/missing.json" 100 >"$out/file.err" 2>&1 || status=$?
grep -qE "^error g-io-error-quark 1: " "$out/file.err" || fail "a missing file: $(cat "$out/file.err")"
ok "fit_client_layout_file(): a broken file's error begins with its name and the line and column; a missing one is G_IO_ERROR_NOT_FOUND"

# PyGObject, as clients/c/README.md shows it: the same typed result from the same typelib.
"$PY" - "$doc" "$out/layout.c" <<'PY' || fail "PyGObject on the typed API"
import sys
import gi
gi.require_version("Fitd", "1.0")
from gi.repository import Fitd, Gio, GLib
fit = Fitd.Client.new_sync(None)
options = GLib.Variant("a{sv}", {"breakpoints": GLib.Variant("(dd)", (50.0, 400.0))})
result = fit.layout_file(Gio.File.new_for_path(sys.argv[1]), 150, Fitd.IDEAL, options, None)
want = {l.split()[1]: l.split() for l in open(sys.argv[2]) if l.startswith("frame ")}
for frame in result.get_frames():
    w = want[frame.get_id()]
    assert (frame.get_x(), frame.get_y(), frame.get_width(), frame.get_height()) == tuple(float(x) for x in w[3:7]), (frame.get_id(), w)
card = result.get_decision("card")
intervals = result.get_breakpoints().get_intervals("card")
assert [(i.get_from(), i.get_to(), i.get_candidate()) for i in intervals] == [
    (float(l.split()[2]), float(l.split()[3]), int(l.split()[4])) for l in open(sys.argv[2]) if l.startswith("interval card ")]
try:
    fit.layout_json('{"root": {"kind": "text", "text": "a", "colour": "red"}}', 100, Fitd.IDEAL, None, None)
    raise SystemExit("an unknown property was accepted")
except GLib.Error as e:
    assert e.matches(Fitd.error_quark(), Fitd.Error.INVALID_DOCUMENT) and e.message.startswith("node 0 "), e.message
print(f"card candidate {card.get_candidate()} ({card.get_candidate_id()}), {len(intervals)} intervals")
PY
ok "PyGObject: Fitd.Client.layout_file gives the frames and breakpoints C reads; a refusal is Fitd.Error.INVALID_DOCUMENT starting with the daemon's 'node 0 …'"

# The other async calls from GJS, promisified as GJS programs use them: Measure, a file, the
# wire form; a refusal and a cancellation arrive as errors of their domains.
cat >"$out/async.js" <<'JS'
import GLib from 'gi://GLib';
import Gio from 'gi://Gio';
import Fitd from 'gi://Fitd?version=1.0';
for (const name of ['measure', 'layout_file', 'layout'])
    Gio._promisify(Fitd.ClientProxy.prototype, `${name}_async`, `${name}_finish`);
const fit = Fitd.Client.new_sync(null);
const metrics = await fit.measure_async('Hello, world', 'DejaVu Sans 12', null, null);
const file = await fit.layout_file_async(Gio.File.new_for_path(ARGV[0]), 150, Fitd.IDEAL, null, null);
const wire = await fit.layout_async(Fitd.document_from_json('{"root": {"kind": "text", "text": "abc"}}'),
    Fitd.IDEAL, Fitd.IDEAL, null, null);
let refused = false, cancelled = false;
try {
    await fit.measure_async('x', '', new GLib.Variant('a{sv}', {bogus: new GLib.Variant('b', true)}), null);
} catch (e) {
    refused = e.matches(Fitd.Error, Fitd.Error.UNKNOWN_OPTION) && e.message.startsWith('unknown option "bogus"');
}
const cancellable = new Gio.Cancellable();
cancellable.cancel();
try {
    await fit.layout_file_async(Gio.File.new_for_path(ARGV[0]), 150, Fitd.IDEAL, null, cancellable);
} catch (e) {
    cancelled = e.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED);
}
print(`${metrics.get_width()} ${file.get_frames().length} ${wire.get_frames().length} ${refused} ${cancelled}`);
JS
read -r width frames wire refused cancelled < <(gjs -m "$out/async.js" "$doc" 2>"$out/async.err")
assert_eq "$width $frames $wire $refused $cancelled" "$("$FITCTL" measure "Hello, world" --font "DejaVu Sans 12" --json | json_get 'd["width"]') $(grep -c '^frame ' "$out/layout.c") 1 true true" \
  "GJS async calls ($(cat "$out/async.err"))"
ok "GJS: measure_async, layout_file_async and layout_async (promisified) answer; a refusal is Fitd.Error.UNKNOWN_OPTION with the daemon's sentence; a cancelled call G_IO_ERROR_CANCELLED"
