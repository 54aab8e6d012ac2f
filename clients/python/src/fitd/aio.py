"""The asyncio client, on dbus-fast."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Optional, cast

from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio import MessageBus

from . import wire
from .errors import DaemonUnavailable, FitError, ProtocolMismatch, error_for
from .options import LayoutOptions, MeasureOptions
from .types import (CacheStats, FontMatch, GenerationChange, LayoutResult, Metrics, Stats, TextScaleInfo,
                    TextStyle)

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11; annotations are not evaluated at run time

_PROPERTIES = "org.freedesktop.DBus.Properties"
_MATCH = (f"type='signal',interface='{wire.INTERFACE}',member='GenerationChanged',"
          f"path='{wire.OBJECT_PATH}'")


_METRICS = "(dddubbasa(dddduusb)t)"
_timeout = getattr(asyncio, "timeout", None)  # Python ≥ 3.11
_DAEMON_WENT_AWAY = ("org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.ServiceUnknown",
                     "org.freedesktop.DBus.Error.Disconnected")


class _OwnTimeout(FitError):
    """This client's own timeout ran out: not retried (that would double the wait)."""


class Subscription:
    """A GenerationChanged callback; ``cancel()`` stops it."""

    def __init__(self, client: "AsyncClient", callback: Callable[[GenerationChange], Any]) -> None:
        self._client = client
        self.callback = callback

    def cancel(self) -> None:
        self._client._callbacks.discard(self)


class AsyncClient:
    """org.fitd.Fit1 from asyncio: ``async with AsyncClient() as fit: m = await fit.measure(…)``.

    ``bus_address`` defaults to the session bus ($DBUS_SESSION_BUS_ADDRESS). ``timeout`` is in
    seconds per call, D-Bus activation of the daemon included. The first call starts fitd by
    D-Bus activation. The user's text size applies by default, as in `fitctl`: Measure gets
    no text_scale and Layout no size_category unless you pass one.
    """

    def __init__(self, bus_address: Optional[str] = None, timeout: float = 25.0) -> None:
        self.bus_address = bus_address
        self.timeout = timeout
        self._bus: Optional[MessageBus] = None
        self._connecting: Optional[asyncio.Lock] = None
        self._callbacks: set[Subscription] = set()
        self._matching = False

    # --- connection -----------------------------------------------------------------------

    async def connect(self) -> "AsyncClient":
        """Connects to the bus (done by the first call otherwise). DaemonUnavailable when
        there is no bus to connect to."""
        if self._bus is not None and self._bus.connected:
            return self
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._bus is None or not self._bus.connected:
                try:
                    bus = MessageBus(bus_address=self.bus_address)
                    self._bus = await asyncio.wait_for(bus.connect(), self.timeout)
                except Exception as error:  # OSError, dbus-fast's address and auth errors, a timeout
                    raise DaemonUnavailable(
                        "org.freedesktop.DBus.Error.NoServer",
                        f"cannot connect to the D-Bus session bus ({self.bus_address or '$DBUS_SESSION_BUS_ADDRESS'}): "
                        f"{type(error).__name__}: {error}") from None
                self._bus.add_message_handler(self._on_message)
                self._matching = False
                if self._callbacks:
                    await self._add_match()
        return self

    async def close(self) -> None:
        if self._bus is not None:
            self._bus.disconnect()
            try:
                await asyncio.wait_for(cast(Any, self._bus).wait_for_disconnect(), 5)
            except Exception:  # already gone, or an error on the way out: nothing to keep
                pass
            self._bus = None

    async def __aenter__(self) -> "AsyncClient":
        return await self.connect()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _call(self, member: str, signature: str, body: list[Any], returns: str,
                    interface: str = wire.INTERFACE) -> list[Any]:
        """The reply's body, checked to have the signature ``returns`` (a reply is outside
        input: anything else is ProtocolMismatch, not an IndexError while decoding)."""
        try:
            reply = await self._call_once(member, signature, body, interface)
        except FitError as error:
            # Every call is idempotent, so one that failed because the daemon went away is
            # sent again once: the bus activates a new fitd (protocol/README.md, as FitClient).
            if error.name not in _DAEMON_WENT_AWAY or isinstance(error, _OwnTimeout):
                raise
            reply = await self._call_once(member, signature, body, interface)
        if reply.signature != returns:
            raise ProtocolMismatch(ProtocolMismatch.NAME,
                                   f"{member} returned signature '{reply.signature}', expected '{returns}': not the org.fitd.Fit1 this client knows")
        return reply.body

    async def _call_once(self, member: str, signature: str, body: list[Any], interface: str) -> Message:
        if self._bus is None or not self._bus.connected:
            await self.connect()
        assert self._bus is not None
        message = Message(destination=wire.BUS_NAME, path=wire.OBJECT_PATH, interface=interface,
                          member=member, signature=signature, body=body)
        try:
            if _timeout is not None:
                # asyncio.timeout (3.11) arms a timer on this task; wait_for makes a task per
                # call, a fifth of a cached round trip.
                async with _timeout(self.timeout):
                    reply = await self._bus.call(message)
            else:
                reply = await asyncio.wait_for(self._bus.call(message), self.timeout)
        except asyncio.TimeoutError:
            raise _OwnTimeout("org.freedesktop.DBus.Error.NoReply",
                              f"{member}: no reply from fitd within {self.timeout} s") from None
        except (OSError, EOFError) as error:
            raise FitError("org.freedesktop.DBus.Error.Disconnected",
                           f"{member}: the connection to the bus was lost: {error}") from None
        if reply.message_type is MessageType.ERROR:
            text = reply.body[0] if reply.body and isinstance(reply.body[0], str) else ""
            raise error_for(reply.error_name or "", text)
        return reply

    # --- measuring ------------------------------------------------------------------------

    async def measure(self, text: str, font: str = "", **options: Unpack[MeasureOptions]) -> Metrics:
        """Measures one text in one font (a Pango description such as "Noto Sans 11", a text
        style such as "body", or "" for the default). Options (protocol/README.md, "Measure
        options"): max_width, wrap, max_lines, ellipsize, features, letter_spacing, unit,
        lines, text_scale, language, metrics, markup, escapes, ambiguous, terminal (typed:
        fitd.options.MeasureOptions). An unknown key reaches the daemon, which answers
        UnknownOption. In cells without ``terminal``, the profile of this process's terminal
        (fitd.terminal.detect) is sent."""
        body = await self._call("Measure", "ssa{sv}", [text, font, wire.measure_options(options)], _METRICS)
        return Metrics.from_wire(body[0])

    async def measure_batch(self, requests: Iterable[wire.Request]) -> list[Metrics | FitError]:
        """Measures many texts in one round trip. A request is a text, a (text, font[,
        options]) tuple, a dict with "text", "font" and option keys, or a MeasureRequest.
        One result per request, in order: Metrics, or the FitError of that request alone."""
        entries = [wire.batch_entry(r) for r in requests]
        (results,) = await self._call("MeasureBatch", "a(ssa{sv})", [entries], f"a(bss{_METRICS})")
        from_wire = Metrics.from_wire
        return [from_wire(m) if ok else error_for(name, message) for ok, name, message, m in results]

    async def resolve_font(self, font: str) -> FontMatch:
        """What a font description (or text style) resolves to through fontconfig."""
        (resolved,) = await self._call("ResolveFont", "s", [font], "(sssdsdddbas)")
        return FontMatch.from_wire(resolved)

    # --- layout ---------------------------------------------------------------------------

    async def layout(self, document: wire.Document, width: Optional[float] = None,
                     height: Optional[float] = None, **options: Unpack[LayoutOptions]) -> LayoutResult:
        """Lays out a document — a dict, flat or nested, or the path of a JSON file `fitctl
        fit` reads — at a proposed size (None on an axis: the ideal size; math.inf: the
        maximum). Options (protocol/README.md, "Layout"): unit, size_category (default the
        user's), ui_font, spacing, language, metrics, markup, widget_sizes, label_sizes, breakpoints=(min,
        max) (typed: fitd.options.LayoutOptions)."""
        nodes = wire.document_nodes(document)
        body = await self._call("Layout", "a(ssia{sv})(bdbd)a{sv}",
                                [nodes, wire.proposal(width, height), wire.layout_options(options)],
                                "(dd)a(sbddddbdubbdda{sv})a(susa{sv})bt")
        return LayoutResult.from_wire(body, {node[0]: node[1] for node in nodes})

    # --- text scale and styles ------------------------------------------------------------

    async def get_property(self, name: str) -> Any:
        """One property of org.fitd.Fit1 (Version, Generation, TextScale, …) as a Python value."""
        (value,) = await self._call("Get", "ss", [wire.INTERFACE, name], "v", interface=_PROPERTIES)
        return value.value

    async def _typed_property(self, name: str, signature: str) -> Any:
        (value,) = await self._call("Get", "ss", [wire.INTERFACE, name], "v", interface=_PROPERTIES)
        if value.signature != signature:
            raise ProtocolMismatch(ProtocolMismatch.NAME, f"property {name} is {value.signature}, expected {signature}")
        return value.value

    async def version(self) -> str:
        return cast(str, await self._typed_property("Version", "s"))

    async def generation(self) -> int:
        return cast(int, await self._typed_property("Generation", "t"))

    async def text_scale(self) -> float:
        """The user's text-scale factor (every client's font sizes are multiplied by it)."""
        return cast(float, await self._typed_property("TextScale", "d"))

    async def size_category(self) -> str:
        """The size category of the text scale (xSmall … large … accessibilityExtraExtraExtraLarge)."""
        return cast(str, await self._typed_property("SizeCategory", "s"))

    async def text_scale_info(self) -> TextScaleInfo:
        """The text scale, where it comes from, its size category, dpi and the user's fonts."""
        (values,) = await self._call("GetAll", "s", [wire.INTERFACE], "a{sv}", interface=_PROPERTIES)
        wanted = {"TextScale": "d", "TextScaleSource": "s", "SizeCategory": "s", "Dpi": "d", "UIFont": "s", "MonospaceFont": "s"}
        if any(name not in values or values[name].signature != sig for name, sig in wanted.items()):
            raise ProtocolMismatch(ProtocolMismatch.NAME, f"GetAll lacks or mistypes one of {', '.join(wanted)}")
        v = {k: values[k].value for k in wanted}
        return TextScaleInfo(v["TextScale"], v["TextScaleSource"], v["SizeCategory"], v["Dpi"],
                             v["UIFont"], v["MonospaceFont"])

    async def set_text_scale(self, factor: float) -> None:
        """Sets the user's text scale (0 < factor ≤ 4), saved by fitd: every client's results
        change and GenerationChanged is emitted. InvalidArgument outside the range."""
        if isinstance(factor, bool) or not isinstance(factor, (int, float)):
            raise TypeError(f"a text scale is a number, not {factor!r}")
        await self._call("Set", "ssv", [wire.INTERFACE, "TextScale", Variant("d", float(factor))], "",
                         interface=_PROPERTIES)

    async def reset_text_scale(self) -> None:
        """Removes the explicit text scale: fontconfig, the desktop or 1.0 decide again."""
        await self._call("ResetTextScale", "", [], "")

    async def text_styles(self, category: str = "") -> list[TextStyle]:
        """Every text style (largeTitle, title, … caption2: SwiftUI's names) at a size category
        ("" for the user's; any name fitd reads, such as "ax2"), largest first, in the user's UI
        font."""
        (styles,) = await self._call("GetTextStyles", "s", [category], "a(ssdd)")
        return [TextStyle(*s) for s in styles]

    async def stats(self) -> Stats:
        caches, served, uptime = await self._call("GetStats", "", [], "a(suttttt)td")
        return Stats({c[0]: CacheStats(*c[1:]) for c in caches}, served, uptime)

    # --- change notifications -------------------------------------------------------------

    def _on_message(self, message: Message) -> None:
        if (message.message_type is MessageType.SIGNAL and message.member == "GenerationChanged"
                and message.interface == wire.INTERFACE and message.path == wire.OBJECT_PATH
                and message.signature == "tas"):
            generation, reasons = message.body
            change = GenerationChange(generation, tuple(reasons))
            for subscription in list(self._callbacks):
                subscription.callback(change)

    async def _add_match(self) -> None:
        if not self._matching:
            assert self._bus is not None
            reply = await self._bus.call(Message(
                destination="org.freedesktop.DBus", path="/org/freedesktop/DBus", interface="org.freedesktop.DBus",
                member="AddMatch", signature="s", body=[_MATCH]))
            if reply.message_type is MessageType.ERROR:
                raise error_for(reply.error_name or "", str(reply.body[0]) if reply.body else "")
            self._matching = True

    async def on_generation_changed(self, callback: Callable[[GenerationChange], Any]) -> Subscription:
        """Calls ``callback(change)`` (in the event loop) whenever fonts, their configuration
        or the text scale change: results from an older generation are stale. No sender
        filter, so a restarted daemon is still heard. Returns a Subscription (``cancel()``)."""
        await self.connect()
        subscription = Subscription(self, callback)
        self._callbacks.add(subscription)
        await self._add_match()
        return subscription

    async def watch(self) -> "ChangeStream":
        """Subscribes now and returns an async iterator of every GenerationChanged from here on:
        ``changes = await fit.watch()`` then ``async for change in changes:``; ``changes.close()``
        (or leaving ``async with changes:``) unsubscribes."""
        stream = ChangeStream()
        stream._subscription = await self.on_generation_changed(stream._queue.put_nowait)
        return stream


class ChangeStream:
    """GenerationChanged signals as an async iterator (AsyncClient.watch)."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[GenerationChange] = asyncio.Queue()
        self._subscription: Optional[Subscription] = None

    def __aiter__(self) -> "ChangeStream":
        return self

    async def __anext__(self) -> GenerationChange:
        return await self._queue.get()

    async def get(self, timeout: Optional[float] = None) -> GenerationChange:
        """The next change; asyncio.TimeoutError when none comes within timeout seconds."""
        return await asyncio.wait_for(self._queue.get(), timeout)

    def close(self) -> None:
        if self._subscription is not None:
            self._subscription.cancel()
            self._subscription = None

    async def __aenter__(self) -> "ChangeStream":
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()
