"""Will it fit? A layout document laid out in every language of a translation set, at every
size category and width, from Python: ``fitctl check`` (docs/translation-check.md).

    report = fitd.check("dialog.json", "gtk40", widths=[240, 360, 480], categories="all")
    if not report.fits:
        for finding in report.failures:
            print(finding.language, finding.category, finding.width, finding.text, finding.detail)

The check runs in fitctl, the one reader of gettext catalogs (plural forms, contexts,
mnemonics) and flat JSON files, and the one place the per-language comparisons are made; this
module runs it (``--json``) and returns its report typed. Through the daemon by default
(cached, shared with every client), in fitctl's own process with ``local=True`` (what CI
wants: no session bus needed).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence, Union

from .errors import DaemonUnavailable, FitError, InvalidArgument, InvalidDocument

# fitctl's exit statuses (fitctl help check): 0 all fit, 1 something does not (or a file could
# not be read), 64 usage, 69 no engine reachable.
_EXIT_FITS, _EXIT_FINDINGS, _EXIT_USAGE, _EXIT_UNAVAILABLE = 0, 1, 64, 69


@dataclass(frozen=True, slots=True)
class CheckFinding:
    """What did not fit, or differs from the source language. kind: truncated, overflow
    (failures), decision (another candidate than the source language's: adaptive layout at
    work, not a failure) or missing (no translation: measured in the source language)."""

    kind: str
    language: str
    detail: str
    failing: bool
    category: Optional[str] = None
    width: Optional[float] = None
    node: Optional[str] = None
    text: Optional[str] = None
    frame_width: Optional[float] = None


@dataclass(frozen=True, slots=True)
class WorstString:
    """A language's widest string against its room, at the category and width where it is worst."""

    language: str
    node: str
    text: str
    natural_width: float
    room: float
    category: str
    width: Optional[float]


@dataclass(frozen=True, slots=True)
class CandidateWidth:
    """Per decision and category: the smallest width from which a candidate is shown in every
    language (``px`` exact to Pango's 1/1024 px, ``sp`` at the report's text scale; None when
    it is shown at none of the widths), the language that needs it, and the libadwaita
    condition to fall back below it (``max-width: 512sp``)."""

    decision: str
    category: str
    candidate: int
    candidate_id: Optional[str]
    language: Optional[str]
    px: Optional[float]
    sp: Optional[float]
    fallback_condition: Optional[str]
    fallback_condition_px: Optional[str]


@dataclass(frozen=True, slots=True)
class CheckReport:
    source_language: str
    languages: tuple[str, ...]
    categories: tuple[str, ...]
    widths: tuple[Optional[float], ...]
    layouts: int
    fits: bool
    findings: tuple[CheckFinding, ...]
    worst_strings: tuple[WorstString, ...]
    text_scale: float
    candidate_widths: tuple[CandidateWidth, ...]

    @property
    def failures(self) -> tuple[CheckFinding, ...]:
        """The findings that make the check fail (truncated, overflow)."""
        return tuple(f for f in self.findings if f.failing)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "CheckReport":
        def pick(kind: type, fields: Mapping[str, Any]) -> Any:
            return kind(**{name: fields.get(name) for name in kind.__dataclass_fields__})  # type: ignore[attr-defined]

        try:
            return cls(
                source_language=data["source_language"], languages=tuple(data["languages"]),
                categories=tuple(data["categories"]), widths=tuple(data["widths"]), layouts=int(data["layouts"]),
                fits=bool(data["fits"]), findings=tuple(pick(CheckFinding, f) for f in data["findings"]),
                worst_strings=tuple(pick(WorstString, w) for w in data["worst_strings"]),
                text_scale=float(data["text_scale"]),
                candidate_widths=tuple(pick(CandidateWidth, c) for c in data["candidate_widths"]))
        except (KeyError, TypeError, ValueError) as error:
            raise FitError("", f"fitctl check's report is not as this package knows it: {error!r}") from error


Widths = Union[Sequence[float], str]


def _widths(widths: Widths) -> str:
    if isinstance(widths, str):
        return widths  # "240,360" or a range "200:600:20", as fitctl reads it
    if not widths:
        raise InvalidArgument("", "widths: give at least one width")
    return ",".join(format(float(w), "g") for w in widths)


def _fitctl(path: Optional[str]) -> str:
    found = path or os.environ.get("FITCTL") or shutil.which("fitctl")
    if not found:
        raise DaemonUnavailable("", "fitctl is not installed (make install puts it beside fitd); pass fitctl= its path")
    return found


def check(document: Union[str, "os.PathLike[str]", Mapping[str, Any]], translations: Union[str, Sequence[str]], *,
          widths: Widths, languages: Optional[Sequence[str]] = None,
          categories: Union[str, Sequence[str], None] = None, source_language: Optional[str] = None,
          height: Optional[float] = None, ui_font: Optional[str] = None, local: bool = False,
          fitctl: Optional[str] = None, timeout: Optional[float] = None) -> CheckReport:
    """Lays ``document`` (a path, or the document itself as a dict) out in every language of
    ``translations`` — a gettext domain (``"gtk40"``, found as gettext finds it), a ``po/``
    directory, or a list of .po, .mo and flat JSON files — at every category of ``categories``
    (``"all"``, a list, or None for the user's) and every width of ``widths`` (a list, or
    fitctl's ``"200:600:20"``), and returns fitctl's report.

    Raises InvalidArgument for what fitctl refuses as usage (an unknown category, a bad width
    range), InvalidDocument for a document or catalog it cannot read, DaemonUnavailable when
    fitctl is missing or reaches no engine; its message is fitctl's own sentence."""
    args = [_fitctl(fitctl), "check"]
    stdin: Optional[str] = None
    if isinstance(document, Mapping):
        args.append("-")
        stdin = json.dumps(document)
    else:
        args.append(os.fspath(document))
    args += ["--translations", *([translations] if isinstance(translations, str) else list(translations))]
    args += ["--widths", _widths(widths), "--json"]
    if languages:
        args += ["--languages", ",".join(languages)]
    if categories:
        args += ["--categories", categories if isinstance(categories, str) else ",".join(categories)]
    if source_language:
        args += ["--source-language", source_language]
    if height is not None:
        args += ["--height", format(float(height), "g")]
    if ui_font:
        args += ["--ui-font", ui_font]
    if local:
        args.append("--local")
    try:
        done = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=timeout, check=False)
    except FileNotFoundError as error:
        raise DaemonUnavailable("", f"fitctl could not be run: {error}") from error
    problem = done.stderr.strip()
    if done.returncode == _EXIT_USAGE:
        raise InvalidArgument("", problem)
    if done.returncode == _EXIT_UNAVAILABLE:
        raise DaemonUnavailable("", problem)
    if done.returncode not in (_EXIT_FITS, _EXIT_FINDINGS):
        raise FitError("", f"fitctl check exited with status {done.returncode}: {problem}")
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        # Status 1 without a report: a document or catalog fitctl could not read.
        raise InvalidDocument("", problem or "fitctl check printed no report") from None
    return CheckReport.from_json(report)
