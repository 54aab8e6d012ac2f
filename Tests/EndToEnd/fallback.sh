#!/usr/bin/env bash
# fitctl without a daemon: with no session bus, or a bus on which fitd cannot be started,
# it measures in-process, says so in one stderr line and exits 0, with the daemon's figures
# (not ping and status, health checks that exit 69: cli_contract.sh).
# --local never touches the bus (a listening socket sees no connection).
source "$(dirname "$0")/lib.bash"
[ -x "$FITCTL" ] || fail "no fitctl at $FITCTL"
work=$(mktemp -d)
listener=""
cleanup() { [ -n "$listener" ] && kill "$listener" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

measure() { "$FITCTL" measure "Hello, world" --font "DejaVu Sans 12" --json "$@"; }
width_of() { json_get 'repr(d["width"])' <"$1"; }
one_fallback_line() {  # one_fallback_line FILE WHAT
  [ "$(wc -l <"$1")" -eq 1 ] && grep -qE '^fitctl: .*; measuring in-process instead$' "$1" \
    || fail "$2: stderr is not one 'measuring in-process instead' line: $(cat "$1")"
}

DBUS_SESSION_BUS_ADDRESS=unix:path=$work/no-such-bus measure >"$work/out" 2>"$work/err" \
  || fail "fitctl with no bus exited non-zero: $(cat "$work/err")"
assert_eq "$(width_of "$work/out")" 94.78125 "width measured in-process (no bus)"
one_fallback_line "$work/err" "no bus"
ok "no bus: in-process, exit 0, width 94.78125; stderr: $(cat "$work/err")"

# In-process, the user's settings apply as the daemon applies them: an explicit text scale
# of 1.25 in $XDG_CONFIG_HOME/fitd/fitd.conf gives the daemon's figure at 1.25
# (the engine measured with text_scale 1.25: 118.4765625), not the unscaled one.
mkdir -p "$work/config"
XDG_CONFIG_HOME="$work/config" "$FITCTL" scale set 1.25 --local >/dev/null 2>"$work/err" \
  || fail "fitctl --local scale set 1.25: $(cat "$work/err")"
XDG_CONFIG_HOME="$work/config" measure --local >"$work/out" 2>"$work/err" || fail "fitctl --local at 1.25: $(cat "$work/err")"
assert_eq "$(width_of "$work/out")" 118.4765625 "width measured in-process at the user's explicit scale 1.25"
ok "in-process: the user's explicit text scale applies (width 118.4765625 at 1.25)"

mkdir -m 0700 "$work/runtime"
# (no $XDG_RUNTIME_DIR/bus and no X display either: nothing for libdbus to fall back on)
env -u DBUS_SESSION_BUS_ADDRESS DISPLAY= XDG_RUNTIME_DIR="$work/runtime" "$FITCTL" font "DejaVu Sans 12" >"$work/out" 2>"$work/err" \
  || fail "fitctl font with no bus: $(cat "$work/err")"
one_fallback_line "$work/err" "font, DBUS_SESSION_BUS_ADDRESS unset"
# status is a health check: no fallback, exit 69 (Tests/EndToEnd/cli_contract.sh); --local reports in-process.
env -u DBUS_SESSION_BUS_ADDRESS DISPLAY= XDG_RUNTIME_DIR="$work/runtime" "$FITCTL" status --local >"$work/out" 2>"$work/err" \
  || fail "fitctl status --local with no bus: $(cat "$work/err")"
grep -q "(in-process)" "$work/out" || fail "fitctl status --local does not say in-process: $(cat "$work/out")"
ok "DBUS_SESSION_BUS_ADDRESS unset: fitctl font falls back in-process; status --local reports in-process"

# A live bus on which org.fitd.Fit1 cannot be activated.
"$ROOT/scripts/private-bus" --no-service --log /dev/null -- bash -c '
  "$FITCTL" measure "Hello, world" --font "DejaVu Sans 12" --json' >"$work/out" 2>"$work/err" \
  || fail "fitctl on a bus without fitd exited non-zero: $(cat "$work/err")"
assert_eq "$(width_of "$work/out")" 94.78125 "width measured in-process (bus without fitd)"
one_fallback_line "$work/err" "bus without fitd"
ok "bus without fitd: in-process; stderr: $(cat "$work/err")"

# The same request through the daemon: the same figures, and nothing on stderr.
"$ROOT/scripts/private-bus" --fitd "$FITD" --log /dev/null -- bash -c '
  "$FITCTL" measure "The quick brown fox jumps over the lazy dog" --font "Noto Sans 11" --max-width 120 --lines --json' \
  >"$work/daemon" 2>"$work/err" || fail "fitctl through the daemon: $(cat "$work/err")"
[ -s "$work/err" ] && fail "fitctl through the daemon wrote to stderr: $(cat "$work/err")"
"$FITCTL" measure "The quick brown fox jumps over the lazy dog" --font "Noto Sans 11" --max-width 120 --lines --json --local \
  >"$work/local" 2>"$work/err" || fail "fitctl --local: $(cat "$work/err")"
[ -s "$work/err" ] && fail "fitctl --local wrote to stderr: $(cat "$work/err")"
cmp -s "$work/daemon" "$work/local" || fail "daemon and in-process differ: $(cat "$work/daemon") vs $(cat "$work/local")"
ok "daemon and --local give the same JSON, byte for byte"

# --local never connects: a socket at the bus address counts connections.
"$PY" - "$work/bus.sock" "$work/connections" <<'PY' &
import os, socket, sys
server = socket.socket(socket.AF_UNIX)
server.bind(sys.argv[1]); server.listen(8)
open(sys.argv[2], "w").close()
count = 0
while True:
    connection, _ = server.accept()
    count += 1
    open(sys.argv[2], "w").write(str(count))
    connection.close()  # not a bus: the client gives up
PY
listener=$!
for _ in $(seq 100); do [ -S "$work/bus.sock" ] && [ -e "$work/connections" ] && break; sleep 0.05; done
export DBUS_SESSION_BUS_ADDRESS=unix:path=$work/bus.sock
for command in "measure x --local" "font sans --local" "status --local" "ping --local"; do
  # shellcheck disable=SC2086
  "$FITCTL" $command >/dev/null 2>"$work/err" || fail "fitctl $command: $(cat "$work/err")"
  [ -s "$work/err" ] && fail "fitctl $command wrote to stderr: $(cat "$work/err")"
done
assert_eq "$(cat "$work/connections")" "" "connections to the bus address by fitctl --local"
measure >/dev/null 2>"$work/err" || fail "fitctl against a dead socket: $(cat "$work/err")"
[ "$(cat "$work/connections")" -ge 1 ] || fail "the socket saw no connection without --local: the check proves nothing"
one_fallback_line "$work/err" "a socket that is not a bus"
ok "--local (measure, font, status, ping) made no connection; without it fitctl connected and fell back"
