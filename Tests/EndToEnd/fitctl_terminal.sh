#!/usr/bin/env bash
# `fitctl terminal` in a real tmux, as a user meets it: in a tmux pane (TERM_PROGRAM=tmux) the
# environment decides, by tmux's version; with the environment saying nothing
# (TERM=xterm-256color, no TERM_PROGRAM) fitctl asks tmux itself — its cursor is the judge —
# erases its probe, reports the answers, and `fitctl measure --cells` in the same pane sends the
# profile found; --no-query and a command without a controlling terminal ask nothing. The
# Python package, in the same pane, finds the same (FitDBusClient's TerminalDetection and
# fitd.terminal keep one set of rules). The query against scripted terminals is
# Tests/FitDBusClientTests/TerminalDetectionTests.swift.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

command -v tmux >/dev/null || skip "tmux is missing (scripts/bootstrap installs it)"
version=$(tmux -V | sed 's/^tmux //')
# The environment's rule for this tmux (TerminalProfile.environmentRule): 3.4 and later cluster.
case $version in
  [0-2].* | 3.[0-3]*) expected=wcwidth; width=8 ;;
  *) expected=grapheme; width=6 ;;
esac

dir=$(mktemp -d "${TMPDIR:-/tmp}/fitd-fitctl-terminal.XXXXXX")
trap 'tmux -S "$dir/tmux" kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT
unset TMUX TERM_PROGRAM TERM_PROGRAM_VERSION  # a tmux of our own (-S), whatever runs the tests

field() { "$PY" -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]], ensure_ascii=False))' "$1" "$2"; }
# pane NAME COMMAND: runs COMMAND in a new tmux window, then writes $dir/NAME.done and waits, so
# that the pane can be read while it is still there; waits (10 s) for that file.
pane() { tmux_pane "$1" "$2; echo done >$dir/$1.done; sleep 30" "$dir/$1.done"; }
nothing_known="env -u TERM_PROGRAM -u TERM_PROGRAM_VERSION TERM=xterm-256color"
emoji=$'\U0001F469\u200d\U0001F4BB dev'

pane environment "$FITCTL terminal --json >$dir/environment.json 2>$dir/environment.err"
assert_eq "$(field "$dir/environment.json" source) $(field "$dir/environment.json" profile) $(field "$dir/environment.json" asked)" \
  "\"environment\" \"$expected\" false" "tmux $version's pane, by its environment ($(cat "$dir/environment.json" "$dir/environment.err"))"
assert_eq "$(field "$dir/environment.json" environment | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["TERM_PROGRAM"])')" \
  tmux "the environment fitctl reports"
ok "tmux $version pane: $(field "$dir/environment.json" reason)"

# Nothing in the environment: fitctl asks tmux; the cursor probe's answer decides. In the same
# pane, measure --cells sends that profile, and the Python package finds the same answers.
printf '%s' "$emoji" >"$dir/text"
pane query "$nothing_known $FITCTL terminal --json >$dir/query.json 2>$dir/query.err;
  $nothing_known $FITCTL measure --cells --json \"\$(cat $dir/text)\" >$dir/measure.json 2>$dir/measure.err;
  $nothing_known $FITCTL terminal >$dir/query.txt 2>&1"
assert_eq "$(field "$dir/query.json" source) $(field "$dir/query.json" profile) $(field "$dir/query.json" asked)" \
  "\"cursor\" \"$expected\" true" "tmux $version asked, the environment saying nothing ($(cat "$dir/query.json" "$dir/query.err"))"
if [ "$version" = 3.3a ]; then
  # tmux 3.3a joins the ZWJ sequence (2) but adds up the skin tone (4) and keeps ❤️ at 1.
  assert_eq "$(field "$dir/query.json" cursor_cells)" "[2, 4, 1]" "where tmux 3.3a's cursor lands after 👩‍💻, 👍🏽, ❤️"
fi
assert_eq "$(field "$dir/measure.json" width)" "$width" "fitctl measure --cells '👩‍💻 dev' after asking tmux ($(cat "$dir/measure.err"))"
grep -q "^cursor " "$dir/query.txt" || fail "fitctl terminal's text shows no cursor answers: $(cat "$dir/query.txt")"
screen=$(tmux -S "$dir/tmux" capture-pane -p -t fit:query)
if grep -q $'\U0001F469' <<<"$screen"; then fail "the probe's cluster is still on the screen:"$'\n'"$screen"; fi
ok "tmux $version asked: $(field "$dir/query.json" reason) (DECRQM 2027: $(field "$dir/query.json" decrqm)); '👩‍💻 dev' $width cells; the probe erased"

# The Python package's module, loaded from its file: it needs nothing beyond the standard library.
cat >"$dir/python.py" <<'PY'
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("fitd_terminal", sys.argv[1])
terminal = sys.modules["fitd_terminal"] = importlib.util.module_from_spec(spec)  # its dataclasses look it up
spec.loader.exec_module(terminal)
d = terminal.detect_now()
print(json.dumps([d.profile, d.source, list(d.cursor_cells or []), d.decrqm]))
PY
pane python "$nothing_known $PY $dir/python.py $ROOT/clients/python/src/fitd/terminal.py >$dir/python.json 2>$dir/python.err"
swift=$("$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps([d["profile"], d["source"], d["cursor_cells"] or [], d["decrqm"]]))' "$dir/query.json")
assert_eq "$(cat "$dir/python.json")" "$swift" "the Python package asking the same tmux ($(cat "$dir/python.err"))"
ok "the Python package's fitd.terminal finds the same: $swift"

# --no-query asks nothing, and neither does a command without a controlling terminal.
pane quiet "$nothing_known $FITCTL terminal --no-query --json >$dir/quiet.json 2>&1"
assert_eq "$(field "$dir/quiet.json" source) $(field "$dir/quiet.json" profile) $(field "$dir/quiet.json" asked)" \
  '"none" null false' "--no-query with the environment saying nothing"
out=$(setsid $nothing_known "$FITCTL" terminal --json </dev/null 2>&1)
assert_eq "$(echo "$out" | json_get 'd["reason"]')" "the environment names no known terminal; no controlling terminal" \
  "without a controlling terminal"
ok "--no-query and no controlling terminal: nothing asked, no profile (the daemon's default)"
