"""fitd.check: fitctl check's report, typed, for the example dialog on GTK 4's own gtk40
catalog (installed with GTK 4), as the daemon and as fitctl's own process give it."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import pytest

import fitd

ROOT = pathlib.Path(__file__).resolve().parents[3]
DIALOG = ROOT / "protocol" / "examples" / "translations" / "gtk-new-folder-dialog.json"
GTK40 = pathlib.Path("/usr/share/locale/de/LC_MESSAGES/gtk40.mo")

pytestmark = pytest.mark.skipif(not GTK40.exists(), reason="GTK 4's gtk40 catalog is not installed")


def fitctl_report(fitctl: str, *extra: str) -> dict:
    done = subprocess.run([fitctl, "check", str(DIALOG), "--translations", "gtk40", "--languages", "es,ta",
                           "--categories", "large,accessibilityLarge", "--widths", "240,360", "--json", *extra],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


def test_the_report_is_fitctls_typed(fitctl):
    report = fitd.check(DIALOG, "gtk40", languages=["es", "ta"], categories=["large", "accessibilityLarge"],
                        widths=[240, 360], fitctl=fitctl)
    raw = fitctl_report(fitctl)
    assert report.fits is False and raw["fits"] is False
    assert report.languages == tuple(raw["languages"]) and report.layouts == raw["layouts"]
    assert [f.kind for f in report.findings] == [f["kind"] for f in raw["findings"]]
    assert [(f.language, f.text, f.detail) for f in report.findings] == \
        [(f["language"], f.get("text"), f["detail"]) for f in raw["findings"]]
    # A Spanish label cut at the accessibility size in 240 px, named with its text.
    cut = [f for f in report.failures if f.language == "es" and f.kind == "truncated"]
    assert [(f.category, f.width, f.text) for f in cut] == [("accessibilityLarge", 240, "Nombre de la carpeta")]
    assert {f.text for f in report.findings if f.kind == "missing" and f.language == "ta"} >= {"Folder Name"}
    worst = {w.language: w for w in report.worst_strings}
    assert worst["es"].natural_width > worst["es"].room
    assert any(c.px is not None and c.fallback_condition for c in report.candidate_widths)


def test_a_document_given_as_a_dict_is_checked_as_its_file(fitctl):
    document = json.loads(DIALOG.read_text())
    from_dict = fitd.check(document, "gtk40", languages=["de"], widths="240:360:120", fitctl=fitctl, local=True)
    from_file = fitd.check(DIALOG, "gtk40", languages=["de"], widths=[240, 360], fitctl=fitctl, local=True)
    assert from_dict == from_file


def test_the_daemon_and_fitctls_own_process_agree(fitctl):
    through_daemon = fitd.check(DIALOG, "gtk40", languages=["ta"], widths=[240], fitctl=fitctl)
    local = fitd.check(DIALOG, "gtk40", languages=["ta"], widths=[240], fitctl=fitctl, local=True)
    assert through_daemon == local


def test_usage_errors_are_invalid_argument_in_fitctls_words(fitctl):
    with pytest.raises(fitd.InvalidArgument) as raised:
        fitd.check(DIALOG, "gtk40", widths=[240], categories=["enormous"], fitctl=fitctl)
    assert "enormous" in raised.value.message


def test_an_unreadable_document_is_invalid_document(fitctl, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": 1, "root": {"kind": "text", ')
    with pytest.raises((fitd.InvalidDocument, fitd.InvalidArgument)) as raised:
        fitd.check(broken, "gtk40", widths=[240], fitctl=fitctl, local=True)
    assert "broken.json" in raised.value.message or "line" in raised.value.message


def test_no_fitctl_is_daemon_unavailable(monkeypatch):
    monkeypatch.delenv("FITCTL", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(fitd.DaemonUnavailable):
        fitd.check(DIALOG, "gtk40", widths=[240])
