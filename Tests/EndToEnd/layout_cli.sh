#!/bin/sh
# fitctl fit --local on every protocol/examples/*.json at two widths (px and cells): the JSON
# must have a frame per node and a decision per shown decision node, and a bad document must
# fail with one line naming the node. Usage: Tests/EndToEnd/layout_cli.sh [path/to/fitctl]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
fitctl=${1:-"$root/.build/debug/fitctl"}
python=/usr/bin/python3
[ -x "$fitctl" ] || { echo "no fitctl at $fitctl (swift build first)" >&2; exit 2; }
# The pinned fonts, as the Swift tests use.
export FONTCONFIG_FILE="$root/Tests/fonts/fonts.conf"
export XDG_CACHE_HOME="${TMPDIR:-/tmp}/fitd-tests-cache"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failures=0
checked=0
for document in "$root"/protocol/examples/*.json; do
    for args in "--width 120" "--width 480" "--width 30 --cells" "--width 90 --cells"; do
        name="$(basename "$document") $args"
        # shellcheck disable=SC2086
        if ! "$fitctl" fit --local --json $args "$document" >"$out/result.json" 2>"$out/err"; then
            echo "FAIL $name: $(cat "$out/err")"
            failures=$((failures + 1))
            continue
        fi
        # Nested documents are checked in their flat form, as fitctl sends them.
        "$fitctl" fit --flatten "$document" >"$out/flat.json"
        if ! "$python" - "$out/flat.json" "$out/result.json" <<'PY'
import json, sys
document = json.load(open(sys.argv[1]))
result = json.load(open(sys.argv[2]))
decision_kinds = {"firstFit", "uniformFit", "threshold", "fitting", "scaleGroup"}
nodes = document["nodes"]
frames = result["nodes"]
problems = []
if any(n["kind"] == "forEach" for n in nodes):
    # Laid out as its expansion: a forEach's children once per row, ids "<id>#<row>".
    ids = [f["id"] for f in frames]
    if len(set(ids)) != len(ids) or any(n["id"] in ids for n in nodes if n["kind"] == "forEach"):
        problems.append("the expansion's ids are not unique, or a forEach has a frame")
    nodes = [{"id": i, "kind": "?"} for i in ids]
elif [f["id"] for f in frames] != [n["id"] for n in nodes]:
    problems.append("frames are not one per node in document order")
for f in frames:
    fr = f["frame"]
    if any(not isinstance(fr[k], (int, float)) or fr[k] < 0 for k in ("width", "height")):
        problems.append(f"{f['id']}: bad frame {fr}")
shown = {f["id"] for f in frames if f["visible"]}
wanted = [n["id"] for n in nodes if n["kind"] in decision_kinds and n["id"] in shown]
got = [d["id"] for d in result["decisions"]]
if got != wanted:
    problems.append(f"decisions {got}, expected one per shown decision node {wanted}")
if nodes[0]["id"] not in shown:
    problems.append("the root is not shown")
if problems:
    print("; ".join(problems))
    sys.exit(1)
PY
        then
            echo "FAIL $name"
            failures=$((failures + 1))
        fi
        checked=$((checked + 1))
    done
done

# A bad document: non-zero exit, one line, naming the node.
printf '%s' '{"nodes":[{"id":"root","kind":"vstack"},{"id":"bad","parent":"root","kind":"text","text":"x","lineLimit":0}]}' >"$out/bad.json"
if "$fitctl" fit --local --width 100 "$out/bad.json" >"$out/stdout" 2>"$out/err"; then
    echo "FAIL bad document: exit 0"; failures=$((failures + 1))
elif [ "$(wc -l <"$out/err")" -ne 1 ] || ! grep -q 'node 1 (id "bad")' "$out/err"; then
    echo "FAIL bad document: $(cat "$out/err")"; failures=$((failures + 1))
fi

# A document from a pipe, standard input ("-"), /dev/stdin and process substitution (a FIFO)
# lays out as the file does.
card="$root/protocol/examples/first-fit-card.json"
"$fitctl" fit --local --json --width 200 "$card" >"$out/file.json"
cat "$card" | "$fitctl" fit --local --json --width 200 - >"$out/dash.json" 2>"$out/err" || { echo "FAIL fit - : $(cat "$out/err")"; failures=$((failures + 1)); }
"$fitctl" fit --local --json --width 200 /dev/stdin <"$card" >"$out/stdin.json" 2>"$out/err" || { echo "FAIL fit /dev/stdin: $(cat "$out/err")"; failures=$((failures + 1)); }
mkfifo "$out/fifo"
cat "$card" >"$out/fifo" &
"$fitctl" fit --local --json --width 200 "$out/fifo" >"$out/fifo.json" 2>"$out/err" || { echo "FAIL fit FIFO: $(cat "$out/err")"; failures=$((failures + 1)); }
wait
for form in dash stdin fifo; do
    cmp -s "$out/file.json" "$out/$form.json" || { echo "FAIL fit from $form differs from the file's"; failures=$((failures + 1)); }
done
# Not JSON: the line and column of the fault, one line.
printf '{"nodes": [\n  {"id": "root", "kind": "vstack"},\n  {"id": "t", "parent": "root" "kind": "text"}\n]}\n' >"$out/syntax.json"
if "$fitctl" fit --local --width 100 "$out/syntax.json" >"$out/stdout" 2>"$out/err"; then
    echo "FAIL syntax error: exit 0"; failures=$((failures + 1))
elif ! grep -q "syntax.json:3:32: expected ',' or '}'" "$out/err"; then
    echo "FAIL syntax error: $(cat "$out/err")"; failures=$((failures + 1))
fi
printf '{"nodes": [{"id": "root", "kind": "vstack"}' | "$fitctl" fit --local --width 100 - >"$out/stdout" 2>"$out/err" && failures=$((failures + 1))
grep -q "standard input:1:44: expected ',' or ']', found end of text" "$out/err" || { echo "FAIL truncated on stdin: $(cat "$out/err")"; failures=$((failures + 1)); }

# Widths past Int.max are printed and drawn, not trapped on (the table's titles and the
# terminal drawing converted them to Int); spacer-rows grows with the width it is given.
for document in first-fit-card spacer-rows; do
    for width in 1e19 1e300; do
        for mode in "" "--render" "--render --cells"; do
            # shellcheck disable=SC2086
            if ! "$fitctl" fit --local --width "$width" $mode "$root/protocol/examples/$document.json" >"$out/stdout" 2>"$out/err"; then
                echo "FAIL $document --width $width $mode: $(head -c 300 "$out/err")"; failures=$((failures + 1))
            fi
        done
    done
done

# --label-sizes lays texts out at a GtkLabel's whole-pixel size: two labels of "ab" in DejaVu
# Sans 9.7 (16.14 px each) need 34 px side by side, not 32.27; --text-scale takes the fonts at
# that scale whatever the user's, and a scale out of 0.25–4 is a usage error.
cat >"$out/two.json" <<'JSON'
{"version":1,"root":{"id":"row","kind":"firstFit","children":[
 {"id":"h","kind":"hstack","spacing":0,"children":[{"id":"a","kind":"text","text":"ab","font":"DejaVu Sans 9.7"},{"id":"b","kind":"text","text":"ab","font":"DejaVu Sans 9.7"}]},
 {"id":"v","kind":"vstack","children":[{"id":"c","kind":"text","text":"ab","font":"DejaVu Sans 9.7"}]}]}}
JSON
flip() {  # flip ARGS...: where the row's first candidate starts to fit, exactly
    "$fitctl" fit --local --breakpoints 0:100 --json "$@" "$out/two.json" \
        | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["breakpoints"]["decisions"]["row"][-1]["exact_from"])'
}
checked=$((checked + 3))
[ "$(flip)" = "32.271484375" ] || { echo "FAIL unrounded flip: $(flip)"; failures=$((failures + 1)); }
[ "$(flip --label-sizes)" = "34" ] || { echo "FAIL --label-sizes flip: $(flip --label-sizes)"; failures=$((failures + 1)); }
# Twice the font size, about twice as wide (hinting aside): well past 60 px.
/usr/bin/python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 60 else 1)' "$(flip --text-scale 2)" \
    || { echo "FAIL --text-scale 2 left the flip at $(flip --text-scale 2)"; failures=$((failures + 1)); }
if "$fitctl" fit --local --text-scale 9 "$out/two.json" >"$out/stdout" 2>"$out/err" || ! grep -q "text-scale 9.0: 9.0 must be within 0.25…4.0" "$out/err"; then
    echo "FAIL --text-scale 9: $(cat "$out/err")"; failures=$((failures + 1))
fi

echo "layout_cli: $checked layouts checked, $failures failures"
[ "$failures" -eq 0 ]
