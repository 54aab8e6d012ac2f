#!/usr/bin/env bash
# fitd.conf as whatever can be put at its path (docs/reliability.md), against the real daemon
# started by D-Bus activation: a FIFO, a link to /dev/zero, a directory, garbage and a 100 MB
# file never keep fitd from starting and answering; a Set never follows a planted link; and
# with the config directory read-only or its file system full, Set answers a named error and
# the old value stays in force and on disk. The last part mounts a small tmpfs (root only).
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

cfg=$XDG_CONFIG_HOME/fitd
conf=$cfg/fitd.conf
work=$(mktemp -d)
mounted=""
cleanup() {
  [ -n "$mounted" ] && umount "$mounted" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$cfg"

get_scale() {
  timeout 10 busctl --user get-property "$BUS" "$OBJ" "$IFACE" TextScale 2>&1
}
# set_scale VALUE: prints "ok" or the D-Bus error name.
set_scale() {
  local out
  if out=$(timeout 10 gdbus call --session --dest "$BUS" --object-path "$OBJ" \
    --method org.freedesktop.DBus.Properties.Set "$IFACE" TextScale "<$1>" 2>&1); then
    echo ok
  else
    echo "$out" | grep -oE 'org\.[A-Za-z0-9_.]+Error\.[A-Za-z]+' | head -1
    echo "$out" >"$work/set.err"
  fi
}
# Stops the running daemon so the next call activates a fresh one, which reads fitd.conf.
restart() {
  local pid
  pid=$(daemon_pid || true)
  if [ -n "$pid" ]; then
    kill "$pid"
    wait_gone "$pid" 10 || fail "fitd $pid did not stop"
  fi
}

# --- what fitd.conf may be at start: fitd starts and answers within the timeout anyway
start_with() { # WHAT: fitd.conf is already in place
  restart
  local answer
  answer=$(get_scale) || fail "$1: no answer at start: $answer"
  assert_eq "$answer" "d 1" "$1: TextScale at start"
  ok "fitd.conf $1: fitd starts and answers TextScale 1"
}
mkfifo "$conf"
start_with "a FIFO"
grep -q "fitd.conf is a FIFO" "$E2E_LOG" || fail "the FIFO was not logged: $(tail -5 "$E2E_LOG")"
rm "$conf"
ln -s /dev/zero "$conf"
start_with "a symbolic link to /dev/zero"
grep -q "fitd.conf is a symbolic link" "$E2E_LOG" || fail "the link was not logged"
rm "$conf"
mkdir "$conf"
start_with "a directory"
rmdir "$conf"
head -c 4096 /dev/urandom >"$conf"
start_with "4 KiB of random bytes"
truncate -s 100M "$conf"
start_with "100 MB"
rm "$conf"

# --- a symbolic link at fitd.conf, and links planted at temporary names: never followed
echo precious >"$work/victim"
ln -s "$work/victim" "$conf"
pid=$(daemon_pid || true)
# A predictable temporary name, as .fitd.conf.<pid>.tmp opened O_TRUNC without O_EXCL would be.
ln -s "$work/victim" "$cfg/.fitd.conf.$pid.tmp"
assert_eq "$(set_scale 1.5)" ok "Set TextScale 1.5 with links planted"
assert_eq "$(cat "$work/victim")" precious "the link's target"
[ -L "$conf" ] && fail "fitd.conf is still a link after Set"
grep -qx 'scale = 1.5' "$conf" || fail "Set did not write fitd.conf: $(cat "$conf")"
rm "$cfg/.fitd.conf.$pid.tmp"
ok "Set replaces a linked fitd.conf with a regular file; no planted link's target is written"

# --- read-only directory and full disk: a named error, the old value in memory and on disk
if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=64k,mode=0700 tmpfs "$cfg" 2>/dev/null; then
  skip "read-only and full-disk cases: mounting a tmpfs needs root (the cases above passed)"
fi
mounted=$cfg
printf '[text]\nscale = 1.5\n' >"$conf"
restart
assert_eq "$(get_scale)" "d 1.5" "TextScale from fitd.conf on the tmpfs"
before=$(cat "$conf")

mount -o remount,ro "$cfg"
assert_eq "$(set_scale 2.0)" org.fitd.Fit1.Error.Internal "Set TextScale 2 on a read-only directory"
grep -q "Read-only file system" "$work/set.err" || fail "the error does not say why: $(cat "$work/set.err")"
assert_eq "$(get_scale)" "d 1.5" "TextScale after a failed Set (read-only)"
assert_eq "$(cat "$conf")" "$before" "fitd.conf after a failed Set (read-only)"
ok "read-only config directory: Set answers Internal ($(grep -o 'create.*' "$work/set.err" | head -c 90)), 1.5 stays"
mount -o remount,rw "$cfg"

# Fill every page of the tmpfs, then the last bytes.
dd if=/dev/zero of="$cfg/fill" bs=4k 2>/dev/null || true
dd if=/dev/zero of="$cfg/fill2" bs=1 2>/dev/null || true
assert_eq "$(set_scale 2.0)" org.fitd.Fit1.Error.Internal "Set TextScale 2 on a full file system"
grep -q "No space left on device" "$work/set.err" || fail "the error does not say why: $(cat "$work/set.err")"
assert_eq "$(get_scale)" "d 1.5" "TextScale after a failed Set (full)"
assert_eq "$(cat "$conf")" "$before" "fitd.conf after a failed Set (full)"
leftover=$(find "$cfg" -name '.fitd.conf.*' | head -3)
[ -z "$leftover" ] || fail "temporary files left behind: $leftover"
ok "full file system: Set answers Internal (No space left on device), 1.5 stays, no temporary file left"

rm -f "$cfg/fill" "$cfg/fill2"
assert_eq "$(set_scale 2.0)" ok "Set TextScale 2 once there is space again"
assert_eq "$(get_scale)" "d 2" "TextScale after the space came back"
grep -qx 'scale = 2' "$conf" || fail "fitd.conf after the space came back: $(cat "$conf")"
ok "with space again, Set works"
