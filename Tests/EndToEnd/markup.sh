#!/usr/bin/env bash
# The markup option end to end, through the daemon: fitctl --markup, the batch "markup"
# field, the D-Bus option "markup" (b), and malformed markup as a named error with
# GMarkup's position. Widths are Pango's (pango_layout_set_markup, pinned fonts).
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$FITCTL" measure "<b>Save</b> changes" --markup --font "DejaVu Sans 10" --json >"$work/out" \
  || fail "fitctl --markup failed"
assert_eq "$(json_get 'repr(d["width"])' <"$work/out")" 96.5849609375 "<b>Save</b> changes, DejaVu Sans 10 (Pango 96.58)"
"$FITCTL" measure "<b>Save</b> changes" --font "DejaVu Sans 10" --json >"$work/plain" || fail "plain measure failed"
assert_eq "$(json_get 'repr(d["width"])' <"$work/plain")" 159.0830078125 "without --markup the tags are text"
ok "--markup: <b>Save</b> changes is 96.58 px wide, as Pango draws it; without it, the tags are text"

printf '%s\n' '{"text":"x<sup>2</sup>","font":"DejaVu Sans 10","markup":true}' \
  '{"text":"<b>x","font":"DejaVu Sans 10","markup":true}' '{"text":"x","markup":"yes"}' \
  | "$FITCTL" measure --batch >"$work/batch" && fail "batch with bad lines exited 0" \
  || assert_eq "$?" 2 "batch exit status with bad lines"
assert_eq "$(sed -n 1p "$work/batch" | json_get 'repr((d["width"], d["height"]))')" "(13.8251953125, 18.2021484375)" \
  "x<sup>2</sup> (Pango 13.83 x 18.20)"
sed -n 2p "$work/batch" | grep -q 'invalid markup: Error on line 1 char 21: Element “markup” was closed, but the currently open element is “b”' \
  || fail "unclosed <b> in a batch: $(sed -n 2p "$work/batch")"
sed -n 3p "$work/batch" | grep -q '"error":"invalid markup' || fail "markup: \"yes\": $(sed -n 3p "$work/batch")"
ok "batch: \"markup\": true measures markup; errors are per line"

if "$FITCTL" measure "<b>Save</i>" --markup >"$work/out" 2>"$work/err"; then fail "malformed markup succeeded"; fi
grep -q 'line 1 char 19: Element “i” was closed, but the currently open element is “b”' "$work/err" \
  || fail "malformed markup error: $(cat "$work/err")"
ok "malformed markup: $(cat "$work/err")"

# The raw D-Bus option: a boolean, anything else is InvalidArgs naming it.
"$PY" - <<'PY' || fail "D-Bus markup option"
import dbus
bus = dbus.SessionBus()
fit = dbus.Interface(bus.get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
m = fit.Measure("<i>Save</i> changes", "DejaVu Sans 10", {"markup": dbus.Boolean(True)})
assert abs(float(m[0]) - 92.98) < 0.01, m[0]
try:
    fit.Measure("x", "", {"markup": dbus.String("yes")})
    raise SystemExit("a string markup option was accepted")
except dbus.DBusException as e:
    assert "markup" in e.get_dbus_message(), e.get_dbus_message()
PY
ok "D-Bus: Measure with {markup: true} measures <i>Save</i> changes at 92.98 px; a non-boolean is refused"
