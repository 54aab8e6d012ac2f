# (Named .bash, not .sh: scripts/test runs every Tests/EndToEnd/*.sh as a test.)
# Shared by the tests of the example apps (clients/examples: examples_apps.sh,
# examples_scroll.sh), sourced after on_private_bus: the tools and Pythons they need, a
# scratch directory $dir, an Xvfb display with a desktop font set as a desktop sets it for
# GTK, and the helpers that read the apps' state files, the tmux pane and the X screen.
# run_gtk ARGS… starts the GTK app (pid in $gtk_pid); run_terminal COLUMNS ARGS… the terminal
# app in a tmux window "fit" of that many columns. Both are stopped when the test exits.

for tool in Xvfb xdotool import convert compare tmux; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/bootstrap installs it)"
done
# The GTK app's Python: the fitd package and Debian's PyGObject (a --system-site-packages
# venv); the terminal app's: the fitd package alone (the package's own venv).
GTK_PY=$ROOT/.build/examples-env/bin/python
"$GTK_PY" -c 'import fitd, gi; gi.require_version("Gtk", "4.0"); from gi.repository import Gtk' 2>/dev/null \
  || fail "$GTK_PY has no fitd package or no GTK 4 (scripts/bootstrap makes it)"
"$FITD_PY" -c 'import fitd' 2>/dev/null || fail "$FITD_PY has no fitd package (scripts/bootstrap makes it)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/fitd-examples.XXXXXX")
xvfb_pid="" gtk_pid=""
cleanup() {
  tmux -S "$dir/tmux" kill-server 2>/dev/null || true
  [ -z "$gtk_pid" ] || kill "$gtk_pid" 2>/dev/null || true
  [ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true
  [ -n "${KEEP_EXAMPLES_DIR:-}" ] && echo "kept $dir" || rm -rf "$dir"
}
trap cleanup EXIT
gtk_state=$dir/gtk.json term_state=$dir/terminal.json

# A free display: Xvfb picks it and writes its number to fd 3 once it accepts clients.
Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$dir/display" 2>"$dir/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$dir/display" ] && break; sleep 0.05; done
[ -s "$dir/display" ] || fail "Xvfb did not start: $(cat "$dir/xvfb.log")"
export DISPLAY=:$(cat "$dir/display")

# The desktop's UI font, set as a desktop sets it for GTK (XDG_CONFIG_HOME is this test's own):
# the GTK app must lay out in it, and the figures the tests check must not depend on the machine's.
desktop_font="DejaVu Sans 10"
mkdir -p "$XDG_CONFIG_HOME/gtk-4.0"
printf '[Settings]\ngtk-font-name=%s\n' "$desktop_font" >"$XDG_CONFIG_HOME/gtk-4.0/settings.ini"
unset TMUX  # a tmux of our own (-S) even when the tests run inside one

# GTK on plain X with the cairo renderer (Xvfb has no GPU), no accessibility bus to wait for.
run_gtk() {
  GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 \
    "$GTK_PY" clients/examples/gtk_app.py --state-file "$gtk_state" "$@" 2>"$dir/gtk.log" &
  gtk_pid=$!
}
run_terminal() {
  local columns=$1; shift
  tmux -S "$dir/tmux" new-session -d -s fit -x "$columns" -y 24 \
    "$FITD_PY clients/examples/terminal_app.py --state-file $term_state $* 2>$dir/terminal.log"
}

# state FILE EXPR: EXPR (Python, over the state s) on the app's latest state.
state() { "$PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }
# wait_for FILE EXPR WHAT: polls (up to 10 s) until EXPR is true of the state.
wait_for() {
  local i
  for i in $(seq 200); do
    [ -s "$1" ] && [ "$(state "$1" "$2" 2>/dev/null)" = True ] && return 0
    kill -0 "$gtk_pid" 2>/dev/null || fail "the GTK app exited: $(tail -n 5 "$dir/gtk.log")"
    sleep 0.05
  done
  fail "$3: not within 10 s; state: $(cat "$1" 2>/dev/null); logs: $(tail -n 5 "$dir/gtk.log" "$dir/terminal.log" 2>/dev/null)"
}
pane() { tmux -S "$dir/tmux" capture-pane -p -t fit; }
# screenshot NAME: the X screen as the user sees it; fails when it is one flat colour.
screenshot() {
  import -window root "$dir/$1.png" || fail "import -window root failed"
  local colours
  colours=$(convert "$dir/$1.png" -format '%k' info:)
  [ "$colours" -ge 32 ] || fail "screenshot $1 has $colours colours: the window shows nothing"
  echo "$colours"
}
# The labels are real GTK widgets where fitd put them, in a font that GTK's own Pango measures
# as fitd did: each label's width as GTK measures it is fitd's frame width.
check_labels() {
  local bad
  bad=$(state "$gtk_state" '[(k, l["frame_width"], l["pango_width"]) for k, l in s["labels"].items() if l["lines"] == 1 and abs(l["frame_width"] - l["pango_width"]) > 0.01] + [(k, s["drawn"][k], a) for k, a in s["allocated"].items() if a is None or abs(a[0] - s["drawn"][k][0]) > 0.01 or abs(a[1] - s["drawn"][k][1]) > 0.01]')
  assert_eq "$bad" "[]" "GTK labels whose Pango width is not fitd's, or widgets not at fitd's frames ($1)"
}
# quit_terminal: q quits the terminal app, leaving its terminal as it was (tmux closes the
# window when it ends), and it wrote nothing to stderr.
quit_terminal() {
  tmux -S "$dir/tmux" send-keys -t fit q
  for _ in $(seq 100); do tmux -S "$dir/tmux" has-session -t fit 2>/dev/null || break; sleep 0.05; done
  tmux -S "$dir/tmux" has-session -t fit 2>/dev/null && fail "the terminal app did not quit on q"
  [ ! -s "$dir/terminal.log" ] || fail "the terminal app wrote to stderr: $(cat "$dir/terminal.log")"
}
