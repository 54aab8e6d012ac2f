"""What the reliability tests share: calls to org.fitd.Fit1 written only from the contract
(protocol/org.fitd.Fit1.xml), the daemon's pid, RSS and CPU time from /proc, percentiles.

Used by Tests/EndToEnd/bad_input_classes.sh and Tests/Reliability/*.sh, which run on a
private bus (Tests/EndToEnd/lib.bash, on_private_bus), so the daemon is the built one,
started by real D-Bus activation. Debian's python3-dbus, as Tests/EndToEnd/python_client.sh.
"""
import os
import statistics
import sys
import time

import dbus

BUS, OBJ, IFACE = "org.fitd.Fit1", "/org/fitd/Fit1", "org.fitd.Fit1"
PROPS = "org.freedesktop.DBus.Properties"
EMPTY = dbus.Dictionary({}, signature="sv")
# "Hello, world" in DejaVu Sans 12 (16 px): Pango's width (Tests/oracle), as activation.sh.
HELLO, HELLO_FONT, HELLO_WIDTH = "Hello, world", "DejaVu Sans 12", 94.78125
CLK_TCK = os.sysconf("SC_CLK_TCK")


def options(**entries):
    return dbus.Dictionary(entries, signature="sv")


class Fit:
    """One connection; every call goes to the well-known name. (A python-dbus proxy binds to
    the unique name at creation, so after a restart it would keep calling the dead daemon.)"""

    def __init__(self, private=False):
        self.bus = dbus.SessionBus(private=private)
        if private:
            self.bus.set_exit_on_disconnect(False)

    def call(self, member, signature, args, interface=IFACE, path=OBJ, timeout=25):
        return self.bus.call_blocking(BUS, path, interface, member, signature, args, timeout=timeout)

    def measure(self, text, font=HELLO_FONT, opts=EMPTY, timeout=25):
        return self.call("Measure", "ssa{sv}", (text, font, opts), timeout=timeout)

    def batch(self, requests, timeout=25):
        return self.call("MeasureBatch", "a(ssa{sv})", (dbus.Array(requests, signature="(ssa{sv})"),), timeout=timeout)

    def layout(self, nodes, proposal=(False, 0.0, False, 0.0), opts=EMPTY, timeout=25):
        return self.call("Layout", "a(ssia{sv})(bdbd)a{sv}",
                         (dbus.Array(nodes, signature="(ssia{sv})"), dbus.Struct(proposal, signature="bdbd"), opts),
                         timeout=timeout)

    def get(self, name, timeout=25):
        return self.call("Get", "ss", (IFACE, name), interface=PROPS, timeout=timeout)

    def set(self, name, value, timeout=25):
        return self.call("Set", "ssv", (IFACE, name, value), interface=PROPS, timeout=timeout)

    def cache_bytes(self):
        """What GetStats accounts for: the bytes of every cache together."""
        caches, _, _ = self.call("GetStats", "", ())
        return sum(int(cache[2]) for cache in caches)

    def hello(self, timeout=25):
        """A cheap call that must answer correctly: True or a description of what went wrong."""
        try:
            width = float(self.measure(HELLO, timeout=timeout)[0])
        except dbus.DBusException as e:
            return f"{e.get_dbus_name()}: {e.get_dbus_message()}"
        return True if width == HELLO_WIDTH else f"width {width}, expected {HELLO_WIDTH}"

    def daemon_pid(self):
        """The pid owning org.fitd.Fit1, or None."""
        try:
            return int(self.bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                              "GetConnectionUnixProcessID", "s", (BUS,)))
        except dbus.DBusException:
            return None

    def has_owner(self):
        return bool(self.bus.name_has_owner(BUS))


def outcome(f):
    """(error name or None, message or result, seconds) of f()."""
    start = time.perf_counter()
    try:
        result = f()
        return None, result, time.perf_counter() - start
    except dbus.DBusException as e:
        return e.get_dbus_name(), e.get_dbus_message() or "", time.perf_counter() - start


def proc_status(pid, field):
    """A kB field of /proc/PID/status (VmRSS, VmHWM), or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def rss_kb(pid):
    return proc_status(pid, "VmRSS")


def own_memory_settles(fit, pid, idle_anon, seconds):
    """Bounded memory (docs/reliability.md): after any load the daemon's own memory is at most
    1.3 x the bytes its caches account for (GetStats) + what it held idle, once it has trimmed
    its heap (IdleTrim: within 10 s of the last request). Waits up to SECONDS for that.

    Checked on RssAnon, not all of RSS: the rest is file pages fitd maps (font files HarfBuzz
    reads glyphs from, its code), page cache shared with every other program and given back
    by the kernel under pressure; a load that uses more fonts or more of the code touches more
    of them, which no cache of fitd's holds, and a smaller binary would make a ratio of all of
    RSS stricter for the same memory. Returns (settled, anon kB, accounted kB, bound kB).

    GetStats is asked once, first: any call while waiting would be a request, and fitd trims
    only once a check finds it quiet (IdleTrim, every 5 s). What the caches hold does not
    change while nobody asks."""
    accounted = fit.cache_bytes() // 1024
    bound = int(1.3 * accounted + idle_anon)
    def within():
        anon = proc_status(pid, "RssAnon")
        return anon is not None and anon <= bound  # a daemon that died has not settled

    settled = wait_until(within, seconds, step=0.5)
    return settled, proc_status(pid, "RssAnon") or 0, accounted, bound


def cpu_seconds(pid):
    """utime + stime of every thread of PID (proc(5), /proc/PID/stat fields 14 and 15)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def gone(pid):
    """True when PID has exited (or is a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def wait_until(condition, seconds, step=0.005):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def percentile(samples, p):
    """The p-th percentile, nearest rank (p in 0…100)."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[rank]


def latency_summary(samples):
    """'n N, p50 X ms, p99 Y ms, max Z ms' of seconds."""
    if not samples:
        return "n 0"
    ms = lambda s: f"{s * 1000:.1f} ms"
    return (f"n {len(samples)}, p50 {ms(statistics.median(samples))}, p99 {ms(percentile(samples, 99))}, "
            f"max {ms(max(samples))}")


class Checks:
    """Prints one line per check; exit status 1 if any failed."""

    def __init__(self, test):
        self.test, self.failures = test, []

    def __call__(self, what, condition, detail=""):
        if condition:
            print(f"{self.test}: ok: {what}", flush=True)
        else:
            self.failures.append(what)
            print(f"{self.test}: FAIL: {what} {detail}", file=sys.stderr, flush=True)
        return condition

    def figure(self, text):
        print(f"{self.test}: figure: {text}", flush=True)

    def exit(self):
        if self.failures:
            print(f"{self.test}: {len(self.failures)} failed: {'; '.join(self.failures[:10])}", file=sys.stderr)
        sys.exit(1 if self.failures else 0)
