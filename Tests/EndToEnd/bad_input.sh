#!/usr/bin/env bash
# Bad input costs only its sender: a 100 MB message (the bus refuses it), batches over the
# limit (10,001 and 100,000 entries), a 10 MB text, NaN and infinite numbers, an unknown
# font, an empty batch. Each gets its named error (or its defined result) fast, the same
# daemon keeps serving a second client throughout, and its memory comes back afterwards.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

work=$(mktemp -d)
watcher=""
cleanup() { [ -n "$watcher" ] && kill "$watcher" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

bcall Measure 'ssa{sv}' warm-up "" 0 >/dev/null  # activation
pid=$(daemon_pid)
[ -n "$pid" ] || fail "no daemon after the first call"

# Another client measures every 10 ms for the whole test; any failure or wrong answer counts.
cat >"$work/watcher.py" <<'PY'
import os, sys, time
import dbus
stop, report = sys.argv[1], sys.argv[2]
fit = dbus.Interface(dbus.SessionBus().get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
calls, failures, worst = 0, [], 0.0
while not os.path.exists(stop):
    t = time.perf_counter()
    try:
        m = fit.Measure("Hello, world", "DejaVu Sans 12", dbus.Dictionary({}, signature="sv"), timeout=10)
        if float(m[0]) != 94.78125:
            failures.append(f"width {float(m[0])}")
    except dbus.DBusException as e:
        failures.append(e.get_dbus_name())
    worst = max(worst, time.perf_counter() - t)
    calls += 1
    time.sleep(0.01)
open(report, "w").write(f"{calls} {len(failures)} {worst * 1000:.1f} {' '.join(failures[:3])}\n")
PY
"$PY" "$work/watcher.py" "$work/stop" "$work/watcher.out" & watcher=$!

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }

"$PY" - "$pid" <<'PY' || fail "see above"
import math, sys, time
import dbus

bus = dbus.SessionBus()
fit = dbus.Interface(bus.get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
pid = sys.argv[1]
empty = dbus.Dictionary({}, signature="sv")
failures = []

def check(what, condition, detail=""):
    print(f"bad_input: {'ok' if condition else 'FAIL'}: {what}" + ("" if condition else f" {detail}"),
          file=sys.stdout if condition else sys.stderr)
    if not condition:
        failures.append(what)

def call(f):
    """(error name, message, seconds) of a call expected to fail; name None if it succeeded."""
    t = time.perf_counter()
    try:
        result = f()
        return None, result, time.perf_counter() - t
    except dbus.DBusException as e:
        return e.get_dbus_name(), e.get_dbus_message(), time.perf_counter() - t

def batch(n, text="entry"):
    return dbus.Array([(f"{text} {i}", "DejaVu Sans 11", empty) for i in range(n)], signature="(ssa{sv})")

for number, label in [(math.nan, "NaN"), (math.inf, "inf"), (-math.inf, "-inf")]:
    name, message, _ = call(lambda: fit.Measure("x", "DejaVu Sans 12", {"max_width": number}))
    check(f"max_width {label} -> InvalidArgument", name == "org.fitd.Fit1.Error.InvalidArgument", (name, message))
name, message, _ = call(lambda: fit.Measure("x", "DejaVu Sans 12", {"letter_spacing": math.nan}))
check("letter_spacing NaN -> InvalidArgument", name == "org.fitd.Fit1.Error.InvalidArgument", (name, message))
name, message, _ = call(lambda: fit.Measure("x", "DejaVu Sans 12", {"text_scale": math.inf}))
check("text_scale inf -> InvalidArgument", name == "org.fitd.Fit1.Error.InvalidArgument", (name, message))
name, message, _ = call(lambda: fit.Measure("x", f"DejaVu Sans {'9' * 400}", empty))
check("font size 99…9 (400 digits) -> InvalidFont", name == "org.fitd.Fit1.Error.InvalidFont", (name, message))

m = fit.Measure("Hello, world", "No Such Family 12", empty)
check("unknown family: measured, fonts names the substitute DejaVu Sans",
      list(m[6]) == ["DejaVu Sans"] and float(m[0]) == 94.78125, m)
f = fit.ResolveFont("No Such Family 12")
check("unknown family: ResolveFont says matched false, family DejaVu Sans", (bool(f[8]), str(f[1])) == (False, "DejaVu Sans"), f)

name, result, seconds = call(lambda: fit.MeasureBatch(dbus.Array([], signature="(ssa{sv})")))
check("empty batch -> empty result", name is None and len(result) == 0, (name, result))

name, message, seconds = call(lambda: fit.Measure("x" * (10 << 20), "DejaVu Sans 12", empty))
check(f"10 MB text -> TooLarge naming the limit ({seconds * 1000:.0f} ms)",
      name == "org.fitd.Fit1.Error.TooLarge" and "1048576" in message and "max_text_bytes" in message, (name, message))

big = batch(10_001)
name, message, seconds = call(lambda: fit.MeasureBatch(big))
check(f"batch of 10,001 -> TooLarge ({seconds * 1000:.0f} ms, python marshalling included)",
      name == "org.fitd.Fit1.Error.TooLarge" and "10000" in message and seconds < 2, (name, message, seconds))

# 100 MB in one message: over the bus's max_message_size, so dbus-daemon drops the sender's
# connection and the daemon never sees it. A private connection, so only it is lost.
private = dbus.SessionBus(private=True)
private.set_exit_on_disconnect(False)
huge = dbus.Interface(private.get_object("org.fitd.Fit1", "/org/fitd/Fit1", introspect=False), "org.fitd.Fit1")
name, message, seconds = call(lambda: huge.Measure("x" * 100_000_000, "DejaVu Sans 12", empty, signature="ssa{sv}", timeout=20))
check(f"100 MB message refused ({name}, {seconds:.1f} s)", name is not None and seconds < 20, (name, message))
m = fit.Measure("Hello, world", "DejaVu Sans 12", empty)
owner = bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "GetConnectionUnixProcessID", "s", ("org.fitd.Fit1",))
check("the same daemon answers the next call", float(m[0]) == 94.78125 and str(owner) == pid, (m, owner, pid))
sys.exit(1 if failures else 0)
PY

# 100,000 entries, twice: over the limit, refused fast, and the memory they took comes back
# (fitd trims its heap after a large request; without, RSS went 32 -> 83 -> 144 MiB).
before=$(rss_kb)
"$PY" - <<'PY' || fail "batch of 100,000"
import sys, time
import dbus
fit = dbus.Interface(dbus.SessionBus().get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
options = dbus.Dictionary({"max_width": dbus.Double(200)}, signature="sv")
batch = dbus.Array([(f"a batch entry of some length, number {i}", "DejaVu Sans 11", options)
                    for i in range(100_000)], signature="(ssa{sv})")
for attempt in (1, 2):
    t = time.perf_counter()
    try:
        fit.MeasureBatch(batch, timeout=30)
        sys.exit("bad_input: FAIL: a batch of 100,000 was accepted")
    except dbus.DBusException as e:
        seconds = time.perf_counter() - t
        ok = e.get_dbus_name() == "org.fitd.Fit1.Error.TooLarge" and seconds < 5
        print(f"bad_input: {'ok' if ok else 'FAIL'}: batch of 100,000 (#{attempt}) -> {e.get_dbus_name()} "
              f"in {seconds * 1000:.0f} ms: {e.get_dbus_message()}")
        if not ok:
            sys.exit(1)
PY
peak=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
for _ in $(seq 30); do after=$(rss_kb); [ "$after" -lt $((before * 3 / 2)) ] && break; sleep 0.1; done
echo "bad_input: daemon RSS before the 100,000 batches ${before} kB, after ${after} kB (peak ${peak} kB)"
[ "$after" -lt $((before * 3)) ] || [ "$after" -lt $((150 * 1024)) ] \
  || fail "daemon RSS grew from $before kB to $after kB after two refused batches"
[ "$after" -lt $((before * 3 / 2)) ] || fail "daemon RSS did not come back: $before kB before, $after kB 3 s after"
ok "RSS came back to within 1.5x of its figure before the batches"

touch "$work/stop"
wait "$watcher" || fail "the watching client failed"
watcher=""
read -r calls failed worst rest <"$work/watcher.out"
echo "bad_input: the other client made $calls calls during the test, $failed failed, slowest $worst ms"
[ "$failed" -eq 0 ] || fail "the other client saw failures: $rest"
[ "$calls" -ge 10 ] || fail "the other client made only $calls calls"
assert_eq "$(daemon_pid)" "$pid" "daemon pid at the end (it must not have restarted)"
ok "the daemon (pid $pid) served another client throughout"

# Debian's session.conf lets messages up to the protocol's 128 MiB through: there the 100 MB
# text reaches the daemon, which refuses it by its length, and gives the memory back.
"$ROOT/scripts/private-bus" --fitd "$FITD" --max-message-size 1000000000 --log "$E2E_LOG" -- "$PY" - <<'PY' \
  || fail "a 100 MB text on a bus that lets it through"
import sys, time
import dbus
bus = dbus.SessionBus()
fit = dbus.Interface(bus.get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
empty = dbus.Dictionary({}, signature="sv")
fit.Measure("warm-up", "DejaVu Sans 12", empty)
pid = bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                        "GetConnectionUnixProcessID", "s", ("org.fitd.Fit1",))
rss = lambda: int(next(l for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS:")).split()[1])
before = rss()
t = time.perf_counter()
try:
    fit.Measure("x" * 100_000_000, "DejaVu Sans 12", empty, timeout=30)
    sys.exit("bad_input: FAIL: a 100 MB text was measured")
except dbus.DBusException as e:
    seconds = time.perf_counter() - t
    name, message = e.get_dbus_name(), e.get_dbus_message()
time.sleep(0.5)
after = rss()
width = float(fit.Measure("Hello, world", "DejaVu Sans 12", empty)[0])
print(f"bad_input: 100 MB text through a 1 GB-limit bus: {name} in {seconds:.2f} s; daemon RSS {before} kB before, {after} kB after")
ok = (name == "org.fitd.Fit1.Error.TooLarge" and "100000000" in message and "1048576" in message
      and (after < 3 * before or after < 150 * 1024) and width == 94.78125)
print(f"bad_input: {'ok' if ok else 'FAIL'}: {message}", file=sys.stdout if ok else sys.stderr)
sys.exit(0 if ok else 1)
PY
ok "a 100 MB text that reaches the daemon is refused by length, and the daemon still answers"
