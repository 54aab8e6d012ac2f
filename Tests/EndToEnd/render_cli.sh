#!/usr/bin/env bash
# Pictures of text through the daemon (docs/pictures.md): `fitctl measure --output` with the daemon
# activated on a private bus measures there (no in-process fallback) and draws the same
# picture as --local; --boxes and --theme change it; a bad output path or extension fails
# with one line and a non-zero exit.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
text="Hello 👋 שלום नमस्ते"

"$FITCTL" measure "$text" --font "Noto Sans 14" --json --output "$out/daemon.svg" >"$out/daemon.json" 2>"$out/err"
[ ! -s "$out/err" ] || fail "through the daemon, stderr: $(cat "$out/err")"
"$FITCTL" measure --local "$text" --font "Noto Sans 14" --json --output "$out/local.svg" >"$out/local.json"
cmp -s "$out/daemon.svg" "$out/local.svg" || fail "the daemon's picture differs from --local's"
cmp -s "$out/daemon.json" "$out/local.json" || fail "the daemon's measurement differs from --local's"
grep -q '<use xlink:href="#f' "$out/daemon.svg" || fail "no glyphs in the SVG"
grep -q 'data:image/png;base64,' "$out/daemon.svg" || fail "no emoji image in the SVG"
ok "through the daemon: the same SVG and measurement as --local"

"$FITCTL" measure "$text" --font "Noto Sans 14" --boxes --theme dark --output "$out/dark.png" >/dev/null
[ "$(head -c 8 "$out/dark.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "dark.png is not a PNG"
"$FITCTL" measure "$text" --font "Noto Sans 14" --boxes --theme dark --output "$out/dark.svg" >/dev/null
grep -q '<line ' "$out/dark.svg" || fail "--boxes drew no baseline"
grep -q 'fill="#1f1f21"' "$out/dark.svg" || fail "--theme dark has not the dark background"
ok "--boxes and --theme dark, PNG and SVG"

for bad in "$out/x.gif" "$out/x" "/nonexistent-dir/x.png" "/nonexistent-dir/x.svg"; do
  status=0
  "$FITCTL" measure "x" --output "$bad" >/dev/null 2>"$out/err" || status=$?
  [ "$status" -ne 0 ] || fail "--output $bad succeeded"
  [ "$(wc -l <"$out/err")" -le 3 ] && grep -q "$bad" "$out/err" || fail "--output $bad: $(cat "$out/err")"
done
status=0
"$FITCTL" measure "x" --boxes >/dev/null 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "--boxes without --output was accepted"
ok "bad output paths and extensions: one message naming the path, non-zero exit"

# Every picture is written the same way: "x.svg/" names a directory, not x.svg; a link is
# written through (as cairo and pango-view do), not replaced; a write error is the system's.
for ext in svg png; do
  status=0
  "$FITCTL" measure "x" --output "$out/slash.$ext/" >/dev/null 2>"$out/err" || status=$?
  [ "$status" -eq 1 ] && grep -q "Is a directory" "$out/err" && [ ! -e "$out/slash.$ext" ] \
    || fail "--output slash.$ext/: status $status, $(cat "$out/err")"
  ln -s "$out/target.$ext" "$out/link.$ext"
  "$FITCTL" measure "x" --output "$out/link.$ext" >/dev/null
  [ -L "$out/link.$ext" ] && [ -s "$out/target.$ext" ] || fail "--output link.$ext replaced the link"
  ln -s /dev/full "$out/full.$ext"
  status=0
  "$FITCTL" measure "x" --output "$out/full.$ext" >/dev/null 2>"$out/err" || status=$?
  [ "$status" -eq 1 ] && grep -q "No space left on device" "$out/err" || fail "--output to /dev/full: status $status, $(cat "$out/err")"
done
ok "a path ending in / is refused, a link written through, a full disk reported"
