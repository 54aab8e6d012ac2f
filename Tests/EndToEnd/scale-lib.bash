# (Named .bash, not .sh: scripts/test runs every Tests/EndToEnd/*.sh as a test.)
# Shared by the text-scale end-to-end tests (sourced). Each test runs itself twice: outside,
# it builds a temporary world (fontconfig file that includes Tests/fonts/fonts.conf plus the
# user's $XDG_CONFIG_HOME/fontconfig/fonts.conf and a watched font directory, a private bus
# whose <servicedir> activates the built fitd) and re-runs itself inside dbus-run-session;
# inside, it runs the checks. Everything ends within `scale_timeout` seconds.

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
client="/usr/bin/python3 $root/Tests/EndToEnd/scale_client.py"
scale_timeout=55
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
check() {  # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then pass "$what"; else fail "$what"; fi
}
json() {  # json JSON PYTHON-EXPRESSION-ON-v
  /usr/bin/python3 -c "import json,sys; v=json.loads(sys.argv[1]); print($2)" "$1"
}

scale_outer() {  # scale_outer SCRIPT: sets up and re-runs SCRIPT inside a private bus
  local script=$1
  local bin; bin="$(cd "$root" && swift build --show-bin-path)"
  [ -x "$bin/fitd" ] && [ -x "$bin/fitctl" ] || { echo "build first: swift build"; exit 1; }
  T="$(mktemp -d /tmp/fitd-scale.XXXXXX)"
  mkdir -p "$T/config" "$T/fonts" "$T/cache" "$T/services"
  cat >"$T/fonts.conf" <<XML
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <!-- New caches (the watched directory's) go here; the pinned fonts' caches are read from
       wherever Tests/fonts/fonts.conf keeps them. -->
  <cachedir>$T/cache</cachedir>
  <include>$root/Tests/fonts/fonts.conf</include>
  <!-- A font directory that starts empty: installing a font into it is the test. -->
  <dir>$T/fonts</dir>
  <!-- Hide the system's copy of Noto Sans Cherokee so that the copy installed into $T/fonts
       is new to fontconfig (every installed font is in the pinned set). -->
  <selectfont><rejectfont><glob>/usr/share/fonts/truetype/noto/NotoSansCherokee*</glob></rejectfont></selectfont>
  <!-- The user's configuration, as /etc/fonts/conf.d/50-user.conf includes it. -->
  <include ignore_missing="yes" prefix="xdg">fontconfig/fonts.conf</include>
</fontconfig>
XML
  sed -e "s|@bindir@|$bin|" -e '/^SystemdService=/d' "$root/systemd/org.fitd.Fit1.service.in" >"$T/services/org.fitd.Fit1.service"
  cat >"$T/bus.conf" <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$T/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
  export FONTCONFIG_FILE="$T/fonts.conf" XDG_CONFIG_HOME="$T/config" FITD_BIN="$bin" T
  export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$root/.build/test-cache}"
  unset XDG_CURRENT_DESKTOP
  mkdir -p "$XDG_CACHE_HOME"
  # fitd's log (the activated daemon writes to the bus's stderr) goes to a file, which the
  # checks read; it is never piped.
  local status=0
  timeout -s KILL "$scale_timeout" dbus-run-session --config-file="$T/bus.conf" -- \
    env FITD_SCALE_INNER=1 bash "$script" 2>"$T/bus.log" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "--- fitd / bus log ($T/bus.log):"; tail -n 40 "$T/bus.log"
  fi
  rm -rf "$T"
  return "$status"
}

scale_inner_setup() {
  # The bus is dbus-run-session's other child; it is killed (-9) on exit, and with it fitd's
  # connection, so nothing outlives the test.
  bus_pid=$(ps -o pid= --ppid "$PPID" | while read -r p; do [ "$p" != "$$" ] && [ "$(cat /proc/$p/comm 2>/dev/null)" = dbus-daemon ] && echo "$p"; done | head -1)
  background=()
  trap scale_inner_cleanup EXIT
}

scale_inner_cleanup() {
  for p in "${background[@]}"; do kill "$p" 2>/dev/null; done
  local fitd; fitd=$(fitd_pid)
  [ -n "$fitd" ] && kill -9 "$fitd" 2>/dev/null
  [ -n "${bus_pid:-}" ] && kill -9 "$bus_pid" 2>/dev/null
  true
}

fitd_pid() {  # the activated fitd's pid (from the bus), empty when none runs
  gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus \
    -m org.freedesktop.DBus.GetConnectionUnixProcessID org.fitd.Fit1 2>/dev/null | sed -n 's/^(uint32 \([0-9]*\),)$/\1/p'
}

scale_finish() {
  if [ "$failures" -eq 0 ]; then echo "all checks passed"; exit 0; fi
  echo "$failures check(s) failed"; exit 1
}
