"""Errors: one class per org.fitd.Fit1.Error.* name (protocol/README.md, "Errors"), all
subclasses of FitError, which carries the D-Bus error name and message of any other error."""

from __future__ import annotations

ERROR_PREFIX = "org.fitd.Fit1.Error."


class FitError(Exception):
    """An error reply from fitd or the bus. ``name`` is the D-Bus error name
    (org.fitd.Fit1.Error.* or a standard one such as org.freedesktop.DBus.Error.InvalidArgs),
    ``message`` the daemon's explanation."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{message} ({name})" if name else message)
        self.name = name
        self.message = message

    def __reduce__(self) -> tuple[type[FitError], tuple[str, str]]:  # picklable with both arguments (multiprocessing, concurrent.futures)
        return (type(self), (self.name, self.message))


class InvalidArgument(FitError):
    """A value out of its domain: a negative width, max_lines 0, an unknown wrap word, a text
    scale outside 0.25–4, a bad proposal."""


class InvalidFont(FitError):
    """A font description that cannot be parsed, or a size that is zero, negative or too large."""


class UnknownOption(FitError):
    """An option key the daemon does not know (a typo is never silently ignored)."""


class TooLarge(FitError):
    """A text, batch or document over a limit; the message names the limit."""


class InvalidDocument(FitError):
    """A layout document that is not valid; the message names the node by index and id. Also
    raised by this package for documents it cannot turn into the wire form."""


class NoFonts(FitError):
    """fontconfig has no usable font at all."""


class Internal(FitError):
    """A failure inside the daemon (ICU, out of memory), or a TextScale that could not be saved."""


class DaemonUnavailable(FitError):
    """No fitd could be reached: no session bus, or org.fitd.Fit1 is neither running nor
    activatable (not installed: see the README's "Install"), or its activation failed."""


class ProtocolMismatch(FitError):
    """A reply whose types are not those of org.fitd.Fit1 as this package knows it (another
    program owning the name, or an incompatible daemon). Raised by the client, not sent."""

    NAME = "org.fitd.Fit1.Client.ProtocolMismatch"


_BY_NAME: dict[str, type[FitError]] = {
    ERROR_PREFIX + cls.__name__: cls
    for cls in (InvalidArgument, InvalidFont, UnknownOption, TooLarge, InvalidDocument, NoFonts, Internal)
}
# The bus's answers when nothing can serve org.fitd.Fit1 (dbus-daemon's activation errors).
_UNAVAILABLE = ("org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.Spawn.")


def error_for(name: str, message: str) -> FitError:
    """The exception for a D-Bus error reply: the named class for org.fitd.Fit1.Error.*,
    DaemonUnavailable when the bus cannot start fitd, else FitError carrying the name."""
    cls = _BY_NAME.get(name)
    if cls is not None:
        return cls(name, message)
    if name.startswith(_UNAVAILABLE):
        return DaemonUnavailable(name, f"fitd is not running and could not be started by D-Bus activation: {message}")
    return FitError(name, message)
