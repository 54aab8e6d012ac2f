#!/usr/bin/env bash
# GNOME's settings through the XDG desktop portal, against a fake portal on the private bus
# (scale_client.py portal: org.freedesktop.portal.Settings ReadOne/Read/ReadAll and
# SettingChanged on org.freedesktop.portal.Desktop): text-scaling-factor 1.5 gives TextScale
# 1.5 from gnome when neither fitd nor fontconfig sets one; a SettingChanged to 1.25 is
# followed; the portal leaving the bus falls back to the default; an old portal without
# ReadOne is read with Read; a scale of 1e-300 is passed over; fontconfig wins over the
# desktop. See scale-lib.bash.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scale-lib.bash"
if [ -z "${FITD_SCALE_INNER:-}" ]; then scale_outer "${BASH_SOURCE[0]}"; exit; fi
scale_inner_setup

start_portal() {  # start_portal FACTOR FONT: background fake portal, waits until it owns the name
  $client portal "$@" >"$T/portal.out" & portal_pid=$!; background+=("$portal_pid")
  for _ in $(seq 50); do grep -q ready "$T/portal.out" 2>/dev/null && return 0; sleep 0.1; done
  fail "the fake portal did not start"
}

start_portal 1.5 "Noto Sans 10"
props=$($client props)
check "TextScale 1.5 from gnome ($(json "$props" 'v["TextScale"], v["TextScaleSource"]'))" test "$(json "$props" 'v["TextScale"], v["TextScaleSource"]')" = "1.5 gnome"
check "UIFont from font-name" test "$(json "$props" 'v["UIFont"]')" = "Noto Sans 10"
check "category accessibilityMedium" test "$(json "$props" 'v["SizeCategory"]')" = accessibilityMedium
check "body is Noto Sans at 28 × 10/17 pt" test "$(json "$($client styles)" '[s["font"] for s in v if s["style"] == "body"][0]')" = "Noto Sans 16.47"

rm -f "$T/signals" "$T/signals.ready"
$client listen "$T/signals" 30 & background+=($!)
for _ in $(seq 50); do [ -e "$T/signals.ready" ] && break; sleep 0.1; done
kill -USR1 "$portal_pid"
check "SettingChanged to 1.25 is followed" $client wait TextScale 1.25 5
for _ in $(seq 20); do [ -s "$T/signals" ] && break; sleep 0.1; done
check "GenerationChanged says desktop and text-scale" grep -qE " desktop,text-scale$| text-scale,desktop$" "$T/signals"

kill "$portal_pid"; wait "$portal_pid" 2>/dev/null
check "the portal left the bus: back to 1 from default" $client wait TextScaleSource default 5
check "and the UI font is GTK's default again" test "$(json "$($client props)" 'v["UIFont"], v["UIFontSource"]')" = "Sans 10 default"

FAKE_PORTAL_OLD=1 start_portal 1.75
check "a portal without ReadOne is read with Read: 1.75" $client wait TextScale 1.75 5
check "no spam: at most one line about the missing portal" test "$(grep -c 'not on the bus' "$T/bus.log")" -le 1

# A text-scaling-factor outside 0.25…4 is passed over with a warning; the font still counts.
kill "$portal_pid"; wait "$portal_pid" 2>/dev/null
start_portal 1e-300 "Noto Sans 10"
check "the portal is read again (UIFont from it)" $client wait UIFont "Noto Sans 10" 5
check "its scale of 1e-300 is passed over: 1 from default" test "$(json "$($client props)" 'v["TextScale"], v["TextScaleSource"]')" = "1.0 default"
check "a warning names the source and the value" grep -q "gnome desktop settings: text-scaling-factor gives a text scale of 1e-300" "$T/bus.log"

mkdir -p "$XDG_CONFIG_HOME/fontconfig"
cat >"$XDG_CONFIG_HOME/fontconfig/fonts.conf" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><match target="pattern"><edit name="dpi" mode="assign"><double>108</double></edit></match></fontconfig>
XML
check "fontconfig (dpi 108) wins over the desktop" $client wait TextScale 1.125 5
check "source fontconfig" test "$(json "$($client props)" 'v["TextScaleSource"]')" = fontconfig

scale_finish
