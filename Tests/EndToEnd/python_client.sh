#!/usr/bin/env bash
# Python's dbus library (Debian's python3-dbus), a client no one here wrote: options reach
# the engine (per-line texts come back), and every kind of bad call gets its named error.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

"$PY" - <<'PY' || fail "see above"
import sys
import dbus

bus = dbus.SessionBus()
proxy = bus.get_object("org.fitd.Fit1", "/org/fitd/Fit1")  # introspected: python-dbus types the a{sv}
fit = dbus.Interface(proxy, "org.fitd.Fit1")
failures = []

def check(what, condition, detail=""):
    if condition:
        print(f"python_client: ok: {what}")
    else:
        failures.append(what)
        print(f"python_client: FAIL: {what} {detail}", file=sys.stderr)

def error_of(call):
    try:
        call()
    except dbus.DBusException as e:
        return e.get_dbus_name(), e.get_dbus_message()
    return None, None

def raw(interface, member, signature, args):
    """A call with exactly this signature, whatever the introspection says."""
    return bus.call_blocking("org.fitd.Fit1", "/org/fitd/Fit1", interface, member, signature, args)

# Plain: Pango's width for this string (Tests/oracle).
m = fit.Measure("Hello, world", "DejaVu Sans 12", {})
check("Measure width 94.78125, 1 line, DejaVu Sans", (float(m[0]), int(m[3]), list(m[6])) == (94.78125, 1, ["DejaVu Sans"]), m)

# Wrapping, a line limit and an ellipsis, with the per-line texts.
m = fit.Measure("The quick brown fox jumps over the lazy dog", "DejaVu Sans 10",
                {"max_width": 100.0, "wrap": "word", "max_lines": dbus.UInt32(2), "ellipsize": "end", "lines": True})
width, height, baseline, count, ellipsized, truncated, fonts, lines, generation = m
texts = [str(line[6]) for line in lines]
check("wrap + max_lines 2 + ellipsize end: 2 lines, ellipsized and truncated",
      (int(count), bool(ellipsized), bool(truncated), len(lines)) == (2, True, True, 2), m)
check("per-line texts: 'The quick ' then an ellipsized second line",
      texts[0] == "The quick " and texts[1].endswith("…") and texts[1].startswith("brown") and bool(lines[1][7]), texts)
check("no line wider than max_width 100", all(float(line[0]) <= 100 for line in lines), [float(l[0]) for l in lines])
check("line starts/lengths tile the text: 0+10, 10+…", (int(lines[0][4]), int(lines[0][5]), int(lines[1][4])) == (0, 10, 10), lines)
check("generation 1", int(generation) == 1, generation)

# Without lines=true no per-line metrics; without ellipsize the text is cut at max_lines.
m = fit.Measure("The quick brown fox jumps over the lazy dog", "DejaVu Sans 10",
                {"max_width": 100.0, "max_lines": dbus.UInt32(2)})
check("max_lines without ellipsize: 2 lines, truncated, not ellipsized, no line list",
      (int(m[3]), bool(m[5]), bool(m[4]), len(m[7])) == (2, True, False, 0), m)
narrow = fit.Measure("The quick brown fox", "DejaVu Sans 10", {"max_width": 60.0, "wrap": "char", "lines": True})
check("wrap char: every line within 60 px", all(float(l[0]) <= 60 for l in narrow[7]) and int(narrow[3]) >= 2, narrow)

name, message = error_of(lambda: fit.Measure("x", "DejaVu Sans 12", {"max_widht": 10.0}))
check("unknown option -> org.fitd.Fit1.Error.UnknownOption naming it",
      name == "org.fitd.Fit1.Error.UnknownOption" and "max_widht" in message, (name, message))
name, message = error_of(lambda: fit.Measure("x", "DejaVu Sans 12", {"max_width": "wide"}))
check("wrong option type -> org.fitd.Fit1.Error.InvalidArgument",
      name == "org.fitd.Fit1.Error.InvalidArgument" and "max_width" in message, (name, message))
name, message = error_of(lambda: fit.Measure("x", "DejaVu Sans 12", {"wrap": "sometimes"}))
check("unknown wrap word -> InvalidArgument", name == "org.fitd.Fit1.Error.InvalidArgument", (name, message))
name, message = error_of(lambda: raw("org.fitd.Fit1", "Measure", "i", (3,)))
check("Measure(i) -> org.freedesktop.DBus.Error.InvalidArgs", name == "org.freedesktop.DBus.Error.InvalidArgs", (name, message))
name, message = error_of(lambda: raw("org.fitd.Fit1", "Measure", "ss", ("x", "DejaVu Sans 12")))
check("Measure without options -> InvalidArgs", name == "org.freedesktop.DBus.Error.InvalidArgs", (name, message))
name, message = error_of(lambda: raw("org.fitd.Fit1", "MeasureEverything", "", ()))
check("unknown method -> org.freedesktop.DBus.Error.UnknownMethod", name == "org.freedesktop.DBus.Error.UnknownMethod", (name, message))
name, message = error_of(lambda: raw("org.freedesktop.DBus.Properties", "Get", "ss", ("org.fitd.Fit1", "Colour")))
check("Get of an unknown property -> org.freedesktop.DBus.Error.UnknownProperty",
      name == "org.freedesktop.DBus.Error.UnknownProperty", (name, message))
name, message = error_of(lambda: raw("org.freedesktop.DBus.Properties", "Set", "ssv", ("org.fitd.Fit1", "Version", "9")))
check("Set of a read-only property -> org.freedesktop.DBus.Error.PropertyReadOnly",
      name == "org.freedesktop.DBus.Error.PropertyReadOnly", (name, message))
name, message = error_of(lambda: raw("org.fitd.Fit2", "Measure", "ssa{sv}", ("x", "", {})))
check("unknown interface -> org.freedesktop.DBus.Error.UnknownInterface",
      name == "org.freedesktop.DBus.Error.UnknownInterface", (name, message))
name, message = error_of(lambda: bus.call_blocking("org.fitd.Fit1", "/org/fitd/Nope", "org.fitd.Fit1", "Measure", "ssa{sv}", ("x", "", {})))
check("unknown object path -> org.freedesktop.DBus.Error.UnknownObject",
      name == "org.freedesktop.DBus.Error.UnknownObject", (name, message))
name, message = error_of(lambda: raw("org.freedesktop.DBus.Properties", "Set", "ssv", ("org.fitd.Fit1", "TextScale", "big")))
check("Set TextScale to a string -> org.freedesktop.DBus.Error.InvalidArgs",
      name == "org.freedesktop.DBus.Error.InvalidArgs", (name, message))
props = raw("org.freedesktop.DBus.Properties", "GetAll", "s", ("org.fitd.Fit1",))
check("GetAll has Version and Generation", {"Version", "Generation"} <= set(props), props)

# The daemon is still fine after all that.
m = fit.Measure("Hello, world", "DejaVu Sans 12", {})
check("still answers after the errors", float(m[0]) == 94.78125, m)
sys.exit(1 if failures else 0)
PY
