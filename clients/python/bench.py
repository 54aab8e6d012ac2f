#!/usr/bin/env python3
"""The Python package's figures, each against its peer in the same run, on the bus in
$DBUS_SESSION_BUS_ADDRESS (run it under scripts/private-bus with a release fitd; `make bench`
does):

- a cached Measure round trip through fitd.AsyncClient / fitd.Client against the same message
  through dbus-fast alone (the target: at most 1.5 ×), and through jeepney (the library not
  chosen, for the record);
- measure_batch of 1,000 distinct strings (cached: the daemon has seen them) in strings per
  second (the target: at least 100,000), against the same batch through dbus-fast alone and jeepney alone.

Rounds alternate client and peer in short blocks, so a busy machine slows both alike: a ratio
is the median over rounds of the client's time over its peer's in the same round (paired),
the times the medians over rounds. --check exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time

from dbus_fast import Message, Variant
from dbus_fast.aio import MessageBus

import fitd

TEXT, FONT = "Save changes to “Quarterly report.odt”?", "DejaVu Sans 11"
OPTIONS = {"max_width": 220.0, "wrap": "word"}
BATCH = [(f"Item {n}: {TEXT}", FONT) for n in range(1000)]


def measure_message() -> Message:
    return Message(destination="org.fitd.Fit1", path="/org/fitd/Fit1", interface="org.fitd.Fit1", member="Measure",
                   signature="ssa{sv}", body=[TEXT, FONT, {"max_width": Variant("d", 220.0), "wrap": Variant("s", "word")}])


def batch_message() -> Message:
    return Message(destination="org.fitd.Fit1", path="/org/fitd/Fit1", interface="org.fitd.Fit1", member="MeasureBatch",
                   signature="a(ssa{sv})", body=[[[t, f, {}] for t, f in BATCH]])


def per_call(fn, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


async def aper_call(fn, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        await fn()
    return (time.perf_counter() - start) / calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--calls", type=int, default=100, help="Measure calls per round and contender")
    parser.add_argument("--batches", type=int, default=3, help="batches of 1,000 per round and contender")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()

    # The raw peers and the async client share one event loop on a thread of their own, as
    # fitd.Client keeps its loop: every blocking contender pays the same thread hop.
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    def on_loop(coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result()

    async def connect():
        return await MessageBus().connect()

    raw_bus = on_loop(connect())
    aclient = on_loop(fitd.AsyncClient().connect())
    client = fitd.Client()

    from jeepney import DBusAddress, new_method_call
    from jeepney.io.blocking import open_dbus_connection
    jeep = open_dbus_connection(bus="SESSION")
    address = DBusAddress("/org/fitd/Fit1", bus_name="org.fitd.Fit1", interface="org.fitd.Fit1")

    async def raw_async_round(calls):
        return await aper_call(lambda: raw_bus.call(measure_message()), calls)

    async def client_async_round(calls):
        return await aper_call(lambda: aclient.measure(TEXT, FONT, **OPTIONS), calls)

    async def raw_batch_round(batches):
        return await aper_call(lambda: raw_bus.call(batch_message()), batches)

    contenders = {
        "dbus-fast alone, awaited": lambda: on_loop(raw_async_round(args.calls)),
        "fitd.AsyncClient.measure": lambda: on_loop(client_async_round(args.calls)),
        "dbus-fast alone, from a blocking caller": lambda: per_call(lambda: on_loop(raw_bus.call(measure_message())), args.calls),
        "fitd.Client.measure": lambda: per_call(lambda: client.measure(TEXT, FONT, **OPTIONS), args.calls),
        "jeepney alone, blocking": lambda: per_call(lambda: jeep.send_and_get_reply(new_method_call(
            address, "Measure", "ssa{sv}", (TEXT, FONT, {"max_width": ("d", 220.0), "wrap": ("s", "word")}))), args.calls),
    }
    batches = {
        "dbus-fast alone, MeasureBatch": lambda: on_loop(raw_batch_round(args.batches)),
        "fitd.Client.measure_batch": lambda: per_call(lambda: client.measure_batch(BATCH), args.batches),
        "fitd.AsyncClient.measure_batch": lambda: on_loop(aper_call(lambda: aclient.measure_batch(BATCH), args.batches)),
        "jeepney alone, MeasureBatch": lambda: per_call(lambda: jeep.send_and_get_reply(new_method_call(
            address, "MeasureBatch", "a(ssa{sv})", ([(t, f, {}) for t, f in BATCH],))), args.batches),
    }
    # Warm up: the daemon caches every reply, the libraries import and compile what they use.
    client.measure_batch(BATCH)
    for run in list(contenders.values()) + list(batches.values()):
        run()
    times: dict[str, list[float]] = {name: [] for name in [*contenders, *batches]}
    for _ in range(args.rounds):
        for name, run in [*contenders.items(), *batches.items()]:
            times[name].append(run())
    median = {name: statistics.median(t) for name, t in times.items()}

    print(f"Python client (fitd {fitd.__version__}, daemon {client.version}; Python {sys.version.split()[0]}): "
          f"median of {args.rounds} rounds, cached replies")
    for name in contenders:
        print(f"  Measure round trip  {name:42s} {median[name] * 1e6:8.1f} µs")
    for name in batches:
        print(f"  batch of 1,000      {name:42s} {median[name] * 1e3:8.2f} ms = {1000 / median[name]:9,.0f} strings/s")
    def paired(client_name: str, peer_name: str) -> float:
        return statistics.median(c / p for c, p in zip(times[client_name], times[peer_name]))

    async_ratio = paired("fitd.AsyncClient.measure", "dbus-fast alone, awaited")
    sync_ratio = paired("fitd.Client.measure", "dbus-fast alone, from a blocking caller")
    sync_vs_awaited = paired("fitd.Client.measure", "dbus-fast alone, awaited")
    throughput = 1000 / median["fitd.Client.measure_batch"]
    print(f"  AsyncClient.measure / dbus-fast alone: {async_ratio:.2f} × (target ≤ 1.5)")
    print(f"  Client.measure / dbus-fast alone from a blocking caller: {sync_ratio:.2f} × (target ≤ 1.5); "
          f"/ dbus-fast awaited: {sync_vs_awaited:.2f} ×")
    print(f"  jeepney alone / dbus-fast alone, blocking: "
          f"{paired('jeepney alone, blocking', 'dbus-fast alone, from a blocking caller'):.2f} ×; "
          f"batch, Client / dbus-fast alone: {paired('fitd.Client.measure_batch', 'dbus-fast alone, MeasureBatch'):.2f} ×")
    print(f"  Client.measure_batch: {throughput:,.0f} strings/s (target ≥ 100,000); "
          f"dbus-fast alone: {1000 / median['dbus-fast alone, MeasureBatch']:,.0f}")
    client.close()
    missed = async_ratio > 1.5 or sync_ratio > 1.5 or throughput < 100_000
    if missed:
        print("  a target is missed", file=sys.stderr)
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
