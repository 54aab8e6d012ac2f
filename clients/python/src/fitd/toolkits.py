"""Terminal toolkits measuring through fitd: their width functions replaced by ones that ask
fitd (fitd.cells) and fall back to the toolkit's own when no daemon answers.

    import fitd.adopt          # one import: every toolkit below that is installed

or ``fitd.toolkits.install()`` / ``uninstall()``. Patched, as the libraries' sources call them:

- Rich (and Textual, which measures with Rich): ``rich.cells.cell_len`` and
  ``cached_cell_len``, which rich.text, rich.segment, rich.console and textual._cells import by
  name; cropping inside a cluster (``chop_cells``, ``split_graphemes``) keeps Rich's tables.
- urwid: ``urwid.str_util.calc_width``, which urwid's text layout, canvas and displays import
  by name, for str; byte strings keep urwid's own (their encoding is urwid's setting).

A module that imported a function by name before install() holds the original: every loaded
module's attribute that is the original is replaced too, and modules imported later find the
replacement where they import from.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

from . import cells

# (module, attribute) -> (original, replacement), for uninstall().
_installed: dict[tuple[str, str], tuple[Any, Any]] = {}


def _replace(module_name: str, attribute: str, make: Callable[[Any], Any]) -> None:
    if (module_name, attribute) in _installed:
        return
    module = importlib.import_module(module_name)
    original = getattr(module, attribute)
    replacement = make(original)
    _installed[(module_name, attribute)] = (original, replacement)
    _rebind(original, replacement)


def _rebind(old: Any, new: Any) -> None:
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for name, value in list(namespace.items()):
            if value is old:
                namespace[name] = new


def _rich_cell_len(original: Callable[..., int]) -> Callable[..., int]:
    def cell_len(text: str, unicode_version: str = "auto") -> int:
        return cells.width(text, fallback=lambda t: original(t, unicode_version))
    cell_len.__doc__ = original.__doc__
    return cell_len


def _urwid_calc_width(original: Callable[[Any, int, int], int]) -> Callable[[Any, int, int], int]:
    def calc_width(text: Any, start_offs: int, end_offs: int) -> int:
        if not isinstance(text, str):
            return original(text, start_offs, end_offs)
        if start_offs > end_offs:  # urwid's own error for this
            return original(text, start_offs, end_offs)
        return cells.width(text[start_offs:end_offs], fallback=lambda t: original(t, 0, len(t)))
    calc_width.__doc__ = original.__doc__
    return calc_width


def _installers() -> dict[str, Callable[[], None]]:
    def rich() -> None:
        _replace("rich.cells", "cell_len", _rich_cell_len)
        if hasattr(importlib.import_module("rich.cells"), "cached_cell_len"):
            _replace("rich.cells", "cached_cell_len", _rich_cell_len)

    def urwid() -> None:
        _replace("urwid.str_util", "calc_width", _urwid_calc_width)

    return {"rich": rich, "urwid": urwid}


def install(*toolkits: str) -> list[str]:
    """Patches the named toolkits ("rich", "urwid"; none named: every one importable) and
    returns those patched. A toolkit that is not installed is left out, not an error, unless
    it was named."""
    installers = _installers()
    done = []
    for name in toolkits or tuple(installers):
        if name not in installers:
            raise ValueError(f"no fitd adapter for {name!r}; there are {', '.join(installers)}")
        try:
            installers[name]()
        except ImportError:
            if toolkits:
                raise
            continue
        done.append(name)
    return done


def uninstall() -> None:
    """Puts every toolkit's own functions back, in every module that took fitd's."""
    for original, replacement in _installed.values():
        _rebind(replacement, original)
    _installed.clear()
