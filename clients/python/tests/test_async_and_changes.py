"""AsyncClient (every method), and GenerationChanged reaching callbacks and iterators when
another client (fitctl) or this one changes the text scale."""

from __future__ import annotations

import asyncio
import subprocess
import threading

import pytest

import fitd
from conftest import EXAMPLES, ROOT


async def test_async_measure_batch_and_fonts(afit):
    m = await afit.measure("Hello, world", "DejaVu Sans 12")
    assert (m.width, m.line_count) == (94.78125, 1)
    wrapped = await afit.measure("Hello, world", "DejaVu Sans 12", max_width=50, lines=True)
    assert wrapped.line_count == 2 and [line.text for line in wrapped.lines] == ["Hello, ", "world"]
    batch = await afit.measure_batch(["Hello", ("Hello, world", "DejaVu Sans 12"), ("x", "", {"wrap": "nope"})])
    assert batch[1] == m and isinstance(batch[2], fitd.InvalidArgument)
    assert (await afit.resolve_font("DejaVu Sans 12")).matched


async def test_async_calls_run_concurrently_on_one_connection(afit):
    texts = [f"row {n}" for n in range(50)]
    results = await asyncio.gather(*(afit.measure(t, "DejaVu Sans 12") for t in texts))
    assert results == await afit.measure_batch([(t, "DejaVu Sans 12") for t in texts])


async def test_async_layout_styles_scale_and_stats(afit):
    result = await afit.layout(EXAMPLES[0].parent / "first-fit-card.json", 10)
    assert result.decision("card").candidate_id == "column"
    styles = await afit.text_styles()
    assert [s.name for s in styles][:2] == ["largeTitle", "title"] and len(styles) == 11
    assert styles == sorted(styles, key=lambda s: -s.point_size)
    big = await afit.text_styles("accessibilityLarge")
    assert big[-1].point_size > styles[-1].point_size
    with pytest.raises(fitd.InvalidArgument):
        await afit.text_styles("huge")
    info = await afit.text_scale_info()
    assert (info.factor, info.source, info.size_category, info.dpi) == (1.0, "default", "large", 96.0)
    assert info.ui_font and info.monospace_font
    assert await afit.version() == (ROOT / "VERSION").read_text().strip()
    before = (await afit.stats()).requests_served
    await afit.measure("count me", "DejaVu Sans 12")
    stats = await afit.stats()
    assert stats.requests_served == before + 1 and stats.uptime_seconds > 0
    assert {"results", "layouts", "measure-replies"} <= set(stats.caches)
    assert await afit.generation() >= 1 and await afit.size_category() == "large"


async def test_text_scale_set_bad_values_and_reset(afit):
    for bad in (0, -1, 5, float("nan")):
        with pytest.raises(fitd.InvalidArgument):
            await afit.set_text_scale(bad)
    with pytest.raises(TypeError):
        await afit.set_text_scale("2")
    await afit.set_text_scale(1.25)
    info = await afit.text_scale_info()
    assert (info.factor, info.source, info.dpi) == (1.25, "explicit", 120.0)
    await afit.reset_text_scale()
    assert (await afit.text_scale_info()).source == "default"


async def test_watch_yields_generation_changes_from_another_client(afit, fitctl):
    async with await afit.watch() as changes:
        before = await afit.generation()
        # Another program changes the scale: this client hears of it.
        await asyncio.to_thread(subprocess.run, [fitctl, "scale", "set", "1.5"], check=True, capture_output=True)
        change = await changes.get(timeout=5)
        assert change.generation > before and "text-scale" in change.reasons
        assert await afit.text_scale() == 1.5
        await afit.reset_text_scale()
        again = await changes.get(timeout=5)
        assert again.generation > change.generation
    with pytest.raises(asyncio.TimeoutError):
        await changes.get(timeout=0.3)  # closed: nothing more arrives


def test_callbacks_hear_generation_changed_within_a_timeout(fit, fitctl):
    heard: list[fitd.GenerationChange] = []
    arrived = threading.Event()

    def on_change(change):
        heard.append(change)
        arrived.set()

    subscription = fit.on_generation_changed(on_change)
    subprocess.run([fitctl, "scale", "set", "2.0"], check=True, capture_output=True)
    assert arrived.wait(5), "no GenerationChanged within 5 s of fitctl scale set 2.0"
    assert "text-scale" in heard[0].reasons and heard[0].generation == fit.generation
    subscription.cancel()
    arrived.clear()
    fit.set_text_scale(1.0)
    assert not arrived.wait(0.5) and len(heard) == 1


def test_a_callback_may_call_the_client(fit):
    widths = []
    done = threading.Event()

    def relayout(change):
        widths.append(fit.measure("Hello, world", "DejaVu Sans 12").width)  # at the new scale
        done.set()

    fit.on_generation_changed(relayout)
    fit.set_text_scale(2.0)
    assert done.wait(5) and widths[0] > 2 * 94


def test_a_blocking_watch_queue_gets_each_change_until_closed(fit, fitctl):
    with fit.watch() as changes:
        assert changes.get(timeout=0) is None
        subprocess.run([fitctl, "scale", "set", "1.75"], check=True, capture_output=True)
        change = changes.get(timeout=5)
        assert change is not None and "text-scale" in change.reasons and change.generation == fit.generation
        fit.reset_text_scale()
        assert next(iter(changes)).generation > change.generation
    fit.set_text_scale(1.5)
    assert changes.get(timeout=0.5) is None  # closed: nothing more arrives


def test_the_sync_client_is_usable_from_threads(fit):
    results = {}

    def work(n):
        results[n] = fit.measure(f"thread {n}", "DejaVu Sans 12").width

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {n: fit.measure(f"thread {n}", "DejaVu Sans 12").width for n in range(8)}


def test_a_client_dropped_without_close_ends_its_thread():
    import gc
    before = {t for t in threading.enumerate() if t.name == "fitd-client"}
    client = fitd.Client()
    client.measure("x")
    thread = next(t for t in threading.enumerate() if t.name == "fitd-client" and t not in before)
    del client
    gc.collect()
    thread.join(5)
    assert not thread.is_alive()


def test_a_closed_client_says_so():
    client = fitd.Client()
    client.close()
    with pytest.raises(fitd.FitError, match="closed"):
        client.measure("x")
    client.close()  # twice is fine


def daemon_pid(fit) -> int:
    """The pid of the process owning org.fitd.Fit1, asked of the bus."""
    from dbus_fast import Message

    async def ask():
        reply = await fit._async._bus.call(Message(
            destination="org.freedesktop.DBus", path="/org/freedesktop/DBus", interface="org.freedesktop.DBus",
            member="GetConnectionUnixProcessID", signature="s", body=["org.fitd.Fit1"]))
        return reply.body[0]
    return fit._run(ask())


def test_a_call_the_daemon_dies_during_is_sent_again_to_a_new_one(fit):
    import os
    import signal
    import time

    fit.measure("wake up")
    first = daemon_pid(fit)
    # A long text (250 kB) keeps the call in the daemon long
    # enough to kill it midway; the bus answers NoReply, and the client asks a new fitd.
    text = "word " * 50_000
    killer = threading.Timer(0.1, os.kill, (first, signal.SIGKILL))
    killer.start()
    started = time.monotonic()
    m = fit.measure(text, "DejaVu Sans 12", max_width=300)
    killer.join()
    elapsed = time.monotonic() - started
    assert m.line_count > 200 and 0.1 < elapsed < 30, elapsed
    assert daemon_pid(fit) != first
