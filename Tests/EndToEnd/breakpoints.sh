#!/usr/bin/env bash
# The Layout option `breakpoints` end to end, through the D-Bus-activated daemon: fitctl fit
# --breakpoints (text and JSON), the raw D-Bus option (dd) and the root frame's extras, the
# Python client, and bad ranges as InvalidArgument naming the option. Pinned fonts.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
card=protocol/examples/first-fit-card.json

"$FITCTL" fit "$card" --width 320 --breakpoints 100:600 >"$work/out" || fail "fitctl fit --breakpoints failed"
grep -qx 'breakpoints 100–600 px: min-content 17.8, max-content 173.29' "$work/out" \
  || fail "content widths: $(cat "$work/out")"
grep -qx '  card (firstFit): 100–173 candidate 1; 174–600 candidate 0' "$work/out" || fail "card: $(cat "$work/out")"
grep -qxE '    exact flips: 173\.2[89][0-9]* px = 173\.2[89][0-9]* sp' "$work/out" || fail "exact flips: $(cat "$work/out")"
ok "fitctl fit --breakpoints 100:600: the card is a column up to 173 px, a row from 174 (its row is 173.29 wide in GTK's Sans 10), exactly from 173.29"

"$FITCTL" fit "$card" --width 320 --breakpoints 100:600 --json >"$work/json" || fail "--json failed"
assert_eq "$(json_get 'repr([(i["from"], i["to"], i["candidate"]) for i in d["breakpoints"]["decisions"]["card"]])' <"$work/json")" \
  "[(100, 173, 1), (174, 600, 0)]" "--json breakpoints"
ok "fitctl fit --breakpoints --json carries the same intervals"

if "$FITCTL" fit "$card" --breakpoints 600:100 >/dev/null 2>"$work/err"; then fail "--breakpoints 600:100 succeeded"; fi
grep -q -- '--breakpoints 600:100' "$work/err" || fail "--breakpoints 600:100: $(cat "$work/err")"
ok "fitctl refuses MIN > MAX naming --breakpoints"

# The raw option on the bus: (dd); the reply's root frame carries the breakpoints in its extras,
# the other frames and the decisions are as without the option.
"$PY" - "$card" <<'PY' || fail "D-Bus breakpoints option"
import json, math, sys
import dbus

bus = dbus.SessionBus()
fit = dbus.Interface(bus.get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
doc = json.load(open(sys.argv[1]))
# The example is flat with parents named by id: the wire's parent indices, by hand.
index = {n["id"]: i for i, n in enumerate(doc["nodes"])}
nodes = dbus.Array([dbus.Struct((n["id"], n["kind"], dbus.Int32(index[n["parent"]] if "parent" in n else -1),
                                 dbus.Dictionary({k: dbus.Double(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
                                                  for k, v in n.items() if k not in ("id", "kind", "parent")}, signature="sv")))
                    for n in doc["nodes"]], signature="(ssia{sv})")
proposal = dbus.Struct((True, 320.0, False, 0.0))

def layout(options):
    return fit.Layout(nodes, proposal, dbus.Dictionary(options, signature="sv"))

plain = layout({})
size, frames, decisions, truncated, generation = layout({"breakpoints": dbus.Struct((100.0, 600.0), signature="dd")})
root = frames[0][13]
assert {str(k) for k in root} == {"min_content_width", "max_content_width", "breakpoint_range", "breakpoints", "breakpoint_flips",
                                  "breakpoint_text_scale"}, root
assert float(root["breakpoint_text_scale"]) == 1.0, root
flips = [(str(i), [float(x) for x in starts]) for i, starts in root["breakpoint_flips"]]
assert flips[0][0] == "card" and flips[0][1][0] == 100.0, flips
# The row is shown from its own width: the max-content width, to Pango's 1/1024 px.
assert abs(flips[0][1][1] - float(root["max_content_width"])) <= 1 / 1024, (flips, root["max_content_width"])
assert abs(float(root["max_content_width"]) - 173.29) < 0.01, root["max_content_width"]
assert tuple(float(v) for v in root["breakpoint_range"]) == (100.0, 600.0)
assert [(str(i), [tuple(x) for x in iv]) for i, iv in root["breakpoints"]] == \
    [("card", [(100.0, 173.0, 1, ""), (174.0, 600.0, 0, "")])], root["breakpoints"]
assert all(len(f[13]) == 0 for f in frames[1:]) and list(decisions) == list(plain[2]) and size == plain[0]

for bad in [(float("nan"), 10.0), (0.0, float("inf")), (20.0, 10.0), (-1.0, 10.0), (0.0, 2e6)]:
    try:
        layout({"breakpoints": dbus.Struct(bad, signature="dd")})
        raise SystemExit(f"breakpoints {bad} was accepted")
    except dbus.DBusException as e:
        assert e.get_dbus_name() == "org.fitd.Fit1.Error.InvalidArgument", (bad, e.get_dbus_name())
        assert "breakpoints" in e.get_dbus_message(), e.get_dbus_message()
try:
    layout({"breakpoints": dbus.Double(100)})
    raise SystemExit("a d breakpoints was accepted")
except dbus.DBusException as e:
    assert "breakpoints" in e.get_dbus_message(), e.get_dbus_message()
PY
"$FITD_PY" - "$card" <<'PY' || fail "the Python package's breakpoints"
import pathlib, sys
import fitd
client = fitd.Client()
found = client.layout(pathlib.Path(sys.argv[1]), width=320, breakpoints=(100, 600)).breakpoints
row = found.decisions["card"][1]
assert (row.start, row.end, row.candidate, row.axis) == (174.0, 600.0, 0, None), found
assert abs(row.exact_start - found.max_content_width) <= 1 / 1024, found
assert found.text_scale == 1.0, found
assert client.layout(pathlib.Path(sys.argv[1]), width=320).breakpoints is None
PY
ok "D-Bus: breakpoints (dd) → the root frame's extras; NaN, inf, min > max, negative, > 1e6 and a d are InvalidArgument naming it"
