"""The keyword options of measure and layout, typed for a type checker (protocol/README.md,
"Measure options" and "Layout"): ``fit.measure("x", max_widht=10)`` is an error for mypy, and
a value outside a word list (``wrap="words"``) too. At run time nothing changes: options go to
the daemon as they are (wire.py), so an unknown key still gets its UnknownOption naming it.
None leaves an option out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Optional, TypedDict, Union


class MeasureOptions(TypedDict, total=False):
    max_width: Optional[float]
    wrap: Optional[Literal["word", "char", "word-char"]]
    max_lines: Optional[int]
    ellipsize: Optional[Literal["none", "start", "middle", "end"]]
    features: Optional[Union[str, Sequence[str]]]
    letter_spacing: Optional[float]
    unit: Optional[Literal["px", "cells"]]
    lines: Optional[bool]
    text_scale: Optional[float]
    language: Optional[str]
    metrics: Optional[str]  # gtk4, gtk3 or gtk-4.N
    markup: Optional[bool]
    ui_font: Optional[str]  # the UI font a text with no font (and text styles) is measured in
    escapes: Optional[Literal["none", "ansi"]]
    ambiguous: Optional[Literal["narrow", "wide"]]
    # Without it, in cells: the profile of the terminal this process runs in (fitd.terminal).
    terminal: Optional[Literal["grapheme", "wcwidth"]]


class LayoutOptions(TypedDict, total=False):
    unit: Optional[Literal["px", "cells"]]
    size_category: Optional[str]  # xSmall … accessibilityExtraExtraExtraLarge (or ax1…ax5); default the user's
    ui_font: Optional[str]
    spacing: Optional[float]
    language: Optional[str]
    metrics: Optional[str]
    markup: Optional[bool]
    widget_sizes: Optional[bool]
    label_sizes: Optional[bool]
    text_scale: Optional[float]
    breakpoints: Optional[tuple[float, float]]
