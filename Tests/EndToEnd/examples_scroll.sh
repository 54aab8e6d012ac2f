#!/usr/bin/env bash
# The two example apps (clients/examples) on a nested document whose nodes have no ids and
# whose week of values sits in a horizontal scroll wider than the window and the terminal
# (clients/examples/steps-week.json). fitd names id-less nodes "#<index>" and their forEach
# copies "#<index>#<row>": both apps must draw every frame without an error. The GTK app puts
# the scroll's content in a GtkScrolledWindow: the last value is out of view at 400 px and in
# view after the wheel scrolls it (xdotool, as a user would). The terminal app (tmux, 44
# columns) shows the week clipped with a ">" where there is more: after the Right key the
# last value is on the screen (capture-pane), and the first is not.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"
source "$(dirname "$0")/examples-lib.bash"

doc=clients/examples/steps-week.json
last="11,873 steps" first="7,204 steps"
run_gtk --document "$doc" --width 400 --height 300
run_terminal 44 --document "$doc"

laid_out='s.get("layouts", 0) >= 1 and "error" not in s'
wait_for "$gtk_state" "$laid_out" "the GTK app lays out $doc"
wait_for "$term_state" "$laid_out" "the terminal app lays out $doc"
[ ! -s "$dir/gtk.log" ] || fail "the GTK app wrote to stderr: $(cat "$dir/gtk.log")"
# What makes this document the case: texts that are forEach copies of id-less nodes.
copies=$(state "$gtk_state" 'sorted(k for k in s["labels"] if k.startswith("#") and k.count("#") == 2)')
[ "$copies" != "[]" ] || fail "no label is a copy of an id-less node: $(state "$gtk_state" 'sorted(s["labels"])')"
check_labels "start"
id=$(state "$gtk_state" "[k for k, l in s['labels'].items() if l['text'] == '$last'][0]")
first_id=$(state "$gtk_state" "[k for k, l in s['labels'].items() if l['text'] == '$first'][0]")
scroll=$(state "$gtk_state" '[k for k, v in s["scrolls"].items() if v["axis"] == "horizontal"][0]')
assert_eq "$(state "$gtk_state" "s['in_view']['$id']")" False "the GTK app's last value ($id) in view before scrolling"
ok "both apps draw the id-less document (forEach copies $copies); the GTK week is wider than its scroll ($(state "$gtk_state" "s['scrolls']['$scroll']['content'][0]") px in $(state "$gtk_state" "s['scrolls']['$scroll']['window'][2]"))"

# GTK: the pointer over the scroll, the horizontal wheel (button 7) turned until the end.
screenshot before >/dev/null
window=$(xdotool search --sync --name '^fitd example' | head -n 1)
read -r x y < <(state "$gtk_state" "' '.join(str(int(v)) for v in (s['scrolls']['$scroll']['window'][0] + s['scrolls']['$scroll']['window'][2] / 2, s['scrolls']['$scroll']['window'][1] + s['scrolls']['$scroll']['window'][3] / 2))")
xdotool mousemove --window "$window" "$x" "$y"
xdotool click --repeat 20 --delay 20 7
wait_for "$gtk_state" "s['reason'] == 'scroll' and s['in_view']['$id'] and not s['in_view']['$first_id']" \
  "the GTK app's last value in view after the wheel"
check_labels "scrolled"
screenshot after >/dev/null
differs=$(compare -metric AE "$dir/before.png" "$dir/after.png" null: 2>&1 || true)
[ "${differs%%[!0-9]*}" -gt 0 ] || fail "the screen did not change when the GTK app's week scrolled"
ok "GTK: the wheel scrolls the week by $(state "$gtk_state" "s['scrolls']['$scroll']['offset'][0]") px: '$last' in view, '$first' out of it"

# Terminal: clipped, with a marker, until the Right key brings the last value in.
screen=$(pane)
grep -qF "$last" <<<"$screen" && fail "the terminal shows '$last' before scrolling: the week does not overflow 44 columns:"$'\n'"$screen"
grep -qE '>$' <<<"$screen" || fail "the terminal's week shows no '>' where there is more:"$'\n'"$screen"
for _ in $(seq 15); do tmux -S "$dir/tmux" send-keys -t fit Right; done
wait_for "$term_state" "s['reason'] == 'scroll' and '$last' in sum(s['shown'].values(), [])" "the terminal app's last value after Right"
screen=$(pane)
grep -qF "$last" <<<"$screen" || fail "the terminal does not show '$last' after Right:"$'\n'"$screen"
grep -qF "$first" <<<"$screen" && fail "the terminal still shows '$first' after scrolling to the end:"$'\n'"$screen"
grep -qE '^<' <<<"$screen" || fail "the terminal's week shows no '<' where there is more:"$'\n'"$screen"
ok "terminal: Right scrolls the week by $(state "$term_state" "list(s['scrolls'].values())[0]['offset'][0]") cells: '$last' on the screen, '$first' off it"

quit_terminal
[ ! -s "$dir/gtk.log" ] || fail "the GTK app wrote to stderr: $(cat "$dir/gtk.log")"
ok "q quits the terminal app; neither app wrote to stderr"
