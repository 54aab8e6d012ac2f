"""Client.measure, measure_batch, resolve_font against the daemon (and fitctl as a second
client of the same daemon)."""

from __future__ import annotations

import json
import math
import subprocess

import pytest

import fitd

# The figure clients/shell/measure.sh and the end-to-end tests pin for the test fonts.
HELLO = (94.78125, 18.625, 14.8515625)


def test_measure_gives_the_pinned_metrics_of_the_test_fonts(fit):
    m = fit.measure("Hello, world", "DejaVu Sans 12")
    assert (m.width, m.height, m.baseline) == HELLO
    assert (m.line_count, m.ellipsized, m.truncated, m.fonts, m.lines) == (1, False, False, ("DejaVu Sans",), ())
    assert m.generation >= 1


def test_measure_with_lines_matches_fitctl_measure_json(fit, fitctl):
    text, font = "The quick brown fox jumps over the lazy dog", "DejaVu Sans 10"
    m = fit.measure(text, font, max_width=100, lines=True)
    out = json.loads(subprocess.run([fitctl, "measure", text, "--font", font, "--max-width", "100", "--lines", "--json"],
                                    check=True, capture_output=True, text=True).stdout)
    assert (m.width, m.height, m.baseline, m.line_count) == (out["width"], out["height"], out["baseline"], out["lines"])
    assert [(line.text, line.width, line.start, line.length, line.baseline) for line in m.lines] == [
        (line["text"], line["width"], line["start"], line["length"], line["baseline"]) for line in out["line_metrics"]]
    assert m.line_count >= 3 and m.width <= 100
    assert sum(line.length for line in m.lines) == len(text)


def test_ellipsizing_and_max_lines_report_truncation(fit):
    m = fit.measure("one two three four five", "DejaVu Sans 10", max_width=60, max_lines=1, ellipsize="end", lines=True)
    assert m.truncated and m.ellipsized and m.lines[0].text.endswith("…") and m.width <= 60
    dropped = fit.measure("one two three four five", "DejaVu Sans 10", max_width=60, max_lines=1)
    assert dropped.truncated and not dropped.ellipsized and dropped.line_count == 1


def test_cells_and_features_are_sent_with_their_types(fit):
    assert fit.measure("日本語 ok", unit="cells").width == 9
    assert fit.measure("\x1b[1mbold\x1b[0m", unit="cells", escapes="ansi").width == 4
    plain = fit.measure("0123456789", "DejaVu Sans 12")
    assert fit.measure("0123456789", "DejaVu Sans 12", features=["tnum"]).width == plain.width
    assert fit.measure("0123456789", "DejaVu Sans 12", features="tnum,-kern").width == plain.width


def test_the_user_text_scale_applies_unless_a_text_scale_is_given(fit):
    base = fit.measure("Hello, world", "DejaVu Sans 12").width
    fit.set_text_scale(2.0)
    assert fit.text_scale == 2.0
    assert fit.measure("Hello, world", "DejaVu Sans 12").width > 1.9 * base
    assert fit.measure("Hello, world", "DejaVu Sans 12", text_scale=1.0).width == base


def test_measure_batch_takes_every_request_form_and_keeps_errors_per_entry(fit):
    results = fit.measure_batch([
        "Hello, world",
        ("Hello, world", "DejaVu Sans 12"),
        ("Hello, world", "DejaVu Sans 12", {"max_width": 50}),
        {"text": "Hello, world", "font": "DejaVu Sans 12", "lines": True},
        fitd.MeasureRequest("Hello, world", "DejaVu Sans 12", {"max_width": -1}),
        ("x", "DejaVu Sans 0"),
    ])
    assert len(results) == 6
    assert results[1] == fit.measure("Hello, world", "DejaVu Sans 12")
    assert results[2].line_count == 2 and results[2] == fit.measure("Hello, world", "DejaVu Sans 12", max_width=50)
    assert len(results[3].lines) == 1
    assert isinstance(results[4], fitd.InvalidArgument) and "max_width" in results[4].message
    assert isinstance(results[5], fitd.InvalidFont)
    assert fit.measure_batch([]) == []


def test_resolve_font_says_when_fontconfig_substituted(fit):
    dejavu = fit.resolve_font("DejaVu Sans Bold 12")
    assert (dejavu.family, dejavu.weight, dejavu.pixel_size, dejavu.matched, dejavu.substituted) == ("DejaVu Sans", 700, 16, True, False)
    assert dejavu.file.endswith(".ttf") and dejavu.ascent > 0 and dejavu.descent > 0
    missing = fit.resolve_font("No Such Family 12")
    assert missing.substituted and missing.family != "No Such Family" and missing.fallbacks


def test_errors_are_the_named_exceptions(fit):
    with pytest.raises(fitd.InvalidFont) as bad_font:
        fit.measure("x", "DejaVu Sans 0")
    assert bad_font.value.name == "org.fitd.Fit1.Error.InvalidFont" and "size" in bad_font.value.message
    with pytest.raises(fitd.UnknownOption, match="max_widht"):
        fit.measure("x", max_widht=10)
    with pytest.raises(fitd.InvalidArgument, match="wrap"):
        fit.measure("x", max_width=10, wrap="WORD")
    with pytest.raises(fitd.InvalidArgument, match="max_width"):
        fit.measure("x", max_width=math.nan)
    with pytest.raises(fitd.InvalidArgument, match="max_lines"):
        fit.measure("x", max_lines=-1)  # not a u: sent as a double for the daemon to name
    with pytest.raises(TypeError, match="max_width"):
        fit.measure("x", max_width="wide")
    assert all(issubclass(c, fitd.FitError) for c in (fitd.InvalidArgument, fitd.TooLarge, fitd.NoFonts, fitd.Internal,
                                                      fitd.InvalidDocument, fitd.DaemonUnavailable))


def test_an_unknown_error_name_is_a_fit_error_with_its_name():
    error = fitd.error_for("org.fitd.Fit1.Error.SomethingNew", "from a newer daemon")
    assert type(error) is fitd.FitError and error.name == "org.fitd.Fit1.Error.SomethingNew"
    assert type(fitd.error_for("org.fitd.Fit1.Error.TooLarge", "x")) is fitd.TooLarge
    assert type(fitd.error_for("org.freedesktop.DBus.Error.ServiceUnknown", "x")) is fitd.DaemonUnavailable


def test_no_bus_is_daemon_unavailable(tmp_path):
    with pytest.raises(fitd.DaemonUnavailable, match="session bus"):
        fitd.Client(bus_address=f"unix:path={tmp_path}/no-bus-here", timeout=5)
