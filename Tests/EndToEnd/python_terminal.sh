#!/usr/bin/env bash
# The Python package's terminal profile in a real tmux, as a user meets it: in a tmux pane
# (TERM_PROGRAM=tmux) `measure('👩‍💻 dev', unit='cells')` gives what fitctl gives in the same
# pane; with the environment saying nothing (TERM=xterm-256color, no TERM_PROGRAM) the package
# asks tmux itself, whose cursor is the judge, and erases its probe; and the terminal example
# draws a row "👩‍💻 dev" + "END" without END landing on the emoji (tmux capture-pane).
# tmux before 3.4 is wcwidth's by its environment (fitctl's rule). Its cursor says it is neither
# profile exactly: tmux 3.3a joins a ZWJ sequence into one 2-cell cell (👩‍💻 2, wcwidth's 4) but
# adds up a skin tone (👍🏽 4) and keeps ❤️ at 1, so the probe finds wcwidth's widths for 2 of 3.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

command -v tmux >/dev/null || skip "tmux is missing (scripts/bootstrap installs it)"
"$FITD_PY" -c 'import fitd.terminal' 2>/dev/null || fail "$FITD_PY has no fitd package (scripts/bootstrap makes it)"
version=$(tmux -V | sed 's/^tmux //')
expected=$("$FITD_PY" -c 'import sys; from fitd import terminal; print(terminal.from_environment({"TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": sys.argv[1]}).profile)' "$version")
case $expected in grapheme) width=6 ;; wcwidth) width=8 ;; *) fail "no profile for tmux $version" ;; esac

dir=$(mktemp -d "${TMPDIR:-/tmp}/fitd-python-terminal.XXXXXX")
trap 'tmux -S "$dir/tmux" kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT
unset TMUX TERM_PROGRAM TERM_PROGRAM_VERSION  # a tmux of our own (-S), whatever runs the tests

# In the pane: what the package detects and measures, and what fitctl measures, as JSON; then
# a line saying so, and a wait, so that the pane can be read while the program is still there.
cat >"$dir/probe.py" <<'PY'
import json, os, subprocess, sys, time
import fitd
found = fitd.terminal.detect()
text = "\U0001F469\u200d\U0001F4BB dev"
width = fitd.Client().measure(text, unit="cells").width
fitctl = json.loads(subprocess.run([os.environ["FITCTL"], "measure", "--cells", "--json", text],
                                   capture_output=True, text=True, check=True).stdout)["width"]
with open(sys.argv[1] + ".tmp", "w") as out:
    json.dump({"profile": found.profile, "source": found.source, "reason": found.reason,
               "cells": found.cursor_cells, "decrqm": found.decrqm, "width": float(width), "fitctl": float(fitctl)}, out)
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
print("probe done", flush=True)
time.sleep(30)
PY
field() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
# pane NAME COMMAND: runs COMMAND in a new tmux window, waits (10 s) for its JSON in $dir/NAME.json.
pane() { tmux_pane "$1" "$2" "$dir/$1.json"; }

pane environment "$FITD_PY $dir/probe.py $dir/environment.json 2>$dir/environment.err"
assert_eq "$(field "$dir/environment.json" source) $(field "$dir/environment.json" profile)" "environment $expected" \
  "tmux $version's pane, by its environment ($(field "$dir/environment.json" reason))"
assert_eq "$(field "$dir/environment.json" width)" "$width.0" "measure('👩‍💻 dev', unit='cells') in tmux $version"
assert_eq "$(field "$dir/environment.json" fitctl)" "$width.0" "fitctl measure --cells '👩‍💻 dev' in the same pane"
ok "tmux $version pane: the package and fitctl both measure '👩‍💻 dev' as $width cells ($(field "$dir/environment.json" reason))"

# Nothing in the environment: the package asks tmux. The cursor probe's answer decides.
pane query "env -u TERM_PROGRAM -u TERM_PROGRAM_VERSION TERM=xterm-256color $FITD_PY $dir/probe.py $dir/query.json 2>$dir/query.err"
assert_eq "$(field "$dir/query.json" source) $(field "$dir/query.json" profile)" \
  "cursor $expected" "tmux $version asked, the environment saying nothing ($(field "$dir/query.json" reason))"
if [ "$version" = 3.3a ]; then
  assert_eq "$(field "$dir/query.json" cells)" "[2, 4, 1]" "where tmux 3.3a's cursor lands after 👩‍💻, 👍🏽, ❤️"
fi
assert_eq "$(field "$dir/query.json" width)" "$width.0" "measure('👩‍💻 dev', unit='cells') after asking tmux"
assert_eq "$(field "$dir/query.json" fitctl)" "$width.0" "fitctl measure --cells '👩‍💻 dev', which asks tmux too"
screen=$(tmux -S "$dir/tmux" capture-pane -p -t fit:query)
grep -q 'probe done' <<<"$screen" || fail "the pane shows no 'probe done':"$'\n'"$screen"
if grep -q $'\U0001F469' <<<"$screen"; then fail "the probe's cluster is still on the screen:"$'\n'"$screen"; fi
ok "tmux $version asked: $(field "$dir/query.json" reason) (DECRQM 2027: $(field "$dir/query.json" decrqm)); '👩‍💻 dev' $width cells; the probe erased; fitctl, asking too, says $(field "$dir/query.json" fitctl)"

# The terminal example: an emoji text and END side by side, as the user's report had them.
cat >"$dir/row.json" <<'JSON'
{"version": 1, "root": {"kind": "hstack", "spacing": 1, "children": [
  {"id": "who", "kind": "text", "text": "👩‍💻 dev"}, {"id": "end", "kind": "text", "text": "END"}]}}
JSON
tmux -S "$dir/tmux" new-window -t fit -n app \
  "$FITD_PY clients/examples/terminal_app.py --document $dir/row.json --state-file $dir/app.json 2>$dir/app.log"
for i in $(seq 100); do [ -s "$dir/app.json" ] && break; sleep 0.1; done
[ -s "$dir/app.json" ] || fail "the terminal example wrote no state within 10 s: $(cat "$dir/app.log")"
sleep 0.3  # its screen is written just before its state
row=$(tmux -S "$dir/tmux" capture-pane -p -t fit:app | head -n 1)
assert_eq "$(field "$dir/app.json" terminal_profile)" "$expected" "the terminal example's profile"
# tmux's own grid, as capture-pane reads it back: the cluster whole, its text's next word (or
# the ellipsis where fitd counted the cluster wider than tmux draws it), blanks, then END.
[[ $row =~ ^$'\U0001F469\u200d\U0001F4BB'\ [^\ ]+\ +END\ *$ ]] || fail "the example's row in tmux $version: '$row' (texts: $(field "$dir/app.json" texts))"
ok "the terminal example in tmux $version: '${row%"${row##*[! ]}"}' (texts $(field "$dir/app.json" texts), frames $(field "$dir/app.json" drawn))"
