#!/usr/bin/env bash
# FitDBusClient, the Swift client without the engine: its example
# (clients/swift/Example) links libdbus and no HarfBuzz, fontconfig, ICU, cairo or FreeType;
# on a bus without fitd it fails with "not available"; against the built fitd on a private
# bus it measures and lays out at the user's text size by default (the same widths as fitctl),
# follows a new text scale, and hears GenerationChanged. The example on the documentation's
# landing page (FitDBusClient.docc) compiles against the built module.
source "$(dirname "$0")/lib.bash"
EXAMPLE=${FIT_SWIFT_EXAMPLE:-$ROOT/.build/debug/fit-swift-example}
[ -x "$EXAMPLE" ] || fail "no $EXAMPLE (swift build first, or set FIT_SWIFT_EXAMPLE)"
# The C libraries of the engine and of pictures: none may be linked, directly or through
# another library (ldd lists both).
engine_libs='lib(harfbuzz|fontconfig|freetype|icu[a-z0-9]*|cairo|thai|png16|z|xcb|Foundation[A-Za-z]*)\.so'
if [ -z "${E2E_INNER:-}" ]; then
  needed=$(readelf -d "$EXAMPLE" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  [[ " $needed" == *" libdbus-1.so"* ]] || fail "the example does not link libdbus: $needed"
  if echo "$needed" | tr ' ' '\n' | grep -Eq "^$engine_libs"; then fail "the example links the engine: $needed"; fi
  if ldd "$EXAMPLE" | grep -Eq "$engine_libs"; then fail "the example loads the engine: $(ldd "$EXAMPLE" | grep -E "$engine_libs")"; fi
  non_swift=$(echo "$needed" | tr ' ' '\n' | grep -v '^libswift' | grep -v '^$' | tr '\n' ' ')
  ok "fit-swift-example needs $non_swift and the Swift runtime only"
  # No daemon to be had: a bus without the service file.
  status=0; out=$("$ROOT/scripts/private-bus" --no-service -- "$EXAMPLE" 2>&1) || status=$?
  assert_eq "$status" 1 "exit status on a bus without fitd"
  [[ $out == *"fitd is not available"* ]] || fail "on a bus without fitd: $out"
  ok "a bus without org.fitd.Fit1: $(echo "$out" | grep -m1 "^fit-swift-example")"
  # The landing page's first Swift block, type-checked as a program's main.swift.
  snippet=$(mktemp -d)
  awk '/^```swift$/ { n++; if (n == 1) { f = 1; next } } /^```$/ { f = 0 } f' \
    Sources/FitDBusClient/FitDBusClient.docc/FitDBusClient.md >"$snippet/main.swift"
  [ -s "$snippet/main.swift" ] || fail "no Swift example on FitDBusClient.docc's landing page"
  out=$(swiftc -typecheck -I "$(dirname "$EXAMPLE")/Modules" $(pkg-config --cflags-only-I dbus-1 | sed 's/-I/-Xcc -I/g') \
    -Xcc -fmodule-map-file="$ROOT/Sources/CDBus/module.modulemap" "$snippet/main.swift" 2>&1) \
    || { rm -rf "$snippet"; fail "the documentation's example does not compile: $out"; }
  ok "the documentation's example ($(wc -l <"$snippet/main.swift") lines) compiles"
  rm -rf "$snippet"
fi
on_private_bus "$@"
work=$(mktemp -d); trap 'kill "${watcher:-}" 2>/dev/null || true; rm -rf "$work"' EXIT

field() { sed -n "s/^$1 .*$2=\([^ ]*\).*/\1/p" "$3"; }
"$EXAMPLE" 250 >"$work/one" 2>&1 || fail "the example at scale 1: $(cat "$work/one")"
width=$(field measure width "$work/one")
# fitctl asks the same daemon with the same defaults (the user's text scale).
expected=$("$FITCTL" measure "Save changes" --font body --json | json_get 'd["width"]')
"$PY" -c "import sys; a,b=map(float,sys.argv[1:]); sys.exit(abs(a-b) > 1e-9)" "$width" "$expected" \
  || fail "measure width $width, fitctl's $expected"
assert_eq "$(field text-scale factor "$work/one")" 1.0 "text scale on an empty configuration"
assert_eq "$(field layout chosen "$work/one")" hstack "ViewThatFits at 250 px, scale 1"
ok "at scale 1: $(tr '\n' ' ' <"$work/one")"

# The user's text size changes; the client sends nothing new, the daemon applies it.
"$FITCTL" scale set 2 >/dev/null 2>&1
"$EXAMPLE" 250 >"$work/two" 2>&1 || fail "the example at scale 2: $(cat "$work/two")"
assert_eq "$(field text-scale factor "$work/two")" 2.0 "text scale after fitctl scale set 2"
wider=$(field measure width "$work/two")
"$PY" -c "import sys; a,b=map(float,sys.argv[1:]); sys.exit(not 1.8 < b / a < 2.2)" "$width" "$wider" \
  || fail "at scale 2 the label is $wider px, at 1 $width px: the user's text scale was not applied"
expected=$("$FITCTL" measure "Save changes" --font body --json | json_get 'd["width"]')
"$PY" -c "import sys; a,b=map(float,sys.argv[1:]); sys.exit(abs(a-b) > 1e-9)" "$wider" "$expected" \
  || fail "measure width at scale 2 $wider, fitctl's $expected"
assert_eq "$(field layout chosen "$work/two")" vstack "ViewThatFits at 250 px, scale 2 (the row no longer fits)"
ok "at scale 2: $(tr '\n' ' ' <"$work/two")"

# GenerationChanged reaches the client's stream.
"$EXAMPLE" --watch 250 >"$work/watch" 2>&1 & watcher=$!
for _ in $(seq 100); do grep -q '^watching' "$work/watch" && break; sleep 0.1; done
grep -q '^watching' "$work/watch" || fail "the watcher did not subscribe: $(cat "$work/watch")"
"$FITCTL" scale reset >/dev/null
wait "$watcher" || fail "the watcher: $(cat "$work/watch")"
grep -q '^changed generation=[0-9]* reasons=.*text-scale' "$work/watch" || fail "no GenerationChanged: $(cat "$work/watch")"
ok "$(grep '^changed' "$work/watch")"
