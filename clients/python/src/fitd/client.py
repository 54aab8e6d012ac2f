"""The synchronous client: an AsyncClient driven on a private event-loop thread."""

from __future__ import annotations

import asyncio
import queue
import threading
import weakref
from collections.abc import Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any, Optional, TypeVar

from . import wire
from .aio import AsyncClient, Subscription
from .errors import FitError
from .options import LayoutOptions, MeasureOptions
from .types import FontMatch, GenerationChange, LayoutResult, Metrics, Stats, TextScaleInfo, TextStyle

if TYPE_CHECKING:
    from typing import Unpack

T = TypeVar("T")


def _stop_loop(loop: asyncio.AbstractEventLoop, callbacks: "queue.SimpleQueue[Any]") -> None:
    callbacks.put(None)
    if not loop.is_closed():
        loop.call_soon_threadsafe(loop.stop)


def _dispatch(callbacks: "queue.SimpleQueue[Any]") -> None:
    """Runs GenerationChanged callbacks one after another on their own thread, off the loop's,
    so that a callback may call the client (a call from the loop thread would wait for itself)."""
    while (item := callbacks.get()) is not None:
        callback, change = item
        try:
            callback(change)
        except Exception:  # one failing callback must not stop the others' notifications
            import traceback
            traceback.print_exc()


class Client:
    """org.fitd.Fit1 as blocking calls: ``fit = Client(); m = fit.measure("Save", "Noto Sans 11")``.

    The connection lives on a daemon thread running its own asyncio loop (dbus-fast is an
    asyncio library), so a Client works from any thread, alongside a GLib or curses main loop,
    and callbacks of on_generation_changed run in order on a callback thread of the client's
    (they may call the client; from GTK, hand the work to the main loop with GLib.idle_add). Connects at once: DaemonUnavailable if there is no session bus.
    The daemon itself is started by D-Bus activation on the first call. The user's text size
    applies by default (no text_scale or size_category is sent unless given), as in fitctl.
    """

    def __init__(self, bus_address: Optional[str] = None, timeout: float = 25.0) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="fitd-client", daemon=True)
        self._thread.start()
        # A Client dropped without close() must not leave its thread and socket behind: the
        # thread holds the loop, not the Client, so the Client can be collected and stop it.
        self._callbacks: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._dispatcher: Optional[threading.Thread] = None
        weakref.finalize(self, _stop_loop, self._loop, self._callbacks)
        self._async = AsyncClient(bus_address, timeout)
        try:
            self._run(self._async.connect())
        except BaseException:
            self._stop()
            raise

    @property
    def timeout(self) -> float:
        return self._async.timeout

    def _run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if threading.current_thread() is self._thread:
            coroutine.close()
            raise RuntimeError("a fitd.Client was called from its own loop thread, which would wait for itself")
        if self._loop.is_closed():
            coroutine.close()
            raise FitError("org.freedesktop.DBus.Error.Disconnected", "the client is closed")
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def _stop(self) -> None:
        self._callbacks.put(None)
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)
            self._loop.close()

    def close(self) -> None:
        """Disconnects and ends the client's thread."""
        if not self._loop.is_closed():
            try:
                self._run(self._async.close())
            finally:
                self._stop()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def measure(self, text: str, font: str = "", **options: Unpack[MeasureOptions]) -> Metrics:
        """See AsyncClient.measure."""
        return self._run(self._async.measure(text, font, **options))

    def measure_batch(self, requests: Iterable[wire.Request]) -> list[Metrics | FitError]:
        """See AsyncClient.measure_batch."""
        return self._run(self._async.measure_batch(list(requests)))

    def resolve_font(self, font: str) -> FontMatch:
        return self._run(self._async.resolve_font(font))

    def layout(self, document: wire.Document, width: Optional[float] = None,
               height: Optional[float] = None, **options: Unpack[LayoutOptions]) -> LayoutResult:
        """See AsyncClient.layout."""
        return self._run(self._async.layout(document, width, height, **options))

    def get_property(self, name: str) -> Any:
        return self._run(self._async.get_property(name))

    @property
    def version(self) -> str:
        return self._run(self._async.version())

    @property
    def generation(self) -> int:
        return self._run(self._async.generation())

    @property
    def text_scale(self) -> float:
        return self._run(self._async.text_scale())

    @property
    def size_category(self) -> str:
        return self._run(self._async.size_category())

    def text_scale_info(self) -> TextScaleInfo:
        return self._run(self._async.text_scale_info())

    def set_text_scale(self, factor: float) -> None:
        """See AsyncClient.set_text_scale."""
        self._run(self._async.set_text_scale(factor))

    def reset_text_scale(self) -> None:
        self._run(self._async.reset_text_scale())

    def text_styles(self, category: str = "") -> list[TextStyle]:
        return self._run(self._async.text_styles(category))

    def stats(self) -> Stats:
        return self._run(self._async.stats())

    def on_generation_changed(self, callback: Callable[[GenerationChange], Any]) -> Subscription:
        """Calls ``callback(change)`` whenever fonts, their configuration or the text scale
        change, on the client's callback thread, in order; the callback may call the client.
        Returns a Subscription (``cancel()``)."""
        if self._dispatcher is None:
            self._dispatcher = threading.Thread(target=_dispatch, args=(self._callbacks,),
                                                name="fitd-callbacks", daemon=True)
            self._dispatcher.start()
        callbacks = self._callbacks
        return self._run(self._async.on_generation_changed(lambda change: callbacks.put((callback, change))))

    def watch(self) -> "ChangeQueue":
        """Subscribes now and returns a blocking queue of every GenerationChanged from here on:
        ``changes = fit.watch(); change = changes.get(timeout=5)`` or ``for change in changes:``
        (a terminal program's main loop can poll it with ``get(timeout=0)``)."""
        changes = ChangeQueue()
        changes._subscription = self.on_generation_changed(changes._queue.put)
        return changes


class ChangeQueue:
    """GenerationChanged signals for blocking code (Client.watch); ``close()`` unsubscribes."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[GenerationChange] = queue.SimpleQueue()
        self._subscription: Optional[Subscription] = None

    def get(self, timeout: Optional[float] = None) -> Optional[GenerationChange]:
        """The next change, waiting at most timeout seconds (None: for ever); None if none came."""
        try:
            return self._queue.get(timeout=timeout) if timeout != 0 else self._queue.get_nowait()
        except queue.Empty:
            return None

    def __iter__(self) -> "ChangeQueue":
        return self

    def __next__(self) -> GenerationChange:
        change = self.get()
        assert change is not None
        return change

    def close(self) -> None:
        if self._subscription is not None:
            self._subscription.cancel()
            self._subscription = None

    def __enter__(self) -> "ChangeQueue":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
