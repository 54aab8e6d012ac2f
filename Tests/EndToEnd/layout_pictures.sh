#!/usr/bin/env bash
# Pictures of layouts (docs/pictures.md) through the daemon: `fitctl fit --output` takes the layouts
# from the activated fitd and draws them with its own engine. The golden test
# (Tests/render/check_layout_pictures.py): per example document, 2 widths × 2 categories, the
# frames drawn in the SVG are the frames of `fit --json`; every SVG valid SVG 1.1; a PNG as
# large as its SVG, with ink, in the theme asked. Then the bad inputs and their exit codes
# (README "Exit status": 1 a file that cannot be written, 64 usage).
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
doc=protocol/examples/first-fit-card.json

"$PY" Tests/render/check_layout_pictures.py --fitctl "$FITCTL" --out "$out/golden" >"$out/log" 2>&1 \
  || { cat "$out/log" >&2; fail "check_layout_pictures.py"; }
ok "$(tail -n 1 "$out/log") (frames drawn = frames laid out; SVG 1.1; PNG)"

# Through the daemon the picture is the one --local draws (same fonts, scale, UI font here).
"$FITCTL" fit "$doc" --widths 200,320 --categories all --output "$out/daemon.svg" >/dev/null 2>"$out/err"
[ ! -s "$out/err" ] || fail "through the daemon, stderr: $(cat "$out/err")"
"$FITCTL" fit --local "$doc" --widths 200,320 --categories all --output "$out/local.svg" >/dev/null
cmp -s "$out/daemon.svg" "$out/local.svg" || fail "the daemon's layout picture differs from --local's"
[ "$(grep -c '<g class="sheet"' "$out/daemon.svg")" -eq 24 ] || fail "--categories all × 2 widths is not 24 sheets"
ok "--categories all --widths 200,320: 24 sheets, the same SVG as --local"

# The README's pictures (docs/images) are what this build draws (scripts/readme-pictures).
FITCTL=$FITCTL scripts/readme-pictures "$out/readme" >/dev/null
for picture in first-fit-card payment-row-threshold; do
  cmp -s "$out/readme/$picture.svg" "docs/images/$picture.svg" \
    || fail "docs/images/$picture.svg is not what this build draws: run scripts/readme-pictures"
done
ok "docs/images: the README's pictures are up to date"

status() { local s=0; "$@" >/dev/null 2>"$out/err" || s=$?; echo "$s"; }
assert_exit() {  # expected status, what, command…
  local want=$1 what=$2; shift 2
  local got; got=$(status "$@")
  [ "$got" = "$want" ] || fail "$what: exit $got, not $want ($(cat "$out/err"))"
  [ "$(wc -l <"$out/err")" -le 3 ] || fail "$what: more than 3 lines on stderr: $(cat "$out/err")"
}
assert_exit 1 "an unwritable path" "$FITCTL" fit "$doc" --output /nonexistent-dir/x.svg
grep -q "/nonexistent-dir/x.svg" "$out/err" || fail "the unwritable path is not named: $(cat "$out/err")"
assert_exit 1 "an unwritable PNG path" "$FITCTL" fit "$doc" --output /nonexistent-dir/x.png
assert_exit 64 "an unknown extension" "$FITCTL" fit "$doc" --output "$out/x.gif"
grep -q "x.gif" "$out/err" || fail "the bad extension's path is not named"
assert_exit 64 "a bad category" "$FITCTL" fit "$doc" --categories large,xxxLarg --output "$out/x.svg"
grep -q 'did you mean "xxxLarge"' "$out/err" || fail "no suggestion for xxxLarg: $(cat "$out/err")"
assert_exit 64 "--category and --categories" "$FITCTL" fit "$doc" --category large --categories all
assert_exit 64 "--output with --cells" "$FITCTL" fit "$doc" --cells --output "$out/x.svg"
assert_exit 64 "a bad theme" "$FITCTL" fit "$doc" --theme sepia --output "$out/x.svg"
assert_exit 64 "--theme without --output" "$FITCTL" fit "$doc" --theme dark
[ ! -e "$out/x.svg" ] && [ ! -e "$out/x.gif" ] || fail "a refused command wrote a file"
ok "bad paths, extensions, categories, themes: exit 1 or 64, one message, no file"

# The terminal drawing shows what the layout says: at 400 px nothing is truncated, so no "…".
"$FITCTL" fit protocol/examples/exposure-scale-group.json --widths 160,400 --json >"$out/exp.json"
"$PY" -c 'import json,sys; l=json.load(open(sys.argv[1]))["layouts"]; sys.exit(any(n.get("text",{}).get("truncated") for n in l[1]["nodes"]))' "$out/exp.json" \
  || fail "the example is truncated at 400 px: the check below means nothing"
"$FITCTL" fit protocol/examples/exposure-scale-group.json --width 400 --render >"$out/render"
grep -q "f/2.8" "$out/render" && ! grep -q "…" "$out/render" || fail "--render at 400 px: $(cat "$out/render")"
"$FITCTL" fit "$doc" --widths 200,320 --render >"$out/render"
! grep -q "…" "$out/render" || fail "--render of $doc shows … where nothing is truncated: $(cat "$out/render")"
ok "--render: no … where the layout truncates nothing"

# …and where it does, the engine's ellipsized line.
"$FITCTL" fit protocol/examples/exposure-scale-group.json --width 60 --json >"$out/narrow.json"
"$PY" -c 'import json,sys; sys.exit(not json.load(open(sys.argv[1]))["truncated"])' "$out/narrow.json" \
  || fail "exposure-scale-group at 60 px is not truncated: the check below means nothing"
"$FITCTL" fit protocol/examples/exposure-scale-group.json --width 60 --render >"$out/render"
grep -q "…" "$out/render" || fail "--render at 60 px shows no …: $(cat "$out/render")"
ok "--render: … where the layout truncates"

# Cells: whole cells in the result, and the values centred on whole columns.
"$FITCTL" fit protocol/examples/template-cells.json --cells --width 40 --json >"$out/cells.json"
"$PY" -c '
import json, sys
for n in json.load(open(sys.argv[1]))["nodes"]:
    for k, v in n["frame"].items():
        if v != int(v): sys.exit(n["id"] + " " + k + " = " + str(v))' "$out/cells.json" || fail "a frame in cells is not whole cells"
ok "layouts in cells are in whole cells"
