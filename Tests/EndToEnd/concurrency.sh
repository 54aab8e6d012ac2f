#!/usr/bin/env bash
# Many clients at once share one daemon: 8 processes (6 python-dbus, each 200 single
# Measure calls; 2 busctl, each one MeasureBatch of the same 200) get identical answers.
# Then, while one client's MeasureBatch of 10,000 new strings is being served, another
# client's single Measure round trips stay fast (the daemon yields between batch slices).
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# 200 requests: several scripts, fonts and wrap widths. requests.json is the list.
"$PY" - "$work/requests.json" <<'PY'
import json, sys
words = ["Save", "Cancel", "Quarterly report", "naïve café", "Ünïcödé", "مرحبا", "שלום", "नमस्ते",
         "สวัสดี", "你好世界", "日本語のテキスト", "👩🏽‍💻 emoji", "office ﬃ ligature", "1234567890",
         "The quick brown fox jumps over the lazy dog"]
fonts = ["DejaVu Sans 12", "Noto Sans 10", "DejaVu Serif Bold 14", "monospace 11", "sans-serif 9"]
requests = []
for i in range(200):
    text = f"{words[i % len(words)]} {i} {words[(i * 7) % len(words)]}"
    options = {"max_width": float(40 + (i % 5) * 30)} if i % 3 == 0 else {}
    requests.append([text, fonts[i % len(fonts)], options])
json.dump(requests, open(sys.argv[1], "w"))
PY

# A python client: 200 single calls, the results as [width, height, baseline, lines] each.
cat >"$work/client.py" <<'PY'
import json, sys, time
import dbus
requests, out, start_at = json.load(open(sys.argv[1])), sys.argv[2], float(sys.argv[3])
fit = dbus.Interface(dbus.SessionBus().get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
while time.time() < start_at:  # all clients start together
    time.sleep(0.005)
results = []
for text, font, options in requests:
    m = fit.Measure(text, font, dbus.Dictionary({k: dbus.Double(v) for k, v in options.items()}, signature="sv"))
    results.append([float(m[0]), float(m[1]), float(m[2]), int(m[3])])
json.dump(results, open(out, "w"))
PY

# busctl takes the batch as arguments: a(ssa{sv}) COUNT then, per entry, text font N [key type value].
batch_args=()
while IFS= read -r -d '' arg; do batch_args+=("$arg"); done < <("$PY" - "$work/requests.json" <<'PY'
import json, sys
requests = json.load(open(sys.argv[1]))
args = ["a(ssa{sv})", str(len(requests))]
for text, font, options in requests:
    args += [text, font, str(len(options))]
    for key, value in options.items():
        args += [key, "d", repr(value)]
sys.stdout.write("\0".join(args) + "\0")
PY
)

has_owner && fail "a daemon is running before the test"
bcall Measure 'ssa{sv}' warm-up "" 0 >/dev/null  # activation, outside the timed part
start_at=$("$PY" -c 'import time; print(time.time() + 1.5)')
pids=()
for i in 1 2 3 4 5 6; do
  "$PY" "$work/client.py" "$work/requests.json" "$work/python-$i.json" "$start_at" & pids+=($!)
done
for i in 1 2; do
  ( sleep 1.5; bcall MeasureBatch "${batch_args[@]}" >"$work/busctl-$i.raw" ) & pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "client $pid failed"; done

"$PY" - "$work" <<'PY' || fail "the 8 clients disagree"
import glob, json, sys
work = sys.argv[1]
answers = {}
for path in sorted(glob.glob(f"{work}/python-*.json")):
    answers[path] = json.load(open(path))
for path in sorted(glob.glob(f"{work}/busctl-*.raw")):
    entries = json.load(open(path))["data"][0]
    bad = [e for e in entries if not e[0]]
    assert not bad, f"{path}: batch errors {bad[:2]}"
    answers[path] = [[m[0], m[1], m[2], m[3]] for _, _, _, m in entries]
first = next(iter(answers.values()))
assert len(answers) == 8 and len(first) == 200, (len(answers), len(first))
assert all(0 < w for w, *_ in first), "a zero width"
for path, result in answers.items():
    diff = [i for i, (a, b) in enumerate(zip(first, result)) if a != b]
    assert not diff and len(result) == 200, f"{path} differs at {diff[:5]}: {result[diff[0]] if diff else len(result)}"
print(f"concurrency: ok: 8 clients (6 python-dbus, 2 busctl batches) x 200 strings: identical answers")
PY

# One client's MeasureBatch of 10,000 strings (new, so really measured) against another
# client's single round trips. Both processes stamp CLOCK_MONOTONIC, shared system-wide.
cat >"$work/batch.py" <<'PY'
import os, sys, time
import dbus
fit = dbus.Interface(dbus.SessionBus().get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
batch = dbus.Array([(f"batch entry {i} of a long one: {i * 7919}", "DejaVu Sans 11", dbus.Dictionary({}, signature="sv"))
                    for i in range(10_000)], signature="(ssa{sv})")
open(sys.argv[1], "w").write("ready\n")
start = time.monotonic()
results = fit.MeasureBatch(batch, timeout=50)
end = time.monotonic()
assert len(results) == 10_000 and all(r[0] for r in results), "batch failed"
# Written under another name and renamed: the other process polls for the file to exist,
# and must never see it before its contents.
open(sys.argv[2] + ".tmp", "w").write(f"{start} {end}\n")
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
PY
cat >"$work/latency.py" <<'PY'
import os, statistics, sys, time
import dbus
ready, times = sys.argv[1], sys.argv[2]
fit = dbus.Interface(dbus.SessionBus().get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
empty = dbus.Dictionary({}, signature="sv")
fit.Measure("Hello, world", "DejaVu Sans 12", empty)  # cached from here on
idle = []
for _ in range(50):
    t = time.perf_counter(); fit.Measure("Hello, world", "DejaVu Sans 12", empty); idle.append(time.perf_counter() - t)
while not os.path.exists(ready):
    time.sleep(0.001)
samples = []
while not os.path.exists(times):
    t0 = time.monotonic(); t = time.perf_counter()
    m = fit.Measure("Hello, world", "DejaVu Sans 12", empty)
    samples.append((t0, time.perf_counter() - t))
    assert float(m[0]) == 94.78125
start, end = map(float, open(times).read().split())
during = [s for t0, s in samples if start <= t0 and t0 + s <= end]
ms = lambda s: f"{s * 1000:.2f} ms"
print(f"concurrency: batch of 10,000 took {ms(end - start)}; single Measure round trips during it: "
      f"{len(during)}, p50 {ms(statistics.median(during)) if during else '-'}, max {ms(max(during)) if during else '-'} "
      f"(idle p50 {ms(statistics.median(idle))})")
slow = [f"{s * 1000:.1f} ms at +{(t0 - start) * 1000:.0f} ms" for t0, s in samples if s > 0.01]
print(f"concurrency: round trips over 10 ms: {', '.join(slow[:10]) or 'none'}")
assert len(during) >= 10, f"only {len(during)} round trips fell inside the batch"
assert max(during) < 0.050, f"a single Measure waited {ms(max(during))} behind the batch (limit 50 ms)"
PY
"$PY" "$work/latency.py" "$work/ready" "$work/times" & latency=$!
"$PY" "$work/batch.py" "$work/ready" "$work/times" || fail "the batch client failed"
wait "$latency" || fail "single requests stalled behind the batch (see above)"
ok "single requests stay under 50 ms while a 10,000-entry batch is served"
