#!/usr/bin/env bash
# Text scale, live: a user fontconfig file written after fitd started (dpi 120) changes
# TextScale to 1.25, the size category, every text style's size and measured widths, and a
# python-dbus client subscribed to GenerationChanged hears it within 3 s; a font installed
# into a watched font directory is used for text that fell back before; a flood of 10,000
# touches in a second is at most 2 generation bumps. See scale-lib.bash for the setup.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scale-lib.bash"
if [ -z "${FITD_SCALE_INNER:-}" ]; then scale_outer "${BASH_SOURCE[0]}"; exit; fi
scale_inner_setup

# --- before: activation, defaults
before=$($client props) || { echo "FAIL: fitd did not answer"; exit 1; }
check "TextScale starts at 1 from the default source" test "$(json "$before" 'v["TextScale"], v["TextScaleSource"], v["SizeCategory"]')" = "1.0 default large"
check "UIFont is GTK's default, Sans 10" test "$(json "$before" 'v["UIFont"], v["UIFontSource"]')" = "Sans 10 default"
styles_before=$($client styles)
hello_before=$($client measure "Hello, world" "Sans 10")
body_before=$($client measure "Hello, world" "body")
# body at large in the 10 pt UI font is 17 × 10/17 = 10 pt: the same as the plain description.
check "body at large measures as the UI font" test "$(json "$body_before" 'v["width"]')" = "$(json "$hello_before" 'v["width"]')"

# --- a client subscribed to GenerationChanged
rm -f "$T/signals" "$T/signals.ready"
$client listen "$T/signals" 30 & background+=($!)
for _ in $(seq 50); do [ -e "$T/signals.ready" ] && break; sleep 0.1; done

# --- a user fontconfig file written now: dpi 120
mkdir -p "$XDG_CONFIG_HOME/fontconfig"
written=$(/usr/bin/python3 -c 'import time; print(f"{time.monotonic():.3f}")')
cat >"$XDG_CONFIG_HOME/fontconfig/fonts.conf" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <match target="pattern"><edit name="dpi" mode="assign"><double>120</double></edit></match>
</fontconfig>
XML
check "TextScale becomes 1.25" $client wait TextScale 1.25 5
after=$($client props)
check "source fontconfig, category xxLarge, Dpi 120" test "$(json "$after" 'v["TextScaleSource"], v["SizeCategory"], v["Dpi"]')" = "fontconfig xxLarge 120.0"
check "the generation went up" test "$(json "$after" 'v["Generation"]')" -gt "$(json "$before" 'v["Generation"]')"
for _ in $(seq 30); do [ -s "$T/signals" ] && break; sleep 0.1; done
if [ -s "$T/signals" ]; then
  read -r at generation reasons <"$T/signals"
  check "GenerationChanged within 3 s ($(/usr/bin/python3 -c "print(round($at - $written, 2))") s, reasons $reasons)" \
    /usr/bin/python3 -c "import sys; sys.exit(0 if $at - $written < 3 else 1)"
  check "reasons name fontconfig and text-scale" test "$(echo "$reasons" | tr ',' '\n' | grep -cE '^(fontconfig|text-scale)$')" -eq 2
else
  fail "no GenerationChanged received"
fi
styles_after=$($client styles)
check "every style's size changed" /usr/bin/python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
sys.exit(0 if len(a) == 11 and all(x["point_size"] != y["point_size"] for x, y in zip(a, b)) else 1)' "$styles_before" "$styles_after"
check "body at xxLarge is 21 × 10/17 pt" test "$(json "$styles_after" '[s["point_size"] for s in v if s["style"] == "body"][0]')" = "12.35"
hello_after=$($client measure "Hello, world" "Sans 10")
check "\"Hello, world\" is 1.25 × as wide (±1 px): $(json "$hello_before" 'v["width"]') → $(json "$hello_after" 'v["width"]')" \
  /usr/bin/python3 -c "import sys; sys.exit(0 if abs($(json "$hello_after" 'v["width"]') - 1.25 * $(json "$hello_before" 'v["width"]')) <= 1 else 1)"
check "results carry the new generation" test "$(json "$hello_after" 'v["generation"]')" = "$(json "$after" 'v["Generation"]')"
body_after=$($client measure "Hello, world" "body")
# A style is sized by its category, not scaled again: 12.35/10 of the 10 pt width, not 1.25 × that.
check "body measures at its table size, not × the scale again" \
  /usr/bin/python3 -c "import sys; w0=$(json "$body_before" 'v["width"]'); w=$(json "$body_after" 'v["width"]'); sys.exit(0 if abs(w - w0 * 12.35 / 10) <= 1 else 1)"

# --- a font installed into a watched font directory
cherokee="ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ"
fallback=$($client measure "$cherokee" "DejaVu Sans 12")
check "before: no font covers Cherokee (fonts $(json "$fallback" 'v["fonts"]'))" test "$(json "$fallback" '"Noto Sans Cherokee" in v["fonts"]')" = False
generation=$($client get Generation)
cp /usr/share/fonts/truetype/noto/NotoSansCherokee-Regular.ttf "$T/fonts/"
for _ in $(seq 50); do [ "$($client get Generation)" -gt "$generation" ] && break; sleep 0.1; done
installed=$($client measure "$cherokee" "DejaVu Sans 12")
check "after: the new font draws it (fonts $(json "$installed" 'v["fonts"]'))" test "$(json "$installed" '"Noto Sans Cherokee" in v["fonts"]')" = True
check "and the width changed" test "$(json "$installed" 'v["width"]')" != "$(json "$fallback" 'v["width"]')"
check "reasons of that change include fonts" grep -q "fonts" <(tail -n 1 "$T/signals")

# --- a flood: 10,000 touches of a watched file in a second
sleep 1.5
generation=$($client get Generation)
$client flood "$XDG_CONFIG_HOME/fontconfig/fonts.conf" 10000 1
sleep 3
bumps=$(( $($client get Generation) - generation ))
check "10,000 touches → $bumps generation bump(s) (1…2)" test "$bumps" -ge 1 -a "$bumps" -le 2
check "the scale survived the flood" $client wait TextScale 1.25 1

scale_finish
