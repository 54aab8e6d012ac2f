#!/usr/bin/env bash
# The `metrics` option end to end: over D-Bus (Measure, MeasureBatch, Layout) and
# through fitctl (--metrics, the batch field "metrics"), GTK 3 figures are whole pixels (cairo
# hint metrics on, rounded glyph positions; Pango 1.50.12: "Hello World", DejaVu Sans 10 →
# 75 × 17, baseline 13, against GTK 4's 76.240234375 × 15.5205078125), both modes are served
# by one daemon at once (the mode is in every cache key), and a wrong word is InvalidArgument.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

measure() { bcall Measure 'ssa{sv}' "Hello World" "DejaVu Sans 10" "$@" | json_get 'repr((d["data"][0][0], d["data"][0][1], d["data"][0][2]))'; }
assert_eq "$(measure 0)" "(76.240234375, 15.5205078125, 12.3759765625)" "Measure, GTK 4 (default)"
assert_eq "$(measure 1 metrics s gtk3)" "(75.0, 17.0, 13.0)" "Measure, metrics gtk3"
assert_eq "$(measure 1 metrics s gtk4)" "(76.240234375, 15.5205078125, 12.3759765625)" "Measure, metrics gtk4 after gtk3"
ok "Measure: gtk4 76.24 x 15.52, gtk3 75 x 17 (baseline 13), one daemon"

err=$(bcall Measure 'ssa{sv}' "Hello World" "DejaVu Sans 10" 1 metrics s GTK3 2>&1 || true)
# busctl shows the message, not the error name: InvalidArgument's "invalid NAME: REASON".
echo "$err" | grep -q 'invalid metrics: "GTK3" is not a toolkit' || fail "metrics GTK3 is not InvalidArgument naming the option: $err"
ok "metrics \"GTK3\": InvalidArgument naming the option"

out=$(printf '%s\n' '{"text":"Hello World","font":"DejaVu Sans 10","metrics":"gtk3"}' \
  '{"text":"Hello World","font":"DejaVu Sans 10"}' | "$FITCTL" measure --batch)
assert_eq "$(echo "$out" | sed -n 1p | json_get 'repr((d["width"], d["height"]))')" "(75, 17)" "fitctl batch, metrics gtk3"
assert_eq "$(echo "$out" | sed -n 2p | json_get 'repr(d["width"])')" "76.240234375" "fitctl batch, default"
assert_eq "$("$FITCTL" measure "Hello World" --font "DejaVu Sans 10" --metrics gtk3 --json | json_get 'repr(d["height"])')" "17" "fitctl --metrics gtk3"
"$FITCTL" measure "x" --metrics gtk2 >/dev/null 2>&1 && fail "fitctl --metrics gtk2 was accepted"
ok "fitctl: --metrics gtk3 and the batch field \"metrics\" (MeasureBatch)"

layout() {
  # "--": the parent index -1 is not an option of busctl's.
  busctl --user --json=short -- call "$BUS" "$OBJ" "$IFACE" Layout 'a(ssia{sv})(bdbd)a{sv}' 1 root text -1 2 text s "Hello World" font s "DejaVu Sans 10" \
    false 0 false 0 "$@" | json_get 'repr(d["data"][0])'
}
assert_eq "$(layout 0)" "[76.240234375, 15.5205078125]" "Layout, GTK 4"
assert_eq "$(layout 1 metrics s gtk3)" "[75.0, 17.0]" "Layout, metrics gtk3"
ok "Layout: metrics gtk3 measures every text as GTK 3 does"

# A GtkLabel's size request (MeasureLabel), with width-chars: a character of DejaVu Sans 10 is
# its rounded digit width, 8 px (Pango's approximate digit width 8192 units), so 20 of them are
# 160 px; the same through fitctl --widget and a batch line.
label() { bcall MeasureLabel 'ssa{sv}' "Hello World" "DejaVu Sans 10" "$@" | json_get 'repr(d["data"][0][:5])'; }
assert_eq "$(label 0)" "[77, 77, 16, 16, 13]" "MeasureLabel, plain"
assert_eq "$(label 1 width_chars u 20)" "[160, 160, 16, 16, 13]" "MeasureLabel, width_chars 20"
err=$(bcall MeasureLabel 'ssa{sv}' "x" "" 1 width_chars u 10001 2>&1 || true)
echo "$err" | grep -q 'width_chars' || fail "width_chars 10001 is not refused naming the option: $err"
assert_eq "$("$FITCTL" measure "Hello World" --font "DejaVu Sans 10" --widget --width-chars 20 --json | json_get 'repr(d["widget"]["natural_width"])')" "160" "fitctl --widget --width-chars 20"
assert_eq "$(echo '{"text":"Hello World","font":"DejaVu Sans 10","widget":true,"width_chars":20}' | "$FITCTL" measure --batch | json_get 'repr(d["widget"]["minimum_width"])')" "160" "batch width_chars"
"$FITCTL" measure "x" --width-chars 3 >/dev/null 2>&1 && fail "--width-chars without --widget was accepted"
ok "MeasureLabel and fitctl --widget: width_chars counts Pango's approximate character width"
# The user's gtk-hint-font-metrics, read from settings.ini as GTK reads it and followed live:
# GTK 4.8 (named by metrics) follows it — hinted heights, GTK 3's 17 px —, GTK 4.16 (the
# default make test pins) does not; the change is a new generation all the same, since it
# changes answers no property shows.
prop() { busctl --user --json=short get-property "$BUS" "$OBJ" "$IFACE" "$1" | json_get 'd["data"]'; }
settings_ini() {
  local before
  before=$(prop Generation)
  mkdir -p "$XDG_CONFIG_HOME/gtk-4.0"
  printf '[Settings]\n%s\n' "$1" >"$XDG_CONFIG_HOME/gtk-4.0/settings.ini"
  for _ in $(seq 50); do [ "$(prop Generation)" != "$before" ] && return 0; sleep 0.1; done
  fail "no new generation 5 s after settings.ini said $1"
}
assert_eq "$(measure 1 metrics s gtk-4.8)" "(75.0, 15.5205078125, 12.3759765625)" "Measure, gtk-4.8 before settings.ini"
settings_ini "gtk-hint-font-metrics=true"
assert_eq "$(prop ToolkitSettings)" "" "ToolkitSettings of GTK 4.16, which does not read it"
assert_eq "$(measure 0)" "(76.240234375, 15.5205078125, 12.3759765625)" "Measure, gtk-4.16 with gtk-hint-font-metrics=true"
assert_eq "$(measure 1 metrics s gtk-4.8)" "(75.0, 17.0, 13.0)" "Measure, gtk-4.8 with gtk-hint-font-metrics=true"
assert_eq "$(layout 1 metrics s gtk-4.8)" "[75.0, 17.0]" "Layout, gtk-4.8 with gtk-hint-font-metrics=true"
settings_ini "gtk-hint-font-metrics=false"
assert_eq "$(measure 1 metrics s gtk-4.8)" "(75.0, 15.5205078125, 12.3759765625)" "Measure, gtk-4.8 with gtk-hint-font-metrics=false"
ok "settings.ini gtk-hint-font-metrics: followed live by the GTK lines that read it, in Measure and Layout"
