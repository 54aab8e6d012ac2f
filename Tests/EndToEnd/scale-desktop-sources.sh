#!/usr/bin/env bash
# The two desktop sources behind the portal and KDE (docs/text-scale.md, "Precedence"), each
# with a fake: GNOME's org.gnome.desktop.interface through GSettings with the keyfile backend
# (GSETTINGS_BACKEND=keyfile reads $XDG_CONFIG_HOME/glib-2.0/settings/keyfile, so no dconf
# and no portal), and X11's Xft.dpi set with `xrdb -merge` on a private Xvfb server that fitd
# reaches through DISPLAY. GSettings wins over Xft.dpi; Xft.dpi is re-read on a change fitd
# watches (here `fitctl scale reset`); `fitctl scale set` says on stderr when the desktop
# draws at another scale. Skipped (exit 77, with the reason) without Xvfb, xrdb or the
# schema. See scale-lib.bash.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scale-lib.bash"
if [ -z "${FITD_SCALE_INNER:-}" ]; then
  for tool in Xvfb xrdb; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/bootstrap)"; exit 77; }
  done
  [ -e /usr/share/glib-2.0/schemas/org.gnome.desktop.interface.gschema.xml ] ||
    { echo "SKIP: gsettings-desktop-schemas is not installed (scripts/bootstrap)"; exit 77; }
  # A private X server: -displayfd picks a free display number and writes it once ready;
  # -noreset keeps the resources when the last client (xrdb) disconnects.
  displayfile=$(mktemp /tmp/fitd-xvfb.XXXXXX)
  Xvfb -displayfd 1 -nolisten tcp -noreset -screen 0 640x480x24 >"$displayfile" 2>/dev/null & xvfb_pid=$!
  for _ in $(seq 100); do [ -s "$displayfile" ] && break; sleep 0.1; done
  number=$(head -1 "$displayfile"); rm -f "$displayfile"
  [ -n "$number" ] || { kill "$xvfb_pid" 2>/dev/null; echo "FAIL: Xvfb did not start"; exit 1; }
  export DISPLAY=":$number" GSETTINGS_BACKEND=keyfile
  status=0
  scale_outer "${BASH_SOURCE[0]}" || status=$?
  kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null
  exit "$status"
fi
scale_inner_setup
fitctl="$FITD_BIN/fitctl"
keyfile="$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"
mkdir -p "$(dirname "$keyfile")"

restart_fitd() {  # kill -9; the next call re-activates fitd, which reads every source anew
  local old; old=$(fitd_pid)
  [ -n "$old" ] && kill -9 "$old"
  for _ in $(seq 50); do [ -z "$(fitd_pid)" ] && break; sleep 0.1; done
}
scale_of() { json "$($client props)" 'v["TextScale"], v["TextScaleSource"]'; }

# --- GSettings (keyfile backend) without a portal
cat >"$keyfile" <<'INI'
[org/gnome/desktop/interface]
text-scaling-factor=1.5
font-name='Noto Sans 10'
INI
echo 'Xft.dpi: 120' | xrdb -merge
check "xrdb -query shows Xft.dpi 120" bash -c "xrdb -query | grep -q '^Xft.dpi:.*120'"
check "GSettings' 1.5 is in force, over Xft.dpi ($(scale_of))" test "$(scale_of)" = "1.5 gsettings"
# X11 without a settings daemon: GTK never reads GSettings' font-name (only gsd-xsettings
# publishes it, as XSETTINGS Gtk/FontName), so an unstyled label is in GTK's own Sans 10.
check "UIFont on X11 without XSETTINGS is GTK's Sans 10, not GSettings' font-name" \
  test "$(json "$($client props)" 'v["UIFont"], v["UIFontSource"]')" = "Sans 10 default"

# --- Xft.dpi when GSettings sets no scale (the keyfile backend reads its file once: restart)
printf "[org/gnome/desktop/interface]\nfont-name='Noto Sans 10'\n" >"$keyfile"
restart_fitd
check "Xft.dpi 120 is 1.25 from xresources ($(scale_of))" test "$(scale_of)" = "1.25 xresources"
check "the UI font is still GTK's default" test "$(json "$($client props)" 'v["UIFont"]')" = "Sans 10"
check "fitctl scale --json agrees" test "$(json "$("$fitctl" scale --json)" 'v["factor"], v["source"]')" = "1.25 xresources"

# --- set: one note on stderr when the desktop differs; reset follows the desktop again,
# and the re-read it causes picks up a new Xft.dpi.
"$fitctl" scale set 2 >"$T/set.out" 2>"$T/set.err"
check "scale set 2 works" test "$(scale_of)" = "2.0 explicit"
check "one note on stderr names the desktop's 1.25 and reset ($(head -c 200 "$T/set.err"))" \
  bash -c "test \$(wc -l <'$T/set.err') -eq 1 && grep -q 'desktop draws text at 1.25 (xresources).*fitctl scale reset' '$T/set.err'"
"$fitctl" scale set 1.25 >/dev/null 2>"$T/same.err"
check "no note when the desktop agrees" test ! -s "$T/same.err"
echo 'Xft.dpi: 144' | xrdb -merge
"$fitctl" scale reset >/dev/null
check "after reset, the new Xft.dpi 144 is followed (1.5 xresources)" $client wait TextScale 1.5 5
check "source xresources" test "$(scale_of)" = "1.5 xresources"

# --- 96 dpi is 1.0; no Xft.dpi and nothing else is the default
echo 'Xft.dpi: 96' | xrdb -merge
restart_fitd
check "Xft.dpi 96 is 1.0 ($(scale_of))" test "$(scale_of)" = "1.0 xresources"
xrdb -remove
rm -f "$keyfile"
restart_fitd
check "no resources, no keyfile: the default ($(scale_of))" test "$(scale_of)" = "1.0 default"

# --- a database over fitd's 1 MiB read arrives cut; its last line, cut mid-value, is
# dropped: "Xft.dpi:\t1" of "Xft.dpi:\t144" would be 1 dpi, a scale of 0.0104.
/usr/bin/python3 - <<'PY'
import subprocess
LIMIT = 1 << 20  # FIT_X_MAX_BYTES in fit_xresources.c
def database(padding):
    # Names starting "A" sort before "Xft", so xrdb keeps Xft.dpi last.
    lines, size, n = [], 0, 0
    while size < padding:
        line = f"A{n:07d}.pad:\t{'x' * min(100, max(1, padding - size - 20))}\n"
        lines.append(line); size += len(line); n += 1
    return "".join(lines) + "Xft.dpi:\t144\n"
padding = LIMIT
for _ in range(8):  # xrdb's layout settles in two rounds
    subprocess.run(["xrdb", "-nocpp", "-load"], input=database(padding).encode(), check=True)
    stored = subprocess.run(["xrdb", "-query"], capture_output=True, check=True).stdout
    cut = stored.find(b"Xft.dpi:\t144") + len("Xft.dpi:\t1")
    if cut == LIMIT: break
    padding += LIMIT - cut
else:
    raise SystemExit("could not place the 1 MiB cut inside Xft.dpi's value")
PY
restart_fitd
check "a database cut at 1 MiB mid-line drops that line ($(scale_of))" test "$(scale_of)" = "1.0 default"
xrdb -remove
scale_finish
