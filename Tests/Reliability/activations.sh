#!/usr/bin/env bash
# Start-up never fails (docs/reliability.md): ACTIVATIONS (default 500) D-Bus activations in a
# row, each from nothing: no daemon owns org.fitd.Fit1, a Measure activates one and must get
# Pango's width, then the daemon gets SIGTERM (fitd has no idle exit) and must be gone, name
# and process, before the next. 0 failures allowed; prints activations/s and every failure's
# D-Bus error (reading a directory entry past its record, 2-3 % die with SIGSEGV in
# ChangeWatcher at start, with the fixture below:
# org.freedesktop.DBus.Error.Spawn.ChildSignaled).
source "$(dirname "${BASH_SOURCE[0]}")/../EndToEnd/lib.bash"
# The pinned fonts plus a font directory of 600 long names (over 32 KiB of directory entries,
# more than glibc's readdir buffer holds): the change watcher walks font directories at
# start, and that crash came from reading a whole `dirent` past the end of what readdir
# returned, which only a full buffer puts near its end. (No fonts in it: answers unchanged.)
if [ -z "${E2E_INNER:-}" ]; then
  fixture=$(mktemp -d "${TMPDIR:-/tmp}/fitd-activations.XXXXXX")
  trap 'rm -rf "$fixture"' EXIT
  mkdir "$fixture/fonts"
  (cd "$fixture/fonts" && for i in $(seq 600); do : >"not-a-font-but-a-name-long-enough-to-fill-the-buffer-$i.txt"; done)
  cat >"$fixture/fonts.conf" <<CONF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include>$FONTCONFIG_FILE</include>
  <dir>$fixture/fonts</dir>
</fontconfig>
CONF
  # The bus, and so the daemons it activates, inherit this (lib.bash sets it again inside).
  export FONTCONFIG_FILE=$fixture/fonts.conf
  E2E_TIMEOUT=${E2E_TIMEOUT:-300} on_private_bus "$@"  # exits, the trap removes the fixture
fi

has_owner && fail "a daemon is running before the test"
bcall Measure 'ssa{sv}' "Hello, world" "DejaVu Sans 12" 0 >/dev/null
pid=$(daemon_pid)
tr '\0' '\n' <"/proc/$pid/environ" | grep -q '^FONTCONFIG_FILE=.*fitd-activations' || fail "the daemon does not see the fixture's fonts.conf"
kill "$pid"; wait_gone "$pid" || fail "fitd $pid survived SIGTERM"
for _ in $(seq 100); do has_owner || break; sleep 0.05; done
PYTHONPATH="$ROOT/Tests/Reliability" "$PY" - "${ACTIVATIONS:-500}" <<'PY' || fail "see above"
import collections, os, signal, statistics, sys, time
import dbus
from reliability import Checks, Fit, HELLO_WIDTH, gone, wait_until

check = Checks("activations")
count = int(sys.argv[1])
fit = Fit()
failures = collections.Counter()
examples = {}
first_call, stop_times = [], []
start = time.perf_counter()
for i in range(count):
    if not wait_until(lambda: not fit.has_owner(), 5):
        failures["the name still had an owner 5 s after the daemon stopped"] += 1
        continue
    t = time.perf_counter()
    try:
        width = float(fit.measure("Hello, world", timeout=25)[0])
        first_call.append(time.perf_counter() - t)
        if width != HELLO_WIDTH:
            failures[f"wrong width {width}"] += 1
    except dbus.DBusException as e:
        key = e.get_dbus_name()
        failures[key] += 1
        examples.setdefault(key, f"activation {i + 1}: {e.get_dbus_message()}")
        continue
    pid = fit.daemon_pid()
    if pid is None:  # answered, then lost its name: it died right after
        failures["the daemon answered and then had gone (no owner)"] += 1
        continue
    t = time.perf_counter()
    os.kill(pid, signal.SIGTERM)
    if not wait_until(lambda: gone(pid), 5):
        failures["still running 5 s after SIGTERM"] += 1
        os.kill(pid, signal.SIGKILL)
    stop_times.append(time.perf_counter() - t)
elapsed = time.perf_counter() - start
ms = lambda s: f"{s * 1000:.0f} ms"
failed = sum(failures.values())
check.figure(f"{count} activations in {elapsed:.1f} s: {count / elapsed:.1f} activations/s; "
             f"first call (activation included) p50 {ms(statistics.median(first_call))}, max {ms(max(first_call))}; "
             f"SIGTERM to exit p50 {ms(statistics.median(stop_times))}, max {ms(max(stop_times))}")
check.figure(f"failures: {failed} of {count} ({100 * failed / count:.1f} %)"
             + "".join(f"; {n} x {name} (e.g. {examples.get(name, '')})" for name, n in failures.most_common()))
check(f"{count} activations in a row, 0 failures", failed == 0, f"{failed} failed")
check.exit()
PY
