#!/usr/bin/env bash
# Start-up never waits on a file: each file fitd (or a library it calls) reads at start — its
# own fitd.conf, GSettings' dconf database, keyfile and the user's compiled schemas, the
# user's fontconfig fonts.conf, KDE's kdeglobals, GTK's settings.ini — made a FIFO, a symbolic link to /dev/zero and a
# 100 MB file in turn; each time a fitd started by hand must own org.fitd.Fit1 within
# $limit s of exec, answer Measure as usual, and (for a FIFO) log a warning naming the file.
# A FIFO at the dconf database or fonts.conf used to keep the name from fitd for good, and a
# link to /dev/zero at the keyfile for as long as memory lasted.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"
by_hand

# The time the brief allows from exec to the name (docs/reliability.md, "Start-up").
limit=${FITD_NAME_LIMIT:-1}

# fontconfig as the tests pin it, plus the user's fonts.conf the way Debian's
# /etc/fonts/conf.d/50-user.conf includes it (Tests/fonts/fonts.conf alone includes nothing
# of the user's).
cat >"$work/fonts.conf" <<XML
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include>$ROOT/Tests/fonts/fonts.conf</include>
  <include ignore_missing="yes" prefix="xdg">fontconfig/fonts.conf</include>
</fontconfig>
XML
export FONTCONFIG_FILE=$work/fonts.conf
# Rewritten fontconfig files go below the runtime directory: a fresh one per test.
export XDG_RUNTIME_DIR=$work/runtime
mkdir -p -m 0700 "$XDG_RUNTIME_DIR"
unset XDG_CURRENT_DESKTOP DISPLAY WAYLAND_DISPLAY

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# run_case WHAT PATH KIND [ENV=VALUE…]: PATH made KIND (fifo, zero, huge), fitd started with
# the environment given, then the checks; everything undone afterwards.
run_case() {
  local what=$1 path=$2 kind=$3; shift 3
  # FITD_CASES="dconf fonts.conf": only those (to see each one against another fitd).
  [ -z "${FITD_CASES:-}" ] || [[ " $FITD_CASES " == *" $what "* ]] || return 0
  mkdir -p "$(dirname "$path")"
  rm -rf "$path"
  case $kind in
    fifo) mkfifo "$path" ;;
    zero) ln -s /dev/zero "$path" ;;
    huge) truncate -s 100M "$path" ;;
  esac
  local name="$what-$kind" t0 elapsed owned=no
  name=${name//[^A-Za-z0-9._-]/_}
  t0=$(now_ms)
  env "$@" "$FITD" 2>"$work/$name.err" &
  last=$!
  started+=("$last")
  while :; do
    elapsed=$(($(now_ms) - t0))
    if has_owner; then owned=yes; break; fi
    [ "$elapsed" -gt $((limit * 1000)) ] && break
    kill -0 "$last" 2>/dev/null || break
    sleep 0.02
  done
  if [ "$owned" != yes ]; then
    tail -5 "$work/$name.err" >&2
    fail "$what as $kind: fitd did not own $BUS within $limit s of exec"
  fi
  if ! kill -0 "$last" 2>/dev/null; then
    tail -5 "$work/$name.err" >&2
    fail "$what as $kind: fitd exited"
  fi
  local width
  width=$(timeout 10 busctl --user --json=short call "$BUS" "$OBJ" "$IFACE" Measure 'ssa{sv}' "Hello, world" "DejaVu Sans 12" 0 \
    | json_get 'repr(d["data"][0][0])') || fail "$what as $kind: no answer to Measure"
  assert_eq "$width" 94.78125 "$what as $kind: Measure width"
  if [ "$kind" = fifo ]; then
    grep -q "$path is a FIFO" "$work/$name.err" || fail "$what as a FIFO: no warning naming $path: $(tail -3 "$work/$name.err")"
  fi
  kill -9 "$last"
  wait "$last" 2>/dev/null || true
  rm -rf "$path"
  ok "$what as $kind: the name in ${elapsed} ms, Measure answers"
}

cfg=$XDG_CONFIG_HOME
for kind in ${FITD_KINDS:-fifo zero huge}; do
  run_case fitd.conf "$cfg/fitd/fitd.conf" "$kind"
  # dconf's database: GSettings is asked when it exists (GSettingsProvider.inUse).
  run_case dconf "$cfg/dconf/user" "$kind"
  run_case keyfile "$cfg/glib-2.0/settings/keyfile" "$kind" GSETTINGS_BACKEND=keyfile
  # The user's compiled schemas, which GIO maps before the system's.
  run_case schemas "$work/data/glib-2.0/schemas/gschemas.compiled" "$kind" GSETTINGS_BACKEND=keyfile XDG_DATA_HOME="$work/data"
  run_case fonts.conf "$cfg/fontconfig/fonts.conf" "$kind"
  run_case kdeglobals "$cfg/kdeglobals" "$kind"
  run_case settings.ini "$cfg/gtk-4.0/settings.ini" "$kind"
done

# A settings portal that takes every ReadOne and never answers (each call would time out
# after 3 s): the name still comes, at the default scale, and the scale stays readable. Not a
# file: fitd waits StartGate's 0.5 s for it on top of its start, so the bound is 1.5 s (0.6 s
# seen on an idle machine, 0.93 s with a build running).
portal_limit_ms=${FITD_PORTAL_LIMIT_MS:-1500}
"$PY" - >"$work/portal.out" 2>&1 <<'PY' &
import dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()

class Hung(dbus.service.Object):
    @dbus.service.method("org.freedesktop.portal.Settings", in_signature="ss", out_signature="v",
                         async_callbacks=("reply", "error"))
    def ReadOne(self, namespace, key, reply, error):
        pass  # never answered

portal = Hung(bus, "/org/freedesktop/portal/desktop")
name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)
print("portal ready", flush=True)
GLib.MainLoop().run()
PY
portal_pid=$!
started+=("$portal_pid")
for _ in $(seq 50); do grep -q ready "$work/portal.out" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$work/portal.out" || fail "the hung portal did not start: $(cat "$work/portal.out")"
t0=$(now_ms)
"$FITD" 2>"$work/hung-portal.err" &
last=$!
started+=("$last")
until has_owner; do
  [ $(($(now_ms) - t0)) -gt "$portal_limit_ms" ] && fail "a hung portal: fitd did not own $BUS within $portal_limit_ms ms of exec"
  sleep 0.02
done
elapsed=$(($(now_ms) - t0))
scale=$(timeout 10 busctl --user get-property "$BUS" "$OBJ" "$IFACE" TextScale) || fail "a hung portal: no TextScale"
assert_eq "$scale" "d 1" "a hung portal: TextScale"
grep -q "not read within" "$work/hung-portal.err" || fail "a hung portal: the late read was not logged"
ok "a portal that never answers: the name in ${elapsed} ms at the default scale"
kill -9 "$last" "$portal_pid"
wait "$last" "$portal_pid" 2>/dev/null || true

# On a change too: fonts.conf made a FIFO while fitd runs. The re-read that its directory's
# change starts must not wait on it (the configuration loaded before stays), and fitd keeps
# following changes: fitd.conf's scale, written after, is in force within seconds.
if [ -z "${FITD_CASES:-}" ]; then
  mkdir -p "$cfg/fontconfig"
  "$FITD" 2>"$work/later.err" &
  last=$!
  started+=("$last")
  for _ in $(seq 100); do has_owner && break; sleep 0.05; done
  has_owner || fail "fitd did not start"
  mkfifo "$cfg/fontconfig/fonts.conf"
  sleep 2
  width=$(timeout 10 busctl --user --json=short call "$BUS" "$OBJ" "$IFACE" Measure 'ssa{sv}' "Hello, world" "DejaVu Sans 12" 0 \
    | json_get 'repr(d["data"][0][0])') || fail "fonts.conf became a FIFO: no answer to Measure"
  assert_eq "$width" 94.78125 "fonts.conf became a FIFO: Measure width"
  mkdir -p "$cfg/fitd"
  printf '[text]\nscale = 1.5\n' >"$cfg/fitd/fitd.conf"
  scale=""
  for _ in $(seq 50); do
    scale=$(timeout 5 busctl --user get-property "$BUS" "$OBJ" "$IFACE" TextScale) || true
    [ "$scale" = "d 1.5" ] && break
    sleep 0.2
  done
  assert_eq "$scale" "d 1.5" "fonts.conf became a FIFO, then fitd.conf changed: TextScale"
  grep -q "fonts.conf is a FIFO" "$work/later.err" || fail "fonts.conf became a FIFO: no warning: $(tail -3 "$work/later.err")"
  rm -f "$cfg/fontconfig/fonts.conf" "$cfg/fitd/fitd.conf"
  kill -9 "$last"
  wait "$last" 2>/dev/null || true
  ok "fonts.conf made a FIFO while fitd runs: it answers and follows changes"
fi
