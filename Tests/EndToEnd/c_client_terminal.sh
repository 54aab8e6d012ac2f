#!/usr/bin/env bash
# libfitd-client's terminal profile (fit_client_terminal_profile()) as a terminal program
# meets it, in a real tmux, as python_terminal.sh checks the Python package's: in a tmux pane
# (TERM_PROGRAM=tmux) the environment decides, by fitctl's rule, and fit_client_measure()
# with unit cells measures '👩‍💻 dev' as fitctl does there; with the environment saying
# nothing (TERM=xterm-256color) the library asks tmux, whose cursor is the judge, and erases
# its probe; with no controlling terminal it says so and sends no profile; TERM of a known
# terminal decides without a terminal at all. tmux 3.3a's cursor moves 2, 4, 1 cells for
# 👩‍💻, 👍🏽, ❤️ (it joins a ZWJ sequence, adds up the rest): wcwidth's widths for 2 of 3.
source "$(dirname "$0")/lib.bash"

if [ -z "${E2E_INNER:-}" ]; then
  command -v tmux >/dev/null || skip "tmux is missing (scripts/bootstrap installs it)"
  pkg-config --exists json-glib-1.0 || skip "json-glib is missing (scripts/bootstrap installs libjson-glib-dev)"
  c_client_build terminal
  # shellcheck disable=SC2046 # pkg-config's flags are words
  cc -Wall -Wextra -Werror -o "$C_WORK/layout" clients/c/tests/layout.c $(pkg-config --cflags --libs fitd-client) \
    2>"$C_WORK/cc.log" || fail "cc layout.c: $(cat "$C_WORK/cc.log")"
fi
on_private_bus "$@"

export LD_LIBRARY_PATH=$C_WORK/prefix/lib
probe() { "$C_WORK/layout" terminal "$@"; }
field() { sed -n "s/^$2 //p" "$1"; }
version=$(tmux -V | sed 's/^tmux //')
# fitctl's rule for this tmux: 3.4 and later join emoji clusters.
expected=$("$PY" -c 'import re, sys
m = re.match(r"\D*(\d+)(?:\.(\d*))?", sys.argv[1]); major, minor = int(m.group(1)), int(m.group(2) or 0)
print("grapheme" if major > 3 or (major == 3 and minor >= 4) else "wcwidth")' "$version")
case $expected in grapheme) width=6 ;; wcwidth) width=8 ;; esac

dir=$C_WORK/tmux-run; mkdir -p "$dir"
trap 'tmux -S "$dir/tmux" kill-server 2>/dev/null || true; rm -rf "$C_WORK"' EXIT
unset TMUX TERM_PROGRAM TERM_PROGRAM_VERSION  # a tmux of our own (-S), whatever runs the tests
# pane NAME COMMAND: COMMAND in a new tmux window; waits (10 s) for it to write $dir/NAME.txt.
pane() { tmux_pane "$1" "$2" "$dir/$1.txt"; }

pane environment "$C_WORK/layout terminal $dir/environment.txt 2>$dir/environment.err"
assert_eq "$(field "$dir/environment.txt" profile)" "$expected" "tmux $version's pane, by its environment ($(field "$dir/environment.txt" reason))"
field "$dir/environment.txt" reason | grep -q '^TERM_PROGRAM=tmux' || fail "not decided by TERM_PROGRAM: $(cat "$dir/environment.txt")"
pane fitctl "$FITCTL measure --cells --json '👩‍💻 dev' >$dir/fitctl.json.tmp 2>$dir/fitctl.err; mv $dir/fitctl.json.tmp $dir/fitctl.txt"
fitctl_width=$(json_get 'd["width"]' <"$dir/fitctl.txt")
assert_eq "$(field "$dir/environment.txt" width)" "$width" "fit_client_measure('👩‍💻 dev', unit cells) in tmux $version"
assert_eq "$fitctl_width" "$width" "fitctl measure --cells '👩‍💻 dev' in a pane of the same tmux"
ok "tmux $version pane: fit_client_measure and fitctl both measure '👩‍💻 dev' as $width cells ($(field "$dir/environment.txt" reason))"

pane query "env -u TERM_PROGRAM -u TERM_PROGRAM_VERSION TERM=xterm-256color $C_WORK/layout terminal $dir/query.txt 2>$dir/query.err"
assert_eq "$(field "$dir/query.txt" profile)" "$expected" "tmux $version asked, the environment saying nothing ($(field "$dir/query.txt" reason))"
field "$dir/query.txt" reason | grep -q '^the cursor moved' || fail "not decided by the cursor: $(cat "$dir/query.txt")"
if [ "$version" = 3.3a ]; then
  field "$dir/query.txt" reason | grep -q "^the cursor moved 👩‍💻 2, 👍🏽 4, ❤️ 1 cells: wcwidth's widths for 2 of 3" \
    || fail "where tmux 3.3a's cursor lands: $(field "$dir/query.txt" reason)"
fi
assert_eq "$(field "$dir/query.txt" width)" "$width" "'👩‍💻 dev' in cells after asking tmux"
sleep 0.3  # the erasure is written before the file
screen=$(tmux -S "$dir/tmux" capture-pane -p -t fit:query)
grep -q 'probe done' <<<"$screen" || fail "the pane shows no 'probe done':"$'\n'"$screen"
if grep -q $'\U0001F469' <<<"$screen"; then fail "the probe's cluster is still on the screen:"$'\n'"$screen"; fi
ok "tmux $version asked: $(field "$dir/query.txt" reason); '👩‍💻 dev' $width cells; the probe erased"

# No terminal at all (this script's stdin and stdout are pipes, and setsid drops the
# controlling terminal): no profile, nothing sent, the daemon's default (grapheme: 6 cells).
env -u TERM_PROGRAM TERM=xterm-256color setsid "$C_WORK/layout" terminal "$dir/none.txt" </dev/null >/dev/null 2>"$dir/none.err" \
  || fail "no terminal: $(cat "$dir/none.err")"
assert_eq "$(field "$dir/none.txt" profile) $(field "$dir/none.txt" width)" "none 6" "no terminal ($(field "$dir/none.txt" reason))"
field "$dir/none.txt" reason | grep -q 'no controlling terminal$' || fail "no terminal, reason: $(field "$dir/none.txt" reason)"
TERM=xterm-kitty setsid "$C_WORK/layout" terminal "$dir/kitty.txt" </dev/null >/dev/null 2>"$dir/kitty.err" || fail "kitty: $(cat "$dir/kitty.err")"
assert_eq "$(field "$dir/kitty.txt" profile) $(field "$dir/kitty.txt" reason)" "grapheme TERM=xterm-kitty" "TERM=xterm-kitty"
TERM=alacritty setsid "$C_WORK/layout" terminal "$dir/alacritty.txt" </dev/null >/dev/null 2>"$dir/alacritty.err" || fail "alacritty: $(cat "$dir/alacritty.err")"
assert_eq "$(field "$dir/alacritty.txt" profile) $(field "$dir/alacritty.txt" width)" "wcwidth 8" "TERM=alacritty"
ok "no controlling terminal: no profile, the daemon's default (6 cells); TERM=xterm-kitty grapheme, TERM=alacritty wcwidth (8 cells), as fitctl decides"
