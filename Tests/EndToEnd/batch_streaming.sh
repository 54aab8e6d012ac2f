#!/usr/bin/env bash
# fitctl measure --batch streams: a request sent down a pipe that stays open is
# answered before the input ends, through the daemon and --local; a long batch comes out
# whole, in order, ids echoed exactly; an over-long line is refused by its length without
# being held in memory; --json of every command is snake_case (one naming convention).
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"
[ -x "$FITCTL" ] || fail "no fitctl at $FITCTL"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# --- answers before EOF: one line in, its result out while stdin stays open; then another.
for mode in daemon --local; do
  args=(measure --batch)
  [ "$mode" = --local ] && args+=(--local)
  coproc BATCH { "$FITCTL" "${args[@]}" 2>"$work/err"; }
  printf '%s\n' '{"id":"first","text":"Hello","font":"DejaVu Sans 12"}' >&"${BATCH[1]}"
  IFS= read -r -t 20 -u "${BATCH[0]}" first || fail "$mode: no result for the first line while stdin is open"
  assert_eq "$(json_get 'd["id"], d["width"]' <<<"$first")" "('first', 40.5546875)" "$mode: first result"
  printf '%s\n' '{"id":2,"text":"x","font":"Nope Nope 10"}' >&"${BATCH[1]}"
  IFS= read -r -t 20 -u "${BATCH[0]}" second || fail "$mode: no result for the second line while stdin is open"
  assert_eq "$(json_get 'd["id"], d["substituted"]' <<<"$second")" "(2, True)" "$mode: second result"
  exec {BATCH[1]}>&-
  status=0; wait "$BATCH_PID" || status=$?
  assert_eq "$status" 0 "$mode: exit status after stdin closed"
done
ok "measure --batch (daemon and --local) answers each line while its input stays open"

# --- a burst of 600 lines (a chunk and more, pipelined: one chunk measures while the next is
# read), then silence: all 600 answered while stdin stays open; then half a line: the lines
# before it are answered without waiting for its rest.
for mode in daemon --local; do
  args=(measure --batch)
  [ "$mode" = --local ] && args+=(--local)
  coproc BATCH { "$FITCTL" "${args[@]}" 2>"$work/err"; }
  "$PY" -c 'import json; print("\n".join(json.dumps({"id": i, "text": f"burst line {i}", "font": "DejaVu Sans 10"}) for i in range(600)))' >&"${BATCH[1]}"
  got=0
  while [ $got -lt 600 ] && IFS= read -r -t 30 -u "${BATCH[0]}" line; do got=$((got + 1)); done
  assert_eq "$got" 600 "$mode: answers to a burst of 600 while stdin stays open"
  printf '%s\n%s' '{"id":"whole","text":"a","font":"DejaVu Sans 10"}' '{"id":"half","text":"b' >&"${BATCH[1]}"
  IFS= read -r -t 20 -u "${BATCH[0]}" whole || fail "$mode: the line before half a line was not answered"
  assert_eq "$(json_get 'd["id"]' <<<"$whole")" whole "$mode: the whole line's answer"
  printf '%s\n' '","font":"DejaVu Sans 10"}' >&"${BATCH[1]}"
  IFS= read -r -t 20 -u "${BATCH[0]}" half || fail "$mode: the completed line was not answered"
  assert_eq "$(json_get 'd["id"]' <<<"$half")" half "$mode: the completed line's answer"
  exec {BATCH[1]}>&-
  wait "$BATCH_PID" || true
done
ok "a burst of 600 lines is answered while stdin stays open; half a line holds no answers back"

# --- 1,500 lines (three chunks of 512): all out, in order, ids exact (a big integer, a
# string, an object), a bad line in the middle with exit 2.
"$PY" - "$work/in" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for i in range(1500):
        if i == 700:
            f.write('{"id": 700, "text": 5}\n')
        elif i == 701:
            f.write('{"id": 12345678901234567890123, "text": "big id"}\n')
        elif i == 702:
            f.write('{"id": {"k": ["v", 1.5]}, "text": "object id"}\n')
        else:
            f.write(json.dumps({"id": i, "text": f"line {i} שלום 日本", "font": "DejaVu Sans 10"}) + "\n")
PY
status=0; "$FITCTL" measure --batch --local <"$work/in" >"$work/out" 2>"$work/err" || status=$?
assert_eq "$status" 2 "exit status of a batch with one bad line"
"$PY" - "$work/out" <<'PY' || fail "long batch output"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 1500, len(rows)
ids = [r.get("id") for r in rows]
expected = list(range(700)) + [700, 12345678901234567890123, {"k": ["v", 1.5]}] + list(range(703, 1500))
assert ids == expected, [(i, a, b) for i, (a, b) in enumerate(zip(ids, expected)) if a != b][:3]
assert rows[700]["error"] == "invalid text: missing, or not a string", rows[700]
assert all("error" not in r and r["width"] > 0 for i, r in enumerate(rows) if i != 700)
# The documented key order (MetricsJSON): id first, then the metrics.
assert list(rows[0]) == ["id", "width", "height", "baseline", "lines", "ellipsized", "truncated", "unit", "fonts", "substituted"], list(rows[0])
PY
ok "1,500 lines: all results in order, ids echoed exactly, the bad line's error, exit 2"

# --- malformed lines: each its own error, exact; the lines after still measured.
printf '%s\n' '{"text": "a", "text": "b"}' '{"text": "a",}' '[1]' '{"text":"ok","id":"last"}' >"$work/bad"
status=0; "$FITCTL" measure --batch --local <"$work/bad" >"$work/out" 2>"$work/err" || status=$?
assert_eq "$status" 2 "exit status of malformed lines"
assert_eq "$("$PY" -c 'import json,sys; [print(json.loads(l).get("error", json.loads(l).get("id"))) for l in open(sys.argv[1])]' "$work/out")" \
"invalid request: not a JSON object (member \"text\" given twice at byte 14)
invalid request: not a JSON object (expected a member name (a string), found '}' at byte 13)
invalid request: not a JSON object (an array)
last" "errors of malformed lines"
ok "malformed lines: a duplicate member, a trailing comma, an array — each refused saying where"

# --- an id of more than 4 KiB as JSON is refused (512 pending lines of 6 MiB ids would be
# gigabytes); the line's error has no id, and a 4 KiB id is still echoed.
"$PY" - "$work/ids" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    f.write(json.dumps({"id": [0] * 3000, "text": "a"}) + "\n")
    f.write(json.dumps({"id": "x" * 4094, "text": "b"}) + "\n")
PY
status=0; "$FITCTL" measure --batch --local <"$work/ids" >"$work/out" 2>"$work/err" || status=$?
assert_eq "$status" 2 "exit status with an over-long id"
assert_eq "$(head -n 1 "$work/out")" '{"error":"invalid id: 6001 bytes as JSON; the limit is 4096: an id names a request, keep data elsewhere"}' "over-long id"
assert_eq "$(tail -n 1 "$work/out" | json_get 'len(d["id"])')" 4094 "a 4 KiB id is echoed"
# A number keeps its spelling, so a long one is as long.
printf '{"id":0.%s1,"text":"a"}\n' "$(printf '0%.0s' $(seq 4998))" >"$work/ids"
status=0; "$FITCTL" measure --batch --local <"$work/ids" >"$work/out" 2>"$work/err" || status=$?
assert_eq "$(cat "$work/out")" '{"error":"invalid id: 5001 bytes as JSON; the limit is 4096: an id names a request, keep data elsewhere"}' "an id spelt in 5,001 characters"
# A text over TextLimits.maxTextBytes is refused as its line is read.
"$PY" -c 'import json; print(json.dumps({"id": 7, "text": "a" * (1 << 20 | 1)}))' >"$work/ids"
status=0; "$FITCTL" measure --batch --local <"$work/ids" >"$work/out" 2>"$work/err" || status=$?
assert_eq "$(json_get 'd["id"], d["error"]' <"$work/out")" "(7, 'text is 1048577 bytes of UTF-8; the limit is 1048576 bytes (TextLimits.maxTextBytes): split it into smaller requests')" "a text over 1 MiB"
ok "an id over 4 KiB as JSON (a number's spelling too) is refused without its id; one of 4 KiB is echoed; a text over 1 MiB is refused"

# --- a line over the limit (6 MiB + 4 KiB): refused by its length, the next line measured.
"$PY" - "$work/long" <<'PY'
import sys
limit = (1 << 20) * 6 + 4096
with open(sys.argv[1], "w") as f:
    f.write('{"text": "' + "a" * limit + '"}\n{"text": "after", "id": 1}\n')
PY
status=0; "$FITCTL" measure --batch --local <"$work/long" >"$work/out" 2>"$work/err" || status=$?
assert_eq "$status" 2 "exit status with an over-long line"
assert_eq "$(head -n 1 "$work/out")" '{"error":"invalid request: line is 6295564 bytes; the limit is 6295552"}' "over-long line"
assert_eq "$(tail -n 1 "$work/out" | json_get 'd["id"]')" 1 "the line after the over-long one"
ok "an over-long line is refused with its length; the next is measured"

# --- one naming convention: no camelCase field name in any --json (layout documents, the
# input, keep the schema's names; values such as "firstFit" are not field names).
"$FITCTL" fit protocol/examples/first-fit-card.json --width 320 --breakpoints 100:600 --json >"$work/fit.json"
"$FITCTL" fit protocol/examples/first-fit-card.json --widths 100,320 --json >"$work/fits.json"
"$FITCTL" measure Hello --lines --json >"$work/measure.json"
"$FITCTL" font "DejaVu Sans 12" --json >"$work/font.json"
"$FITCTL" scale show --json >"$work/scale.json"
"$FITCTL" scale categories --json >"$work/categories.json"
"$FITCTL" status --json >"$work/status.json"
"$PY" - "$work"/{fit,fits,measure,font,scale,categories,status}.json <<'PY' || fail "a camelCase field name"
import json, re, sys
def names(value, ids=()):
    if isinstance(value, dict):
        for key, item in value.items():
            # breakpoints' "decisions" is keyed by node id, not by field name.
            if key not in ids:
                yield key
            yield from names(item, ids=set(item) if key == "decisions" and isinstance(item, dict) else ())
    elif isinstance(value, list):
        for item in value:
            yield from names(item)
bad = {(f, k) for f in sys.argv[1:] for k in names(json.load(open(f))) if not re.fullmatch(r"[a-z][a-z0-9_]*", k)}
assert not bad, sorted(bad)
fit = json.load(open(sys.argv[1]))
assert fit["decisions"][0]["node_index"] == 0 and fit["decisions"][0]["candidate_id"] == "row", fit["decisions"]
assert fit["breakpoints"]["root_id"] == "card" and "min_content_width" in fit["breakpoints"], fit["breakpoints"]
assert [n["id"] for n in fit["nodes"] if "first_baseline" in n], fit["nodes"]
PY
ok "--json of fit, measure, font, scale, status: snake_case field names only"
