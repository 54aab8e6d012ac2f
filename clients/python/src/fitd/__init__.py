"""fitd: text measured exactly as GTK/Pango draws it, and SwiftUI-style layout decisions,
from the per-user daemon fitd (org.fitd.Fit1 on the D-Bus session bus).

    import fitd
    with fitd.Client() as fit:
        m = fit.measure("Save changes?", "Noto Sans 11", max_width=120, lines=True)
        print(m.width, m.line_count, [line.text for line in m.lines])

``Client`` is synchronous, ``AsyncClient`` its asyncio twin. See README.md.
"""

from .aio import AsyncClient, ChangeStream, Subscription
from .check import CandidateWidth, CheckFinding, CheckReport, WorstString, check
from .client import ChangeQueue, Client
from .errors import (DaemonUnavailable, FitError, Internal, InvalidArgument, InvalidDocument, InvalidFont,
                     NoFonts, ProtocolMismatch, TooLarge, UnknownOption, error_for)
from . import terminal
from .options import LayoutOptions, MeasureOptions
from .types import (BreakpointInterval, Breakpoints, CacheStats, Decision, FontMatch, Frame, GenerationChange,
                    LayoutResult, Line, Metrics, NodeNotFound, Stats, TextScaleInfo, TextStyle)
from .wire import MeasureRequest, flatten_document, load_document

__version__ = "0.2.0"

__all__ = [
    "AsyncClient", "BreakpointInterval", "CandidateWidth", "CheckFinding", "CheckReport", "WorstString", "check", "Breakpoints", "CacheStats", "ChangeQueue", "ChangeStream", "Client", "DaemonUnavailable",
    "Decision", "FitError", "FontMatch", "Frame", "GenerationChange", "Internal", "InvalidArgument",
    "InvalidDocument", "InvalidFont", "LayoutOptions", "LayoutResult", "Line", "MeasureOptions", "MeasureRequest", "Metrics", "NoFonts",
    "NodeNotFound", "ProtocolMismatch", "Stats",
    "Subscription", "TextScaleInfo", "TextStyle", "TooLarge", "UnknownOption", "error_for", "flatten_document",
    "load_document", "terminal",
]
