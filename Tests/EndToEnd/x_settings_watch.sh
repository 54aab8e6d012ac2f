#!/usr/bin/env bash
# The X display's settings followed live, as a user meets it (docs/text-scale.md, "Where the
# settings come from"): fitd activated on a private bus in a private Xvfb session, changes
# made the way a session makes them, and what `fitctl scale` shows and `fitctl watch` hears:
#   1. `xrdb -merge` of a new Xft.dpi → the new scale within 3 s, and a GenerationChanged;
#   2. an XSETTINGS manager (xsettingsd) started after fitd → its Gtk/FontName is the UI font,
#      and a text style measures in it;
#   3. its configuration changed and reloaded (SIGHUP) → the new Gtk/FontName and Xft/DPI;
#   4. the manager killed → the next sources again (Xft.dpi, GTK's default font);
#   5. the X server killed → fitd keeps serving (a Measure answers), falls back, warns once
#      and spins no CPU; a server back on the same display is followed again.
# Skipped (77) without Xvfb, xrdb or xsettingsd (scripts/bootstrap installs them).
source "$(dirname "$0")/lib.bash"

if [ -z "${E2E_INNER:-}" ]; then
  for tool in Xvfb xrdb xsettingsd busctl; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/bootstrap)"
  done
  [ -x "$FITCTL" ] || fail "no fitctl at $FITCTL (swift build first, or set FITCTL)"
  # -displayfd: a free display number, written once the server is ready; -noreset keeps the
  # resources when the last client (xrdb) disconnects.
  displayfile=$(mktemp "${TMPDIR:-/tmp}/fitd-xwatch.XXXXXX")
  Xvfb -displayfd 1 -nolisten tcp -noreset -screen 0 640x480x24 >"$displayfile" 2>/dev/null &
  xvfb_pid=$!
  disown
  stop_xvfb() {
    # SIGTERM, so that Xvfb removes its lock file and socket; SIGKILL if it lingers.
    local pids=("$xvfb_pid") pid
    [ -s "$displayfile.pid" ] && pids+=("$(cat "$displayfile.pid")")
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 40); do
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && break; pid=""; done
      [ -z "$pid" ] && break
      sleep 0.05
    done
    kill -9 "${pids[@]}" 2>/dev/null || true
    rm -f "$displayfile" "$displayfile.pid"
  }
  trap stop_xvfb EXIT
  for _ in $(seq 100); do [ -s "$displayfile" ] && break; sleep 0.1; done
  number=$(head -1 "$displayfile")
  [ -n "$number" ] || fail "Xvfb did not start"
  # The inner run kills this server and starts another on the same display; it writes that
  # one's pid here so that it is not left behind.
  export DISPLAY=":$number" XVFB_PID=$xvfb_pid XVFB_PIDFILE="$displayfile.pid"
  unset WAYLAND_DISPLAY XDG_CURRENT_DESKTOP GSETTINGS_BACKEND
  E2E_TIMEOUT=58 on_private_bus "$@"
fi

work=$(mktemp -d)
helpers=()
cleanup() {
  local pid
  for pid in "${helpers[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
now() { echo "${EPOCHREALTIME/./}"; }  # µs
# One field of `fitctl scale --json`; the factor as a float (JSON has 1 for 1.0).
scale_field() {
  local expr="d['$1']"
  [ "$1" = factor ] && expr="float(d['factor'])"
  "$FITCTL" scale --json | json_get "$expr"
}
# wait_for SECONDS FIELD VALUE: until `fitctl scale --json` has FIELD == VALUE; prints the ms it took.
wait_for() {
  local limit=$1 field=$2 want=$3 t0 got=""
  t0=$(now)
  while [ $(($(now) - t0)) -lt $((limit * 1000000)) ]; do
    got=$(scale_field "$field" 2>/dev/null || true)
    [ "$got" = "$want" ] && { echo $((($(now) - t0) / 1000)); return 0; }
    sleep 0.05
  done
  echo "not within $limit s (last: '$got')"
  return 1
}

# --- 0. an X server that accepts and never answers (a listening socket in the abstract
# namespace, where libxcb looks first on Linux): the watch connects on a thread of its own,
# so fitd takes its name as soon as the first reads have given up (their 0.5 s deadline and
# StartGate's 0.5 s, as startup_files.sh bounds a hung portal: 1.5 s), and SIGTERM still ends
# it at once although that thread waits in xcb_connect.
hung=""
for n in $(seq 200 299); do
  [ -e "/tmp/.X11-unix/X$n" ] || grep -q "@/tmp/.X11-unix/X$n\b" /proc/net/unix || { hung=$n; break; }
done
[ -n "$hung" ] || fail "no free display number for the hung X server"
"$PY" -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0/tmp/.X11-unix/X" + sys.argv[1])
s.listen(16)
print("ready", flush=True)
time.sleep(120)
' "$hung" >"$work/hung.out" 2>&1 &
helpers+=("$!")
disown
for _ in $(seq 50); do grep -q ready "$work/hung.out" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$work/hung.out" || fail "the hung X server did not start: $(cat "$work/hung.out")"
t0=$(now)
DISPLAY=":$hung" "$FITD" 2>"$work/hung-fitd.err" &
hung_fitd=$!
helpers+=("$hung_fitd")
disown
until has_owner; do
  [ $(($(now) - t0)) -gt 1500000 ] && fail "a hung X server: fitd did not own $BUS within 1.5 s of exec"
  sleep 0.02
done
elapsed=$((($(now) - t0) / 1000))
assert_eq "$(busctl --user get-property "$BUS" "$OBJ" "$IFACE" TextScale)" "d 1" "a hung X server: TextScale"
kill -TERM "$hung_fitd"
wait_gone "$hung_fitd" 5 || fail "a hung X server: fitd still runs 5 s after SIGTERM"
ok "an X server that never answers: the name after $elapsed ms, and SIGTERM ends fitd"

# --- fitd up, nothing set: the default, and a listener for GenerationChanged
"$FITCTL" scale --json >"$work/first.json" || fail "fitctl scale: no answer"
assert_eq "$(json_get "float(d['factor']), d['source']" <"$work/first.json")" "(1.0, 'default')" "scale with nothing set"
default_font=$(json_get "d['ui_font']" <"$work/first.json")
pid=$(daemon_pid)
[ -n "$pid" ] || fail "no fitd owns $BUS"
# `fitctl watch` prints its first line once subscribed; each line gets the time it came.
# stdbuf: fitctl flushes after each change, not after that first line.
stdbuf -oL "$FITCTL" watch > >(while IFS= read -r line; do echo "$(now) $line"; done >"$work/watch.log") 2>&1 &
helpers+=("$!")
disown
for _ in $(seq 100); do grep -q "watching fitd" "$work/watch.log" 2>/dev/null && break; sleep 0.05; done
grep -q "watching fitd" "$work/watch.log" || fail "fitctl watch did not subscribe: $(cat "$work/watch.log")"
# The watch connects on a thread of its own after the first read, and then reports once (to
# catch up): let that settle so that the timings below are the changes' own.
sleep 1.5
generations_before() { grep -c "^[0-9]* generation " "$work/watch.log" || true; }

# --- 1. xrdb -merge of a new Xft.dpi
seen=$(generations_before)
t0=$(now)
echo 'Xft.dpi: 144' | xrdb -merge
took=$(wait_for 5 factor 1.5) || fail "Xft.dpi 144 from xrdb -merge was not followed: $took"
assert_eq "$(scale_field source)" xresources "source after xrdb -merge"
[ "$took" -le 3000 ] || fail "Xft.dpi followed only after $took ms (want ≤ 3000)"
for _ in $(seq 40); do [ "$(generations_before)" -gt "$seen" ] && break; sleep 0.05; done
line=$(grep "^[0-9]* generation " "$work/watch.log" | sed -n "$((seen + 1))p")
[ -n "$line" ] || fail "no GenerationChanged after xrdb -merge: $(cat "$work/watch.log")"
case $line in *desktop*"scale 1.5 (xresources)"*) ;; *) fail "GenerationChanged after xrdb -merge says: $line" ;; esac
signal_ms=$(((${line%% *} - t0) / 1000))
ok "xrdb -merge Xft.dpi 144: fitctl scale 1.5 (xresources) after $took ms, GenerationChanged after $signal_ms ms"

# --- 2. an XSETTINGS manager started after fitd
cat >"$work/xsettingsd.conf" <<'CONF'
Gtk/FontName "DejaVu Serif 13"
CONF
width_of() { "$FITCTL" measure "Settings follow the desktop" --font body --json | json_get "d['width']"; }
width_default=$(width_of)
xsettingsd -c "$work/xsettingsd.conf" 2>"$work/xsettingsd.err" &
manager=$!
helpers+=("$manager")
disown
took=$(wait_for 5 ui_font "DejaVu Serif 13") || fail "xsettingsd's Gtk/FontName (started after fitd) was not followed: $took"
assert_eq "$(scale_field ui_font_source)" xsettings "UI font source with xsettingsd"
assert_eq "$(scale_field factor)" 1.5 "scale (Xft.dpi still) with a manager that sets no Xft/DPI"
width_serif=$(width_of)
[ "$width_serif" != "$width_default" ] || fail "a text style measures the same in DejaVu Serif 13 as in $default_font ($width_serif)"
ok "xsettingsd started after fitd: UI font DejaVu Serif 13 (xsettings) after $took ms; 'body' is $width_serif wide, was $width_default"

# --- 3. its settings changed and reloaded
cat >"$work/xsettingsd.conf" <<'CONF'
Gtk/FontName "Noto Sans 11"
Xft/DPI 122880
CONF
kill -HUP "$manager"
took=$(wait_for 5 ui_font "Noto Sans 11") || fail "Gtk/FontName after SIGHUP was not followed: $took"
assert_eq "$(scale_field factor) $(scale_field source)" "1.25 xsettings" "scale from Xft/DPI 120 after SIGHUP"
ok "xsettingsd reloaded (SIGHUP): UI font Noto Sans 11 and scale 1.25 (xsettings) after $took ms"

# --- 4. the manager gone: the next sources
kill -TERM "$manager"
took=$(wait_for 5 ui_font "$default_font") || fail "after xsettingsd exited the UI font stayed: $took"
assert_eq "$(scale_field factor) $(scale_field source)" "1.5 xresources" "scale after xsettingsd exited"
ok "xsettingsd killed: UI font $default_font, scale 1.5 (xresources) again after $took ms"

# --- 5. the X server killed (as a crash: it leaves its lock file and socket behind, which
# the next server on the display clears)
kill -9 "$XVFB_PID"
took=$(wait_for 5 source default) || fail "with the X server gone the scale stayed: $took"
measured=$("$FITCTL" measure "Still here" --font "Noto Sans 12" --json | json_get "d['width']") ||
  fail "no Measure after the X server was killed"
[ "$(daemon_pid)" = "$pid" ] || fail "fitd was replaced (pid $(daemon_pid), was $pid)"
# No busy loop while the server is away: its retries back off (1 s, 2 s, 4 s …).
read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u0 s0 _ <"/proc/$pid/stat"
sleep 3
read -r _ _ _ _ _ _ _ _ _ _ _ _ _ u1 s1 _ <"/proc/$pid/stat"
ticks=$((u1 + s1 - u0 - s0))
[ "$ticks" -le 30 ] || fail "fitd used $ticks clock ticks in 3 s with the X server gone"
warnings=$(grep -c "X display $DISPLAY: the connection to the X server broke" "$E2E_LOG" || true)
assert_eq "$warnings" 1 "warnings about the lost X server"
grep -q "X display $DISPLAY: .*cannot be reached" "$E2E_LOG" && fail "a second warning for the failed reconnects"
ok "X server killed: fitd (pid $pid) still measures ($measured px wide), default scale after $took ms, one warning, $ticks ticks of CPU in 3 s"

# The next server on the same display: followed again once the backoff lets the watch try.
Xvfb "$DISPLAY" -nolisten tcp -noreset -screen 0 640x480x24 2>/dev/null &
echo $! >"$XVFB_PIDFILE"
disown
for _ in $(seq 100); do xrdb -query >/dev/null 2>&1 && break; sleep 0.1; done
echo 'Xft.dpi: 192' | xrdb -merge || fail "the new Xvfb did not start"
took=$(wait_for 20 factor 2.0) || fail "the X server back on $DISPLAY: Xft.dpi 192 not followed: $took"
grep -q "X display $DISPLAY: watching its settings again" "$E2E_LOG" || fail "no line saying the watch is back"
ok "a new X server on $DISPLAY: Xft.dpi 192 followed after $took ms (the watch reconnects with backoff)"
