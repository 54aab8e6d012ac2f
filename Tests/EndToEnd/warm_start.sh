#!/usr/bin/env bash
# A warm start (docs/caching.md): fitd saves its results to $XDG_CACHE_HOME/fitd/results.bin when
# SIGTERM stops it; the next fitd maps the file and answers the same requests from it —
# identical answers, counted as persisted-results hits in GetStats and `fitctl status`. A
# truncated, garbage or FIFO file is logged once and ignored (and replaced at the next stop); a
# file written under another fontconfig configuration is not used; persist_results = false
# in fitd.conf writes nothing. A fitd started by D-Bus activation answers from the file too,
# and the file is also written when fitd goes idle (idle_release_seconds), so that kill -9 or
# a reboot later loses nothing. Shaped words are saved too (shapes.bin): a new string of words
# shaped before the restart takes them from the file and measures as when shaped afresh.
# Neither file holds a measured text in clear; results.bin truncated or overwritten in place
# under a running fitd changes none of its answers; temporaries of a save killed midway are
# removed at the next start; a cache directory others may write to turns persistence off.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

by_hand
file=$XDG_CACHE_HOME/fitd/results.bin

start_owner() {  # start_owner NAME: start NAME, then wait until it owns the name
  start "$1"
  for _ in $(seq 100); do [ "$(daemon_pid)" = "$last" ] && return 0; sleep 0.05; done
  fail "fitd $1 did not get org.fitd.Fit1: $(cat "$work/$1.err")"
}
stop() {  # stop: SIGTERM to the last fitd, which must exit 0 within 5 s
  kill -TERM "$last"
  wait_gone "$last" 5 || fail "fitd $last still running 5 s after SIGTERM"
  local status=0
  wait "$last" || status=$?
  assert_eq "$status" 0 "exit status after SIGTERM"
}
texts=("Hello, world" "Screen time this week" "Größe und Gewicht" "日本語のテキスト" "ابجد هوز" "Ready 🙂")
measure_all() {  # the replies to Measure for every text, plain and wrapped with lines
  local t
  for t in "${texts[@]}"; do
    bcall Measure 'ssa{sv}' "$t" "DejaVu Sans 11" 0
    bcall Measure 'ssa{sv}' "$t" "sans-serif 10" 2 max_width d 40 lines b true
  done
}
persisted_hits() {  # persisted_hits [CACHE]: that cache's hits in GetStats (persisted-results), or "none"
  bcall GetStats | json_get "next((c[4] for c in d['data'][0] if c[0] == '${1:-persisted-results}'), 'none')"
}
new_string() { bcall Measure 'ssa{sv}' "this week" "DejaVu Sans 11" 0; }  # its words: "Screen time this week"

start_owner cold
cold=$(measure_all)
[ ! -e "$file" ] || fail "results.bin exists before the first fitd stopped"
stop
[ -s "$file" ] || fail "no $file after SIGTERM: $(cat "$work/cold.err")"
[ -s "$XDG_CACHE_HOME/fitd/shapes.bin" ] || fail "no shapes.bin after SIGTERM: $(cat "$work/cold.err")"
assert_eq "$(stat -c %a "$XDG_CACHE_HOME/fitd")" 700 "mode of the cache directory"
grep -q "warm start: saved 12 results to $file" "$work/cold.err" || fail "no save line: $(cat "$work/cold.err")"
ok "SIGTERM saved 12 results ($(stat -c %s "$file") bytes) to \$XDG_CACHE_HOME/fitd/results.bin"

start_owner warm
grep -q "warm start: 12 results from $file" "$work/warm.err" || fail "the file was not mapped: $(cat "$work/warm.err")"
warm=$(measure_all)
assert_eq "$warm" "$cold" "answers after the restart"
assert_eq "$(persisted_hits)" 12 "persisted-results hits after the restart"
status_line=$("$FITCTL" status --json | json_get '[c for c in d["caches"] if c["name"] == "persisted-results"][0]["hits"]')
assert_eq "$status_line" 12 "fitctl status --json persisted-results hits"
stop
# Nothing new was measured: nothing to write.
grep -q "warm start: saved" "$work/warm.err" && fail "a fitd that measured nothing new rewrote the file"
ok "the restarted fitd answered all 12 identically from the file (GetStats, fitctl status: 12 persisted hits)"

# No measured text in clear, in UTF-8 or UTF-16 (shaped words' keys): keys are keyed hashes
# and values enciphered (docs/caching.md, "What is on disk").
"$PY" - "$file" "$XDG_CACHE_HOME/fitd/shapes.bin" "${texts[@]}" <<'EOF' || fail "a measured text is in clear in the files"
import sys
files, texts = sys.argv[1:3], sys.argv[3:]
words = {w for t in texts for w in t.split() if len(w) >= 4}
for path in files:
    data = open(path, 'rb').read()
    for w in words:
        for encoded in (w.encode(), w.encode('utf-16-le')):
            if encoded in data:
                sys.exit(f"{w!r} in {path}")
EOF
ok "no measured word in results.bin or shapes.bin, in UTF-8 or UTF-16"

# results.bin truncated, then overwritten in place, under a fitd that read it: it keeps
# answering from what it read (a mapping of the file died of SIGBUS at the next lookup).
# Temporaries of a save that never finished: a gone pid's is removed at start, a live one's kept.
true & dead=$!
wait "$dead"
touch "$file.tmp.$dead" "$file.tmp.$$"
cp "$file" "$work/results.bin.saved"
start_owner undercut
[ ! -e "$file.tmp.$dead" ] || fail "the temporary file of gone pid $dead was not removed at start"
[ -e "$file.tmp.$$" ] || fail "the temporary file of live pid $$ was removed"
rm -f "$file.tmp.$$"
truncate -s 0 "$file"
assert_eq "$(measure_all)" "$cold" "answers after results.bin was truncated under fitd"
head -c 65536 /dev/urandom | dd of="$file" conv=notrunc status=none
assert_eq "$(measure_all)" "$cold" "answers after results.bin was overwritten in place under fitd"
assert_eq "$(persisted_hits)" 12 "persisted-results hits from what fitd read at start"
assert_eq "$(daemon_pid)" "$last" "the owner of the name"
stop
cp "$work/results.bin.saved" "$file"
ok "results.bin truncated and overwritten under a running fitd: same answers; a gone writer's temporary removed at start"

for damage in truncate garbage fifo; do
  case $damage in
    truncate) truncate -s $(( $(stat -c %s "$file") - 7 )) "$file" ;;
    garbage) head -c 4096 /dev/urandom >"$file" ;;
    fifo) rm -f "$file"; mkfifo "$file" ;;  # must not block the start
  esac
  start_owner "$damage"
  grep -qE "^fitd: warning: warm start: ignoring $file: " "$work/$damage.err" || fail "no warning for a $damage file: $(cat "$work/$damage.err")"
  [ "$(grep -c 'warning' "$work/$damage.err")" -eq 1 ] || fail "more than one warning: $(cat "$work/$damage.err")"
  assert_eq "$(measure_all)" "$cold" "answers with a $damage file"
  assert_eq "$(persisted_hits)" none "persisted-results with a $damage file"
  stop
  grep -q "warm start: saved 12 results" "$work/$damage.err" || fail "the $damage file was not replaced: $(cat "$work/$damage.err")"
  echo "$TEST: $(grep -o 'warning: .*' "$work/$damage.err" | sed "s|$XDG_CACHE_HOME|\$XDG_CACHE_HOME|")"
done
start_owner rewritten
assert_eq "$(measure_all)" "$cold" "answers from the rewritten file"
assert_eq "$(persisted_hits)" 12 "persisted-results hits from the rewritten file"
# A new string of words shaped before the restart: its words come from shapes.bin.
new_warm=$(new_string)
shaped=$(persisted_hits persisted-shapes)
[ "$shaped" != none ] && [ "$shaped" -ge 2 ] || fail "persisted-shapes hits for a new string of known words: $shaped"
stop
[ -f "$file" ] || fail "the FIFO was not replaced by a file"
ok "a truncated, garbage or FIFO file: one warning, cold answers, replaced at the next stop"

# Started by D-Bus activation, as after a logout or a reboot: the call that activates fitd is
# answered from the file too.
has_owner && fail "a fitd still owns the name"
assert_eq "$(measure_all)" "$cold" "answers from an activated fitd"
assert_eq "$(persisted_hits)" 12 "persisted-results hits of an activated fitd"
activated=$(daemon_pid)
kill -TERM "$activated"
wait_gone "$activated" 5 || fail "the activated fitd still runs 5 s after SIGTERM"
ok "an activated fitd answered all 12 from the file"

# Another fontconfig configuration (the same rules at another path): not used.
cp "$FONTCONFIG_FILE" "$work/fonts.conf"
FONTCONFIG_FILE=$work/fonts.conf start_owner otherfonts
grep -q "warm start: .*was written for another fitd version, font set or fontconfig configuration" "$work/otherfonts.err" \
  || fail "a file of another configuration was not refused: $(cat "$work/otherfonts.err")"
assert_eq "$(persisted_hits)" none "persisted-results under another configuration"
stop
ok "a file written under another fontconfig configuration is not used"

# Saved when the daemon goes idle, before its caches are emptied: a fitd killed later (a
# reboot, kill -9) leaves the file behind.
rm -f "$file"
mkdir -p "$XDG_CONFIG_HOME/fitd"
printf '[limits]\nidle_release_seconds = 5\n' >"$XDG_CONFIG_HOME/fitd/fitd.conf"
start_owner idle
measure_all >/dev/null
for _ in $(seq 200); do [ -s "$file" ] && break; sleep 0.1; done
[ -s "$file" ] || fail "no $file 20 s after the last request: $(cat "$work/idle.err")"
# The idle release lets the files' contents go too (read, they are the daemon's memory) and
# reads them again once requests come back (IdleTrim, within its 5 s period).
for _ in $(seq 100); do [ "$(persisted_hits)" = none ] && break; sleep 0.1; done
assert_eq "$(persisted_hits)" none "persisted-results after the idle release"
new_string >/dev/null
sleep 6
assert_eq "$(measure_all)" "$cold" "answers after the idle release and the reread"
assert_eq "$(persisted_hits)" 12 "persisted-results hits after the idle release and the reread"
kill -9 "$last"
wait "$last" 2>/dev/null || true  # bash's "Killed" notice"
start_owner afterkill
assert_eq "$(measure_all)" "$cold" "answers after an idle save and kill -9"
assert_eq "$(persisted_hits)" 12 "persisted-results hits after an idle save and kill -9"
stop
ok "idle: saved before the idle release, let go and read again when requests came back; after kill -9 the next fitd answered all 12 from the file"

rm -f "$file"
printf '[limits]\npersist_results = false\n' >"$XDG_CONFIG_HOME/fitd/fitd.conf"
start_owner off
measure_all >/dev/null
assert_eq "$(new_string)" "$new_warm" "a new string of known words, shaped afresh and from shapes.bin"
stop
[ ! -e "$file" ] || fail "persist_results = false wrote $file"
rm -f "$XDG_CONFIG_HOME/fitd/fitd.conf"
ok "persist_results = false: nothing saved; a new string of known words measured alike shaped afresh and from shapes.bin"

# A cache directory others may write to: one warning naming it and what is wrong, nothing
# read or saved, its mode left as it is.
chmod 0777 "$XDG_CACHE_HOME/fitd"
rm -f "$file"
start_owner open
measure_all >/dev/null
stop
grep -q "warning: warm start: $XDG_CACHE_HOME/fitd is writable by group or others (mode 777); persistence is off" "$work/open.err" \
  || fail "no warning for a directory open to others: $(cat "$work/open.err")"
[ ! -e "$file" ] || fail "results were saved in a directory open to others"
assert_eq "$(stat -c %a "$XDG_CACHE_HOME/fitd")" 777 "mode of the directory (fitd never chmods it)"
chmod 0700 "$XDG_CACHE_HOME/fitd"
ok "a cache directory writable by others: one warning, nothing saved, not chmodded"
