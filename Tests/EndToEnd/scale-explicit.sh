#!/usr/bin/env bash
# The explicit text scale (TextScale Set, ResetTextScale, fitctl scale set/reset): it wins
# over fontconfig, survives a daemon restart (kill -9, re-activation), a corrupt fitd.conf
# leaves the last good value in force and fitd logs why, and 0 / -1 / NaN / 5 are refused
# with org.fitd.Fit1.Error.InvalidArgument. See scale-lib.bash for the setup.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scale-lib.bash"
if [ -z "${FITD_SCALE_INNER:-}" ]; then scale_outer "${BASH_SOURCE[0]}"; exit; fi
scale_inner_setup
fitctl="$FITD_BIN/fitctl"

# fontconfig says 1.25 from the start.
mkdir -p "$XDG_CONFIG_HOME/fontconfig"
cat >"$XDG_CONFIG_HOME/fontconfig/fonts.conf" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><match target="pattern"><edit name="dpi" mode="assign"><double>120</double></edit></match></fontconfig>
XML
check "the daemon's introspection matches protocol/org.fitd.Fit1.xml" $client contract "$root/protocol/org.fitd.Fit1.xml"
check "fontconfig's 1.25 is in force at start" test "$(json "$($client props)" 'v["TextScale"], v["TextScaleSource"]')" = "1.25 fontconfig"

# --- bad values: a named error that states the range; nothing changes
for bad in 0 -1 nan 5 inf; do
  answer=$($client set "$bad" 2>"$T/set.err")
  check "TextScale $bad → InvalidArgument ($(head -c 90 "$T/set.err"))" test "$answer" = org.fitd.Fit1.Error.InvalidArgument
done
check "the message names the range" grep -q "(0, 4]" "$T/set.err"
check "still 1.25 from fontconfig" test "$(json "$($client props)" 'v["TextScale"], v["TextScaleSource"]')" = "1.25 fontconfig"
check "fitctl refuses 5 before asking" bash -c "! '$fitctl' scale set 5 2>/dev/null"
check "fitctl refuses 0.001, below what fitd measures with, naming the range" bash -c "if '$fitctl' scale set 0.001 >'$T/low.err' 2>&1; then exit 1; fi; grep -q 'from 0.25 to 4.0' '$T/low.err'"

# --- Set wins over fontconfig, and is persisted
check "Set TextScale 1.5 (python-dbus)" test "$($client set 1.5)" = ok
check "explicit 1.5 wins over fontconfig" test "$(json "$($client props)" 'v["TextScale"], v["TextScaleSource"], v["SizeCategory"]')" = "1.5 explicit accessibilityMedium"
check "persisted in fitd.conf" grep -qE '^scale = 1.5$' "$XDG_CONFIG_HOME/fitd/fitd.conf"
styles=$("$fitctl" scale --json)
check "fitctl scale --json agrees" test "$(json "$styles" 'v["factor"], v["source"], len(v["styles"])')" = "1.5 explicit 11"

# --- restart: kill -9, the next call re-activates fitd, which reads fitd.conf
old=$(fitd_pid)
kill -9 "$old"
for _ in $(seq 50); do [ -z "$(fitd_pid)" ] && break; sleep 0.1; done
check "re-activated fitd reads 1.5 back" test "$(json "$($client props)" 'v["TextScale"], v["TextScaleSource"]')" = "1.5 explicit"
check "it is a new process" test "$(fitd_pid)" != "$old"

# --- a corrupt fitd.conf: the last good value stays, the log says why
printf '\x00\xff garbage [[[\nscale = = =\n' >"$XDG_CONFIG_HOME/fitd/fitd.conf"
sleep 2.5
check "corrupt fitd.conf: 1.5 stays in force" test "$(json "$($client props)" 'v["TextScale"], v["TextScaleSource"]')" = "1.5 explicit"
check "fitd logged why" grep -q "keeping the last good explicit setting (1.5)" "$T/bus.log"
# A 100 MB file is refused by size, not read.
truncate -s 100M "$XDG_CONFIG_HOME/fitd/fitd.conf"
sleep 2.5
check "100 MB fitd.conf: 1.5 stays in force" test "$(json "$($client props)" 'v["TextScale"]')" = "1.5"
check "fitd logged the size" grep -q "bytes; fitd reads config files of at most" "$T/bus.log"

# --- a hand edit to a new good value is followed
printf '[text]\nscale = 0.9\n' >"$XDG_CONFIG_HOME/fitd/fitd.conf"
check "edited fitd.conf (0.9) is followed" $client wait TextScale 0.9 5

# --- reset through fitctl over D-Bus: fontconfig decides again
reset=$("$fitctl" scale reset --json)
check "fitctl scale reset → 1.25 from fontconfig" test "$(json "$reset" 'v["factor"], v["source"]')" = "1.25 fontconfig"
check "fitd.conf keeps no scale" bash -c "! grep -q '^scale' '$XDG_CONFIG_HOME/fitd/fitd.conf'"
set_out=$("$fitctl" scale set 1.1 --json)
check "fitctl scale set 1.1 over D-Bus" test "$(json "$set_out" 'v["factor"], v["source"]')" = "1.1 explicit"
check "fitctl scale categories --json: 12 × 11" test "$(json "$("$fitctl" scale categories --json)" 'len(v["categories"]), len(v["categories"][0]["styles"]), v["current"]')" = "12 11 xLarge"

scale_finish
