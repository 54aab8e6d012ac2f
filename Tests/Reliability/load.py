"""Guarantees under load (docs/reliability.md): many clients with mixed requests get no
errors, and a daemon killed with SIGKILL under load is re-activated by the next call with
the text scale it had.

  mixed   CLIENTS (16) processes x LOAD_SECONDS (20) of mixed requests (Measure with and
          without options, MeasureBatch, ResolveFont, Layout, GetTextStyles, GetStats, Get
          TextScale), each answer checked against the one the same request got first:
          0 errors, identical answers. Prints calls/s and p50/p99/max.
  kill    TextScale set to 1.25 (persisted), 8 clients calling; kill -9 of the daemon;
          prints the calls that failed (in flight at the kill) and the time until a call
          was answered again; TextScale must still be 1.25 (explicit), answers the same
          as before the kill, and every client served again after it.

Run by Tests/Reliability/load.sh on a private bus. Helper: `load.py client SECONDS OUT START_AT SEED`.
"""
import json
import os
import random
import signal
import subprocess
import sys
import time

import dbus

from reliability import EMPTY, Checks, Fit, gone, latency_summary, options, own_memory_settles, proc_status, rss_kb, wait_until

CLIENTS = int(os.environ.get("CLIENTS", "16"))
LOAD_SECONDS = float(os.environ.get("LOAD_SECONDS", "20"))
WORDS = ["Save", "Cancel", "Quarterly report", "naïve café", "مرحبا بالعالم", "שלום", "नमस्ते", "สวัสดี", "你好世界",
         "日本語のテキスト", "👩🏽‍💻 emoji", "office ﬃ ligature", "1234567890", "The quick brown fox jumps over the lazy dog"]
FONTS = ["DejaVu Sans 12", "Noto Sans 10", "DejaVu Serif Bold 14", "monospace 11", "sans-serif 9", "body", "caption ax2"]


def requests(seed):
    """A fixed list of (name, thunk-maker) mixed requests; the same seed, the same list."""
    rng = random.Random(seed)
    out = []
    for i in range(200):
        text = f"{rng.choice(WORDS)} {i % 50} {rng.choice(WORDS)}"
        font = rng.choice(FONTS)
        kind = rng.choice(["measure", "measure", "measure-wrap", "batch", "resolve", "layout", "styles", "stats", "scale"])
        out.append((kind, text, font))
    return out


def perform(fit, kind, text, font, timeout=25):
    """Does one request; returns what must be the same every time (None: not compared)."""
    if kind == "measure":
        m = fit.measure(text, font, timeout=timeout)
        return [float(m[0]), float(m[1]), int(m[3])]
    if kind == "measure-wrap":
        m = fit.measure(text, font, options(max_width=dbus.Double(60), wrap="word-char", max_lines=dbus.UInt32(2),
                                            ellipsize="end", lines=True), timeout=timeout)
        return [float(m[0]), float(m[1]), int(m[3]), [str(line[6]) for line in m[7]]]
    if kind == "batch":
        results = fit.batch([(f"{text} {j}", font, EMPTY) for j in range(20)], timeout=timeout)
        return [float(r[3][0]) for r in results] if all(bool(r[0]) for r in results) else ["batch error", str(results[0][1])]
    if kind == "resolve":
        r = fit.call("ResolveFont", "s", (font,), timeout=timeout)
        return [str(r[1]), float(r[5])]
    if kind == "layout":
        nodes = [("root", "firstFit", -1, options(axes="horizontal")),
                 ("wide", "hstack", 0, EMPTY), ("a", "text", 1, options(text=text)), ("b", "text", 1, options(text="Details")),
                 ("narrow", "vstack", 0, EMPTY), ("c", "text", 4, options(text=text)), ("d", "text", 4, options(text="Details"))]
        r = fit.layout(nodes, (True, 150.0, False, 0.0), timeout=timeout)
        return [float(r[0][0]), float(r[0][1]), [int(d[3]["candidate"]) for d in r[2]]]
    if kind == "styles":
        return [str(s[1]) for s in fit.call("GetTextStyles", "s", ("",), timeout=timeout)]
    if kind == "stats":
        fit.call("GetStats", "", (), timeout=timeout)
        return None
    return float(fit.get("TextScale", timeout=timeout))


def client(seconds, out, start_at, seed):
    fit = Fit()
    work = requests(seed)
    expected, latencies, errors, successes = {}, [], [], []
    while time.time() < start_at:
        time.sleep(0.002)
    end = time.time() + seconds
    i = 0
    while time.time() < end:
        kind, text, font = work[i % len(work)]
        t = time.perf_counter()
        try:
            answer = perform(fit, kind, text, font)
            latencies.append(time.perf_counter() - t)
            successes.append(time.time())
            key = f"{kind}|{text}|{font}"
            if answer is not None:
                if key not in expected:
                    expected[key] = answer
                elif expected[key] != answer:
                    errors.append([time.time(), f"{kind} {text!r} {font!r}: {answer} then {expected[key]}"])
        except dbus.DBusException as e:
            errors.append([time.time(), f"{kind}: {e.get_dbus_name()}: {(e.get_dbus_message() or '')[:120]}"])
        i += 1
    json.dump({"latencies": latencies, "errors": errors, "successes": successes}, open(out, "w"))


def run_clients(n, seconds, work, tag, during=None):
    """n client processes for `seconds`; `during()` runs meanwhile. Their results."""
    start_at = time.time() + 1.0
    procs = [subprocess.Popen([sys.executable, __file__, "client", str(seconds), f"{work}/{tag}-{k}.json", str(start_at), str(k)])
             for k in range(n)]
    try:
        if during:
            while time.time() < start_at:
                time.sleep(0.01)
            during()
        for p in procs:
            p.wait(timeout=seconds + 60)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    results = []
    for k, p in enumerate(procs):
        path = f"{work}/{tag}-{k}.json"
        results.append(json.load(open(path)) if p.returncode == 0 and os.path.exists(path) else None)
    return results


def mixed(check, work):
    fit = Fit()
    pid = fit.daemon_pid()
    time.sleep(0.2)
    idle, idle_anon = rss_kb(pid), proc_status(pid, "RssAnon")
    check.figure(f"mixed: idle RSS {idle} kB (anon {idle_anon}, files {proc_status(pid, 'RssFile')})")
    results = run_clients(CLIENTS, LOAD_SECONDS, work, "mixed")
    crashed = sum(r is None for r in results)
    latencies = [s for r in results if r for s in r["latencies"]]
    errors = [e for r in results if r for e in r["errors"]]
    check.figure(f"mixed: {CLIENTS} clients x {LOAD_SECONDS:.0f} s: {len(latencies)} calls ({len(latencies) / LOAD_SECONDS:.0f}/s), "
                 f"{len(errors)} errors; {latency_summary(latencies)}")
    check(f"mixed: {CLIENTS} clients, 0 errors, identical answers, every client ran", not errors and not crashed,
          f"{len(errors)} errors ({[e[1] for e in errors[:3]]}), {crashed} clients failed")
    # Bounded memory (reliability.own_memory_settles): a load that uses more fonts touches more
    # of their files' pages (measured here: +8 MB), which no cache of fitd's holds.
    busy_rss, peak = rss_kb(pid), proc_status(pid, "VmHWM")
    settled, anon, accounted, bound = own_memory_settles(fit, pid, idle_anon, 15)
    after = rss_kb(pid)
    check.figure(f"mixed: daemon RSS idle {idle} kB, at the end of the load {busy_rss} kB (peak {peak} kB), once trimmed "
                 f"{after} kB (anon {anon}, files {proc_status(pid, 'RssFile')}); GetStats accounts for "
                 f"{accounted} kB; the bound on anon 1.3 x that + idle anon = {bound} kB; "
                 f"on all of RSS 1.3 x that + idle = {int(1.3 * accounted + idle)} kB")
    check("mixed: after the load the daemon's own memory <= 1.3 x GetStats + idle", settled, f"{anon} kB > {bound} kB")
    check("mixed: the same daemon served the whole load", fit.daemon_pid() == pid)


def kill_under_load(check, work):
    fit = Fit()
    fit.set("TextScale", dbus.Double(1.25))
    before = perform(fit, "measure", "Hello, world", "DejaVu Sans 12")
    pid = fit.daemon_pid()
    state = {}

    def kill():
        time.sleep(2)
        state["killed"] = time.time()
        os.kill(pid, signal.SIGKILL)
        wait_until(lambda: gone(pid), 5)
        # Until the bus has seen it go: a call before then is routed to the dead owner and
        # gets NoReply (the contract's retry case), as the clients' calls in flight do.
        wait_until(lambda: fit.daemon_pid() != pid, 5)
        state["noticed"] = time.time() - state["killed"]
        t = time.perf_counter()
        state["answer"] = perform(fit, "measure", "Hello, world", "DejaVu Sans 12", timeout=25)
        state["reactivated"] = time.perf_counter() - t
        state["scale"] = float(fit.get("TextScale"))
        state["source"] = str(fit.get("TextScaleSource"))
        state["pid"] = fit.daemon_pid()

    results = run_clients(8, 6, work, "kill", during=kill)
    killed = state["killed"]
    errors = [e for r in results if r for e in r["errors"]]
    names = sorted({e[1].split(": ")[1] if ": " in e[1] else e[1] for e in errors})
    late = [e for e in errors if e[0] > killed + 1.0]
    served_after = sum(1 for r in results if r and any(t > killed + 1.0 for t in r["successes"]))
    check.figure(f"kill: {len(errors)} calls failed at the kill ({', '.join(names) or 'none'}); the bus saw it gone after "
                 f"{state['noticed'] * 1000:.0f} ms, the next call re-activated fitd (pid {pid} -> {state['pid']}) in {state['reactivated'] * 1000:.0f} ms; TextScale {state['scale']} "
                 f"({state['source']}) after")
    check("kill: a new daemon answers, with the same width at TextScale 1.25 (explicit) as before the kill",
          state["pid"] not in (None, pid) and state["answer"] == before and (state["scale"], state["source"]) == (1.25, "explicit"),
          f"{state}, before {before}")
    check("kill: only calls in flight at the kill failed, every client served again after it",
          not late and served_after == len(results) and all(r is not None for r in results),
          f"{len(late)} failures later than 1 s after the kill ({[e[1] for e in late[:3]]}); {served_after} of {len(results)} served")


def main():
    check = Checks("load")
    work = sys.argv[1]
    fit = Fit()
    if fit.hello() is not True:
        raise SystemExit("load: FAIL: the first call was not answered")
    mixed(check, work)
    kill_under_load(check, work)
    check.exit()


if __name__ == "__main__":
    if sys.argv[1] == "client":
        client(float(sys.argv[2]), sys.argv[3], float(sys.argv[4]), int(sys.argv[5]))
    else:
        main()
