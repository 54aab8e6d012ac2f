#!/usr/bin/env bash
# The daemon's lifecycle with fitd started by hand on the private bus: a second instance
# refuses to start, --replace takes the name over and the first exits cleanly, SIGTERM ends
# it promptly with status 0, its stderr lines have the journal-friendly form, and limits
# come from $XDG_CONFIG_HOME/fitd/fitd.conf (a garbage file is logged, the defaults kept).
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

by_hand  # $work, start NAME [ARGS…] (pid in $last), every fitd started killed at exit
wait_owner() {  # wait_owner PID: until PID owns org.fitd.Fit1 (5 s)
  for _ in $(seq 100); do [ "$(daemon_pid)" = "$1" ] && return 0; sleep 0.05; done
  fail "pid $1 did not get org.fitd.Fit1; its stderr: $(cat "$work"/*.err)"
}
# reap PID SECONDS: waits for a background child (not in a subshell: only this shell can
# wait for it), fails if it takes longer; its exit status in $status.
reap() {
  local pid=$1 limit=$2
  wait_gone "$pid" "$limit" || fail "fitd $pid still running after $limit s"
  status=0
  wait "$pid" || status=$?
}
batch_of() {  # batch_of N: MeasureBatch of N entries through gdbus; prints the reply or error
  local entries="" i
  for i in $(seq "$1"); do entries+="${entries:+, }('entry $i', 'DejaVu Sans 10', @a{sv} {})"; done
  gdbus call --session -d "$BUS" -o "$OBJ" -m "$IFACE.MeasureBatch" "[$entries]" 2>&1 || true
}

start first
first=$last
wait_owner "$first"
ok "fitd $first owns org.fitd.Fit1"

start second
reap "$last" 5
assert_eq "$status" 2 "exit status of a second fitd (fitd(8): 2, another fitd owns the name)"
grep -q "another fitd owns org.fitd.Fit1" "$work/second.err" \
  || fail "the second fitd did not say another fitd owns the name: $(cat "$work/second.err")"
assert_eq "$(daemon_pid)" "$first" "owner after the second fitd gave up"
ok "a second fitd exits $status: $(grep -o 'another fitd owns.*' "$work/second.err")"

start replacer --replace
replacer=$last
wait_owner "$replacer"
reap "$first" 5
assert_eq "$status" 0 "exit status of the replaced fitd"
grep -q "lost the name org.fitd.Fit1" "$work/first.err" || fail "the replaced fitd did not log NameLost: $(cat "$work/first.err")"
width=$(bcall Measure 'ssa{sv}' "Hello, world" "DejaVu Sans 12" 0 | json_get 'repr(d["data"][0][0])')
assert_eq "$width" 94.78125 "width from the replacing fitd"
ok "fitd --replace ($replacer) took the name; the first exited 0 (NameLost) and the new one answers"

t0=$(date +%s%N)
kill -TERM "$replacer"
reap "$replacer" 2
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
assert_eq "$status" 0 "exit status after SIGTERM"
grep -q "shutting down: asked to stop" "$work/replacer.err" || fail "no shutdown line: $(cat "$work/replacer.err")"
ok "SIGTERM: exit 0 after $ms ms"

# Every stderr line: "fitd: LEVEL: message" in a terminal; "<N>message" for the journal.
bad=$(cat "$work"/first.err "$work"/second.err "$work"/replacer.err \
  | grep -vE '^fitd: (trace|debug|info|notice|warning|error|critical): [^ ]' || true)
[ -z "$bad" ] || fail "stderr lines not in the 'fitd: level: message' form: $bad"
JOURNAL_STREAM=8:12345 start journal
wait_owner "$last"
kill -TERM "$last"; reap "$last" 2
bad=$(grep -vE '^<[0-7]>[^<]' "$work/journal.err" || true)
[ -z "$bad" ] && [ -s "$work/journal.err" ] || fail "journal lines are not '<priority>message': $(cat "$work/journal.err")"
ok "stderr: 'fitd: info: …' in a terminal, '$(head -c 12 "$work/journal.err")…' for the journal"

# Limits from $XDG_CONFIG_HOME/fitd/fitd.conf.
mkdir -p "$work/config/fitd"
printf '[limits]\nmax_batch = 3\n' >"$work/config/fitd/fitd.conf"
XDG_CONFIG_HOME=$work/config start limited
wait_owner "$last"
out=$(batch_of 3)
[[ $out == "([(true, '', ''"* ]] || fail "a batch of 3 under max_batch = 3: $out"
out=$(batch_of 4)
[[ $out == *"org.fitd.Fit1.Error.TooLarge"*"the limit is 3"* ]] || fail "a batch of 4 under max_batch = 3: $out"
kill -TERM "$last"; reap "$last" 2
ok "max_batch = 3 from fitd.conf: a batch of 3 is measured, 4 is TooLarge"

for garbage in 'this is not an ini file' $'\x01\x02\xff\xfe garbage [[[ =' $'[limits]\nmax_batch = -1' $'[limits]\nmax_bach = 3'; do
  printf '%s\n' "$garbage" >"$work/config/fitd/fitd.conf"
  XDG_CONFIG_HOME=$work/config start garbage
  wait_owner "$last"
  out=$(batch_of 4)
  [[ $out == "([(true, '', ''"* ]] || fail "defaults not used with fitd.conf '$garbage': $out"
  kill -TERM "$last"; reap "$last" 2
  grep -qE "^fitd: warning: .*fitd\.conf.*using the default limits" "$work/garbage.err" \
    || fail "fitd.conf '$garbage' was not logged: $(cat "$work/garbage.err")"
  echo "$TEST: $(grep -o 'warning: .*' "$work/garbage.err" | sed "s|$work|…|")"
done
ok "a bad fitd.conf is logged and the defaults are used"
