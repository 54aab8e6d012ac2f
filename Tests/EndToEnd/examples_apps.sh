#!/usr/bin/env bash
# The two example apps (clients/examples) against the built fitd on a private bus: the GTK 4 app
# in Xvfb and the terminal app in tmux lay out the same document. Both start horizontal (the
# payment row and the settings list as rows); after `fitctl scale set 2.0` both turn the payment
# row vertical within 3 s and report the same decisions; after both are made narrow both turn
# the settings list into columns. Checked on what each app reports (its --state-file), what
# the terminal shows (tmux capture-pane) and what the X server shows (a screenshot).
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

source "$(dirname "$0")/examples-lib.bash"

run_gtk --width 640 --height 480
run_terminal 44

decisions() { state "$1" 'sorted((k, sorted(v.items())) for k, v in s["decisions"].items())'; }
same_decisions() {
  local gtk term
  gtk=$(decisions "$gtk_state"); term=$(decisions "$term_state")
  assert_eq "$term" "$gtk" "the terminal app's decisions against the GTK app's ($1)"
}

horizontal='s["decisions"]["payment"]["axis"] == "horizontal" and s["decisions"]["settings"]["candidate"] == 0'
wait_for "$gtk_state" "$horizontal" "the GTK app lays out horizontally at 640 px"
wait_for "$term_state" "$horizontal" "the terminal app lays out horizontally at 44 cells"
same_decisions "start"
check_labels "start"
assert_eq "$(state "$gtk_state" 's["ui_font"]')" "$desktop_font" "the GTK app's ui_font"
assert_eq "$(state "$gtk_state" 'sorted({l["font"].rsplit(" ", 1)[0] for l in s["labels"].values()})')" "['DejaVu Sans']" \
  "the families of the GTK app's labels"
colours=$(screenshot start)
screen=$(pane)
grep -qE "Joe's Coffee Shop +\\\$2\\.34" <<<"$screen" || fail "the terminal's payment row is not one line:"$'\n'"$screen"
grep -q '^\* Screen time and notifications' <<<"$screen" || fail "the terminal's settings are not rows:"$'\n'"$screen"
ok "both apps horizontal: $(decisions "$gtk_state"); GTK screenshot of $colours colours, label widths as GTK's Pango"

# The user's text size: both apps hear GenerationChanged and lay out again. The peer: a bare
# listener that only notes when the signal arrives, so the apps' share of the time shows.
"$FITD_PY" -c '
import sys, time, fitd
fit = fitd.Client()  # kept: a Client dropped stops its thread, and its watch() with it
changes = fit.watch()
open(sys.argv[1] + ".ready", "w").close()
change = changes.get(timeout=10)
open(sys.argv[1], "w").write(repr(time.time()) if change else "none")' "$dir/signal" &
listener=$!
for _ in $(seq 200); do [ -e "$dir/signal.ready" ] && break; sleep 0.05; done
before=$("$PY" -c 'import time; print(time.time())')
# (Its note that the desktop still draws at 1.0 does not apply: both apps draw at fitd's sizes.)
"$FITCTL" scale set 2.0 >/dev/null 2>"$dir/scale.log" || fail "fitctl scale set 2.0: $(cat "$dir/scale.log")"
wait "$listener" || fail "the bare GenerationChanged listener failed"
signal_ms=$("$PY" -c 'import sys; print(round((float(open(sys.argv[1]).read()) - float(sys.argv[2])) * 1000))' "$dir/signal" "$before")
vertical='s["decisions"]["payment"]["axis"] == "vertical"'
wait_for "$gtk_state" "$vertical" "the GTK app turns the payment row vertical after scale 2.0"
wait_for "$term_state" "$vertical" "the terminal app turns the payment row vertical after scale 2.0"
gtk_ms=$(state "$gtk_state" "round((s['written_at'] - $before) * 1000)")
term_ms=$(state "$term_state" "round((s['written_at'] - $before) * 1000)")
[ "$gtk_ms" -le 3000 ] && [ "$term_ms" -le 3000 ] || fail "re-layout after scale 2.0 took GTK $gtk_ms ms, terminal $term_ms ms (limit 3000)"
same_decisions "scale 2.0"
check_labels "scale 2.0"
screenshot scaled >/dev/null
screen=$(pane)
grep -qE "^Joe's Coffee Shop *$" <<<"$screen" && grep -qE '^\$2\.34 *$' <<<"$screen" \
  || fail "the terminal's payment row is not vertical:"$'\n'"$screen"
ok "scale 2.0: both vertical (GTK after $gtk_ms ms, terminal after $term_ms ms; the signal reached a bare listener after $signal_ms ms), same decisions: $(decisions "$term_state")"

# Narrow windows: the settings list turns into columns, every item at once.
columns='s["decisions"]["settings"]["candidate"] == 1'
tmux -S "$dir/tmux" resize-window -t fit -x 28 -y 30
xdotool search --sync --name '^fitd example' windowsize 300 600 >/dev/null
wait_for "$gtk_state" "$columns and s['proposal']['width'] < 300" "the GTK app's settings become columns at 300 px"
wait_for "$term_state" "$columns and s['proposal']['width'] == 28" "the terminal app's settings become columns at 28 cells"
same_decisions "narrow"
check_labels "narrow"
screenshot narrow >/dev/null
differs=$(compare -metric AE "$dir/scaled.png" "$dir/narrow.png" null: 2>&1 || true)
[ "${differs%%[!0-9]*}" -gt 0 ] || fail "the screen did not change after the GTK window was resized"
screen=$(pane)
grep -qE '^\* *$' <<<"$screen" && grep -qE '^Wi-Fi *$' <<<"$screen" \
  || fail "the terminal's settings are not columns at 28 cells:"$'\n'"$screen"
ok "narrow (GTK $(state "$gtk_state" 's["proposal"]["width"]') px, terminal 28 cells): both columns, same decisions: $(decisions "$gtk_state")"

quit_terminal
ok "q quits the terminal app, nothing on stderr"

# A document fitd refuses: the app says why (the daemon's message, naming the node) and exits 1.
kill "$gtk_pid"; gtk_pid=""
printf '{"version": 1, "nodes": [{"id": "title", "kind": "text", "text": "Hi", "colour": "red"}]}' >"$dir/bad.json"
status=0
GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 \
  timeout 20 "$GTK_PY" clients/examples/gtk_app.py --document "$dir/bad.json" 2>"$dir/bad.log" || status=$?
assert_eq "$status" 1 "the GTK app's exit status on a refused document"
grep -q 'gtk_app: .*node 0 (id "title").*colour' "$dir/bad.log" || fail "the GTK app's error does not name the node and property: $(cat "$dir/bad.log")"
ok "a refused document: the GTK app exits 1 with fitd's message: $(grep -o 'node 0.*' "$dir/bad.log" | cut -c1-80)"
