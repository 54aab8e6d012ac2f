#!/usr/bin/env bash
# libfitd-gtk (clients/c/gtk) in real GTK 4 windows under Xvfb, with fitd on a private bus:
# 1. gtk_widget_check.py (PyGObject on the built FitdGtk typelib): a settings list in one
#    FitUniformGroup, a row of its own and a FitThresholdBox. fitd decides them; each flip is
#    where GTK's own natural width is (± 1 px); one px either side of it the rows show what the
#    flip says and GTK ellipsizes no label of the shown layout; `fitctl scale set 2` turns the
#    threshold box vertical and the rows ask again.
# 2. The same with no session bus: GTK's measuring decides, at the same widths.
# 3. GTK and fitd at text scale 2 (an XSETTINGS manager's Xft/DPI, which both follow): the
#    flips move to GTK's doubled widths and the threshold box is vertical.
# 4. The C example app (fitd-gtk-example) at scales 1 and 2 and two window widths each: its
#    rows report the layout fitd chose; a screenshot of each is not blank (kept in
#    $FITD_GTK_SCREENSHOTS when set: docs/pictures/gtk-widget-*.png come from it).
# The library builds before the private bus, outside its time limit.
source "$(dirname "$0")/lib.bash"

if [ -z "${E2E_INNER:-}" ]; then
  pkg-config --exists gtk4 || skip "no GTK 4 development files (scripts/bootstrap installs libgtk-4-dev)"
  GTK_WORK=$(mktemp -d "${TMPDIR:-/tmp}/fitd-gtk-widget.XXXXXX")
  export GTK_WORK
  trap 'rm -rf "$GTK_WORK"' EXIT
  scripts/c-client "$GTK_WORK/build" "$GTK_WORK/prefix" >"$GTK_WORK/build.log" 2>&1 \
    || fail "scripts/c-client: $(tail -20 "$GTK_WORK/build.log")"
  [ -f "$GTK_WORK/build/gtk/FitdGtk-1.0.typelib" ] || fail "the build made no FitdGtk typelib"
  [ -f "$GTK_WORK/build/gtk/fitd-gtk.vapi" ] || fail "the build made no fitd-gtk VAPI"
  ok "libfitd-gtk built: library, GIR/typelib FitdGtk-1.0, VAPI, example app"
  # GJS and Vala see the same types through the GIR and the VAPI (no display needed to
  # construct them; GTK's init is what needs one, so these stop short of it).
  if command -v gjs >/dev/null; then
    out=$(GI_TYPELIB_PATH=$GTK_WORK/build/gtk LD_LIBRARY_PATH=$GTK_WORK/build/gtk:$GTK_WORK/build gjs -c '
      imports.gi.versions.Gtk = "4.0";
      const FitdGtk = imports.gi.FitdGtk;
      print(FitdGtk.ViewThatFits.$gtype.name, FitdGtk.UniformGroup.$gtype.name, FitdGtk.ThresholdBox.$gtype.name,
            FitdGtk.DecisionSource.FITD);' 2>&1) || fail "GJS: $out"
    assert_eq "$out" "FitViewThatFits FitUniformGroup FitThresholdBox 1" "the types GJS sees"
    ok "GJS: FitdGtk.ViewThatFits, UniformGroup, ThresholdBox from the typelib"
  else
    fail "GJS: gjs is not installed (scripts/bootstrap installs it with the C client's test packages)"
  fi
  if command -v valac >/dev/null; then
    cat >"$GTK_WORK/row.vala" <<'VALA'
int main () {
    var row = new FitdGtk.ViewThatFits ();
    var group = new FitdGtk.UniformGroup ();
    group.add (row);
    var box = new FitdGtk.ThresholdBox ("accessibilityLarge");
    return row.get_candidate_index () == -1 && box.category == "accessibilityLarge" ? 0 : 1;
}
VALA
    valac --vapidir "$GTK_WORK/build/gtk" --pkg fitd-gtk --pkg gtk4 -X -I"$ROOT/clients/c/gtk" \
      -X -L"$GTK_WORK/build/gtk" -X -lfitd-gtk -o "$GTK_WORK/row" "$GTK_WORK/row.vala" >"$GTK_WORK/valac.log" 2>&1 \
      || fail "a Vala program on fitd-gtk.vapi does not build: $(tail -5 "$GTK_WORK/valac.log")"
    ok "Vala: a program on fitd-gtk.vapi builds"
  else
    fail "Vala: valac is not installed (scripts/bootstrap installs it with the C client's build tools)"
  fi
  E2E_TIMEOUT=150 on_private_bus "$@"
fi

for tool in Xvfb xsettingsd import convert dbus-update-activation-environment; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/bootstrap installs it)"
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/fitd-gtk-widget-run.XXXXXX")
xvfb_pid="" manager=""
cleanup() {
  [ -z "$manager" ] || kill "$manager" 2>/dev/null || true
  [ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$dir/display" 2>"$dir/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$dir/display" ] && break; sleep 0.05; done
[ -s "$dir/display" ] || fail "Xvfb did not start: $(cat "$dir/xvfb.log")"
export DISPLAY=:$(cat "$dir/display")
# fitd, started by activation, follows this display's settings as the apps do.
dbus-update-activation-environment DISPLAY="$DISPLAY"
export GDK_BACKEND=x11 GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1
export GI_TYPELIB_PATH=$GTK_WORK/build/gtk:$GTK_WORK/build LD_LIBRARY_PATH=$GTK_WORK/build/gtk:$GTK_WORK/build
mkdir -p "$XDG_CONFIG_HOME/gtk-4.0"
printf '[Settings]\ngtk-font-name=DejaVu Sans 10\n' >"$XDG_CONFIG_HOME/gtk-4.0/settings.ini"
check() { "$PY" Tests/EndToEnd/gtk_widget_check.py --fitctl "$FITCTL" "$@" 2>&1 | sed 's/^/  /'; return "${PIPESTATUS[0]}"; }

echo "$TEST: text scale 1"
check --scale-change || fail "at text scale 1"
echo "$TEST: no session bus"
DBUS_SESSION_BUS_ADDRESS=unix:path=$dir/no-bus check --no-daemon || fail "with no daemon"

# screenshot NAME WIDTH: the example app at WIDTH, once its rows report fitd's choice.
example() {
  local name=$1 width=$2 want=$3 pid i
  FITD_GTK_EXAMPLE_REPORT=1 "$GTK_WORK/build/gtk/fitd-gtk-example" "$width" >"$dir/$name.out" 2>"$dir/$name.err" &
  pid=$!
  for i in $(seq 200); do
    [ "$(grep -c "candidate $want from fitd" "$dir/$name.out")" -ge 3 ] && grep -q "^payment .* from fitd" "$dir/$name.out" && break
    sleep 0.05
  done
  grep -q "candidate $want from fitd" "$dir/$name.out" || { kill "$pid"; fail "$name: the rows did not report candidate $want from fitd: $(cat "$dir/$name.out" "$dir/$name.err")"; }
  sleep 0.3
  import -window root -crop "${width}x400+0+0" "$dir/$name.png" || { kill "$pid"; fail "import failed"; }
  kill "$pid"; wait "$pid" 2>/dev/null || true
  local colours
  colours=$(convert "$dir/$name.png" -format '%k' info:)
  [ "$colours" -ge 32 ] || fail "screenshot $name has $colours colours: the window shows nothing"
  [ -z "${FITD_GTK_SCREENSHOTS:-}" ] || cp "$dir/$name.png" "$FITD_GTK_SCREENSHOTS/gtk-widget-$name.png"
  ok "example app $name (${width} px): rows on candidate $want from fitd, $(grep '^payment' "$dir/$name.out" | tail -1); screenshot $colours colours"
}
example scale1-wide 520 0
example scale1-narrow 380 1

echo "$TEST: text scale 2 (Xft/DPI 192 from an XSETTINGS manager, followed by GTK and fitd)"
printf 'Xft/DPI 196608\n' >"$dir/xsettingsd.conf"
xsettingsd -c "$dir/xsettingsd.conf" 2>"$dir/xsettingsd.err" &
manager=$!
for _ in $(seq 100); do
  [ "$("$FITCTL" scale --json 2>/dev/null | json_get "float(d['factor'])" 2>/dev/null)" = 2.0 ] && break
  sleep 0.05
done
[ "$("$FITCTL" scale --json | json_get "float(d['factor'])")" = 2.0 ] || fail "fitd did not follow Xft/DPI 192: $("$FITCTL" scale)"
check --expect-axis vertical || fail "at text scale 2"
example scale2-wide 900 0
example scale2-narrow 640 1
