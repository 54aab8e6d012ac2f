#!/usr/bin/env bash
# D-Bus activation for real: the first call starts fitd, every method and property answers
# with the expected values, and after kill -9 the next call starts a new daemon that answers
# the same. Clients: busctl and gdbus.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

has_owner && fail "org.fitd.Fit1 has an owner before the first call"

# "Hello, world" in DejaVu Sans 12 (16 px) is 94.78125 px wide: Pango's figure (Tests/oracle).
width=$(bcall Measure 'ssa{sv}' "Hello, world" "DejaVu Sans 12" 0 | json_get 'repr(d["data"][0][0])')
assert_eq "$width" 94.78125 "Measure width"
pid=$(daemon_pid)
[ -n "$pid" ] || fail "no fitd owns the name after the first call"
ok "first call activated fitd (pid $pid), width $width"

# A batch with one bad entry: that entry alone carries the error.
out=$(gdbus call --session -d "$BUS" -o "$OBJ" -m "$IFACE.MeasureBatch" \
  "[('Hello, world', 'DejaVu Sans 12', @a{sv} {}), ('bad', 'DejaVu Sans 12', {'max_width': <-1.0>}), ('Hello, world', 'DejaVu Sans 12', @a{sv} {})]")
echo "$out" | "$PY" -c '
import re, sys
text = sys.stdin.read()
entries = re.findall(r"\((true|false), '"'"'([^'"'"']*)'"'"', '"'"'([^'"'"']*)'"'"', \(([-0-9.e]+),", text)
assert len(entries) == 3, f"expected 3 results, got {len(entries)}: {text[:300]}"
(ok0, n0, _, w0), (ok1, n1, m1, _), (ok2, _, _, w2) = entries
assert ok0 == "true" and n0 == "" and float(w0) == 94.78125, entries[0]
assert ok1 == "false" and n1 == "org.fitd.Fit1.Error.InvalidArgument" and m1, entries[1]
assert ok2 == "true" and float(w2) == 94.78125, entries[2]
' || fail "MeasureBatch with a bad entry: $out"
ok "gdbus MeasureBatch: 3 results, the bad one InvalidArgument"

font=$(bcall ResolveFont s "DejaVu Sans Bold 12" | json_get 'd["data"][0]')
echo "$font" | "$PY" -c '
import ast, sys
d, family, style, weight, file, px, ascent, descent, matched, fallbacks = ast.literal_eval(sys.stdin.read())
assert family == "DejaVu Sans" and style == "Bold" and weight == 700, (family, style, weight)
assert file.endswith("DejaVuSans-Bold.ttf"), file
assert px == 16 and matched is True and ascent > 0 and descent > 0, (px, matched, ascent, descent)
assert len(fallbacks) > 0, fallbacks
' || fail "ResolveFont: $font"
ok "ResolveFont DejaVu Sans Bold 12: Bold, weight 700, 16 px, DejaVuSans-Bold.ttf"

stats=$(bcall GetStats)
served=$(echo "$stats" | json_get 'd["data"][1]')
uptime=$(echo "$stats" | json_get 'd["data"][2]')
caches=$(echo "$stats" | json_get '",".join(c[0] for c in d["data"][0])')
[ "$served" -ge 5 ] || fail "GetStats: requests_served $served, expected at least 5 (1 + a batch of 3 + ResolveFont)"
"$PY" -c "import sys; sys.exit(0 if 0 < $uptime < 60 else 1)" || fail "GetStats: uptime $uptime s"
[ -n "$caches" ] || fail "GetStats: no caches"
ok "GetStats: $served requests served, up $uptime s, caches $caches"

version=$(busctl --user get-property "$BUS" "$OBJ" "$IFACE" Version)
expected=$(tr -d '\n' <VERSION)  # the one place the version is set (scripts/sync-version)
assert_eq "$version" "s \"$expected\"" "Version property"
generation=$(busctl --user get-property "$BUS" "$OBJ" "$IFACE" Generation)
assert_eq "$generation" "t 1" "Generation property"
ok "properties: Version $version, Generation $generation"

# kill -9 between calls: the bus notices, and the next call activates a new daemon.
kill -9 "$pid"
wait_gone "$pid" || fail "fitd $pid survived kill -9"
for _ in $(seq 50); do has_owner || break; sleep 0.05; done
has_owner && fail "the name still has an owner after kill -9"
width=$(bcall Measure 'ssa{sv}' "Hello, world" "DejaVu Sans 12" 0 | json_get 'repr(d["data"][0][0])')
assert_eq "$width" 94.78125 "Measure width after kill -9"
new_pid=$(daemon_pid)
[ -n "$new_pid" ] && [ "$new_pid" != "$pid" ] || fail "no new daemon after kill -9 (pid '$new_pid', old $pid)"
assert_eq "$(busctl --user get-property "$BUS" "$OBJ" "$IFACE" Generation)" "t 1" "Generation after restart"
ok "after kill -9 of $pid the next call activated $new_pid and answered $width"
