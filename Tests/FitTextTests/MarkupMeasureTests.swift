import Testing

@testable import FitText

/// Markup measured against Pango 1.50 (pango_layout_set_markup, the oracle's GTK 4 setup)
/// under the pinned fonts; every figure below is Pango's (PANGO_RULES.md §13).
@Suite struct MarkupMeasureTests {
    private func measure(_ markup: String, font: String = "DejaVu Sans 10", maxWidth: Double? = nil) throws -> TextMetrics {
        var request = MeasureRequest(text: markup, font: font, maxWidth: maxWidth)
        request.markup = true
        return try TestEngine.engine().measure(request)
    }

    private func expectPango(_ m: TextMetrics, _ width: Double, _ height: Double, baseline: Double? = nil) {
        #expect(abs(m.width - width) < 0.01, "width \(m.width) vs Pango \(width)")
        #expect(abs(m.height - height) < 0.01, "height \(m.height) vs Pango \(height)")
        if let baseline { #expect(abs(m.baseline - baseline) < 0.01, "baseline \(m.baseline) vs Pango \(baseline)") }
    }

    @Test func boldLabelMeasuresAsGTKDrawsIt() throws {
        // Bold is wider: the same text plain gives 92.98.
        expectPango(try measure("<b>Save</b> changes"), 96.58, 15.52)
        expectPango(try measure("<b>Save</b> changes", font: "Noto Sans 11"), 95.48, 19.98)
    }

    @Test func sizesFromBigSmallAndSpans() throws {
        expectPango(try measure("<big>Save</big> changes"), 99.52, 18.62, baseline: 14.85)
        expectPango(try measure("<small>Save</small> changes"), 87.52, 15.52)
        expectPango(try measure("<span size=\"x-large\">Save</span> changes"), 107.38, 22.35)
        expectPango(try measure("<span size=\"150%\">Save</span> changes"), 109.34, 23.28)
        expectPango(try measure("<big><span size=\"20pt\">Save</span></big> changes"), 138.80, 37.25)
    }

    @Test func fontFamilyFeaturesAndSpacing() throws {
        expectPango(try measure("<span font=\"Noto Serif 14\">Save</span> changes"), 101.71, 25.42)
        expectPango(try measure("<tt>Save</tt> changes"), 92.36, 15.52)
        expectPango(try measure("<span font_features=\"tnum\">1111</span> 2222"), 72.10, 15.52)
        expectPango(try measure("<span letter_spacing=\"1024\">Save</span> changes"), 95.98, 15.52)
        expectPango(try measure("<span letter_spacing=\"2048\">ab</span><span letter_spacing=\"1000\">cd</span>"), 36.89, 15.52)
    }

    @Test func letterSpacingIsTrimmedAtTheVisualEnds() throws {
        // adjust_line_letter_spacing works on the runs in visual order: in a right-to-left
        // line the spaced “quoted” is leftmost and loses its 1 px space_left.
        expectPango(try measure("שלום <span letter_spacing=\"1024\">“quoted”</span>", font: "Noto Sans Mono 11"), 114.52, 19.98)
        expectPango(try measure("<span letter_spacing=\"1024\">שלום</span> ", font: "Noto Sans 10"), 36.97, 18.16)
        // Ellipsized: the goal less the first run's space_left (the ellipsis run has the gap's).
        var request = MeasureRequest(
            text: "<span letter_spacing=\"1024\">ภาษาไทย</span> Ünïcødé", font: "Noto Sans 10", maxWidth: 60, ellipsize: .end)
        request.markup = true
        expectPango(try TestEngine.engine().measure(request), 59, 20.25)
        // A complex-script run broken inside a word keeps its stretch's spacing.
        expectPango(try measure("<span letter_spacing=\"1024\">“quoted” ภาษาไทย</span>", maxWidth: 120), 104.42, 40.29)
    }

    @Test func decorationsDoNotChangeExtents() throws {
        expectPango(try measure("<s>Save</s> <u>changes</u>"), 92.98, 15.52)
    }

    @Test func riseSubAndSupRaiseTheLine() throws {
        expectPango(try measure("<span rise=\"5000\">Save</span> changes"), 92.98, 20.40, baseline: 17.26)
        expectPango(try measure("H<sub>2</sub>O"), 26.45, 16.44, baseline: 12.38)
        expectPango(try measure("x<sup>2</sup>"), 13.83, 18.20, baseline: 15.06)
        expectPango(try measure("x<sup>2<sup>3</sup></sup>"), 17.98, 20.08, baseline: 16.94)
        expectPango(try measure("<sub>1</sub>x"), 14.96, 19.88)
        expectPango(try measure("<span baseline_shift=\"3pt\">x</span>y"), 15.78, 18.52)
    }

    @Test func aStepFromAPixelSizeIsInPoints() throws {
        // <big> inside font="14px" is a size of 1.2 × 14 = 16.8 *points*, as Pango makes it.
        expectPango(try measure("<span font=\"14px\"><big>Save</big></span> x"), 67.11, 26.07)
    }

    @Test func raisedRunsAloneSetTheLineFromTheBaseline() throws {
        // The line's extents are the union of its runs' from the baseline: a lone <sup> has
        // descent 0, a run lowered far below has ascent 0.
        expectPango(try measure("<span font=\"14px\"><sup>2</sup></span>"), 7.42, 15.71, baseline: 15.71)
        expectPango(try measure("<span rise=\"-50000\">x</span>"), 7.89, 51.97, baseline: 0)
    }

    @Test func subAtAParagraphStartHasNoPreviousFont() throws {
        // Each paragraph is itemized apart: the second line's <sub> is sized and shifted as
        // at the start of the text (1/1.2 and 5000), not from the line above's font.
        expectPango(try measure("<span rise=\"50000\">x</span>\n<sub>y</sub>"), 7.89, 74.14)
    }

    @Test func smallCapsTheFontLacksAreEmulated() throws {
        // DejaVu has no smcp: lowercase is drawn uppercased at x-height / cap-height (0.8
        // without OS/2 figures) of the font's size (itemize.c split_item_for_variant).
        expectPango(try measure("<span variant=\"smallcaps\">Smallcaps</span>", font: "DejaVu Sans Mono 10"), 59.39453125, 15.5205078125)
        expectPango(try measure("<span variant=\"small-caps\">small</span>"), 35.150390625, 12.4150390625, baseline: 9.8994140625)
        expectPango(try measure("<span variant=\"all-small-caps\">Ab</span>"), 14.6123046875, 12.4150390625)
        expectPango(try measure("<span variant=\"unicase\">Ab</span>"), 15.7587890625, 15.5205078125)
        // Noto Sans has smcp: the feature, no emulation.
        expectPango(try measure("<span variant=\"smallcaps\">Smallcaps</span>", font: "Noto Sans 10"), 62.2265625, 18.1591796875)
        // A plain description's variant too.
        let plain = try TestEngine.engine().measure(MeasureRequest(text: "Small Caps", font: "DejaVu Sans Small-Caps 10"))
        expectPango(plain, 70.0400390625, 15.5205078125)
    }

    @Test func langGivesTheStretchItsLanguage() throws {
        // Serbian Cyrillic forms (locl) in Noto Sans: 35.84 with lang="sr", 35.77 without.
        expectPango(try measure("<span lang=\"sr\">бгдпт</span>", font: "Noto Sans 10"), 35.84, 18.16)
        expectPango(try measure("бгдпт", font: "Noto Sans 10"), 35.77, 18.16)
    }

    @Test func theEllipsisTakesTheStyleAtTheGap() throws {
        // ellipsize.c shapes the ellipsis with the attributes of the text it replaces:
        // <small>'s smaller font, <sub>'s scaled (but not shifted) one.
        var request = MeasureRequest(text: "<small>Save all the changes now</small>", font: "Noto Sans 10", maxWidth: 60, ellipsize: .end)
        request.markup = true
        expectPango(try TestEngine.engine().measure(request), 60, 15.13, baseline: 11.88)
        request.text = "<sub>Save all the changes now</sub>"
        expectPango(try TestEngine.engine().measure(request), 60, 20.01, baseline: 11.88)
        // The final gap start's: the space after "Open file" (10 pt), not the <big> text a
        // first guess of the gap started in (update_ellipsis_shape).
        request.font = "Noto Sans Mono 11"
        request.text = "<span font=\"Noto Serif Light 10\"><span size=\"80%\">Open file</span> <big>नमस्ते</big></span> "
        expectPango(try TestEngine.engine().measure(request), 60, 18.16, baseline: 14.25)
        // An ellipsis in sub/sup text is itemized alone: no previous item, so 1/1.2 per
        // scale (11 pt → 9.17 pt), not the OS/2 ratio of the text before (6.6 pt).
        request.maxWidth = 100
        request.text = "<span baseline_shift=\"superscript\">Délai <sup>12:45 Привет</sup></span>"
        expectPango(try TestEngine.engine().measure(request), 100, 24.14, baseline: 20.56)
        request.maxWidth = 60
        // The gap grows from the end, each start with its own ellipsis: at the space the
        // 10 pt one fits, so "Open file" stays whole (not "Open fil…" with an 8 pt one).
        request.text = "<span font=\"Noto Serif Light 10\"><span size=\"80%\">Open file</span> <span size=\"14pt\">नमस्ते</span></span>"
        expectPango(try TestEngine.engine().measure(request), 60, 18.16, baseline: 14.25)
    }

    @Test func subAndSupTakeTheFontThatDrewTheTextBefore() throws {
        // The previous item is the CJK fallback font (its OS/2 sub/sup metrics), not DejaVu.
        expectPango(try measure("你好<sub>2</sub>"), 31.75, 19.31)
        expectPango(try measure("ab 你好 <sup>2</sup>"), 55.61, 19.31)
        expectPango(try measure("שלום <sub>2</sub>"), 39.68, 16.44)
        // The space between Hebrew and digits resolves to the Hebrew's level, so it is in the
        // Hebrew item: the previous font is the Hebrew one.
        expectPango(try measure("שלום <sub>12:45</sub>", font: "Noto Sans Mono 11"), 67.90, 18.67)
        // An emoji's item is in the emoji font: Noto Color Emoji's OS/2 metrics.
        expectPango(try measure("👍<sup>a</sup>", font: "DejaVu Sans Mono 10"), 22.22, 18.31, baseline: 15.06)
        expectPango(try measure("👍🏽<sub>a</sub>"), 22.32, 16.43)
        // A space after it is an item of its own (not emoji), in the description's font.
        expectPango(try measure("👍 <sup>a</sup>", font: "Noto Sans 10"), 24.56, 18.16)
        // A paragraph starting with Hebrew is right to left: the space before Latin takes
        // its level (UAX #9 N1), so it too is in the Hebrew item; in a left-to-right one it
        // is an item of its own in the primary font.
        expectPango(try measure("שלום <sub>Save</sub>", font: "Noto Sans Mono 11"), 61.75, 18.67)
        expectPango(try measure("مرحبا <span baseline_shift=\"superscript\">changes</span>", font: "Noto Serif 11"), 95.17, 26.18)
        expectPango(try measure("a שלום <sub>Save</sub>", font: "Noto Sans Mono 11"), 79.98, 19.98)
    }

    @Test func aShiftAppliesOnTheLineWhereItsTagStarts() throws {
        // apply_baseline_shift runs per line: the wrapped "cc" is not raised, and "dd" after
        // the tag's end is lowered by the shift (Pango: line 2 is 12.38 + 9.54).
        var request = MeasureRequest(
            text: "aa <span baseline_shift=\"superscript\">bb cc</span> dd", font: "DejaVu Sans 10", maxWidth: 40,
            includeLines: true)
        request.markup = true
        let lines = try TestEngine.engine().measure(request).lines
        #expect(lines.count == 2)
        #expect(abs(lines[0].ascent - 18.775) < 0.01 && abs(lines[0].descent - 3.145) < 0.01)
        #expect(abs(lines[1].ascent - 12.376) < 0.01 && abs(lines[1].descent - 9.544) < 0.01)
    }

    @Test func aRaiseAddsToTheScriptBaselineAlignment() throws {
        // apply_baseline_shift: a run's y_offset is its rise / shift plus its alignment on
        // the first run's dominant baseline (Devanagari's hanging, Han's ideographic), in
        // the run's own (here superscript-scaled) font; fitd had dropped the alignment.
        expectPango(try measure("नमस्ते<sup>a</sup>", font: "Noto Serif 11"), 35.93, 24.05, baseline: 18.06)
        expectPango(try measure("<span rise=\"-2000\">你好</span> ", font: "Noto Serif 11"), 33.15, 23.07, baseline: 16.89)
        expectPango(try measure("한국어 <span rise=\"-2000\">नमस्ते</span>"), 68.69, 20.14, baseline: 15.47)
    }

    @Test func fontFeaturesDoNotSplitItems() throws {
        // pango-layout.c affects_itemization leaves font_features out: the space after the
        // span stays in the item (and font) of the text before it, not an item of its own
        // in the description's font.
        expectPango(try measure("<span font_features=\"tnum,-liga\">שלום</span> ", font: "Noto Serif 11"), 37.12, 17.07)
        expectPango(try measure("<span font_features=\"tnum,-liga\">ภาษาไทย</span> ", font: "Noto Sans Mono 11"), 56.06, 22.16)
        expectPango(try measure("<span font_features=\"tnum,-liga\">한국어</span> "), 40.53, 19.31)
        // So the item before the <sup> is the Korean one, space included: Noto Sans CJK's
        // OS/2 superscript metrics size and shift it.
        expectPango(try measure("<span font_features=\"tnum,-liga\">한국어</span> <sup>ภาษาไทย</sup>"), 69.03, 19.31)
    }

    @Test func nestedIdenticalShiftsEachEndOnTheWrappedLine() throws {
        // Two identical nested shifts are two attributes (GtkLabel takes the markup's list as
        // it is): where they end on line 2, collect_baseline_shift pops and subtracts each.
        let m = try measure(
            "<span baseline_shift=\"-4pt\"><span baseline_shift=\"-4pt\">한국어 “quoted”</span></span> ",
            font: "DejaVu Sans Mono 10", maxWidth: 80)
        expectPango(m, 72.25, 42.83)
    }

    @Test func shiftsEndAsPangosStackSays() throws {
        // collect_baseline_shift pops the top entry for each shift ending at an item and
        // takes it off only if it is that attribute. A <sub> of two items (Cyrillic, Latin)
        // inside a <sup>: at their common end the <sup> pops the <sub>'s entry and the <sub>
        // the <sup>'s, so neither is taken off and the space after stays raised.
        expectPango(try measure("<sup> <sub>Привет Settings</sub></sup> ", font: "Noto Sans Mono 11"), 82.12, 19.98, baseline: 19.64)
        // A shift opened at a line's start had no previous run (5000); where it ends on the
        // next line, that entry's value is what lowers the rest.
        let m = try measure("Wi‑Fi <sub>Wi‑Fi &amp; b</sub> ", maxWidth: 40)
        expectPango(m, 32.49, 45.84)
        // Shifts opening together are pushed outer first, so the inner ends first: all taken off.
        expectPango(try measure("<span baseline_shift=\"superscript\"><sub>你好 12:45</sub> </span>"), 62.00, 21.23, baseline: 18.03)
    }

    @Test func anItemizingTagCutsTheItemEvenWithEqualAttributes() throws {
        // Pango's attribute iterator stops where such a tag opens or closes: the inner
        // span starts a new item though its size is the outer one's, so the space stays in
        // the kana item and "ちは 1/2" fits on line 2 (the plain text takes 3 lines).
        let m = try measure("<span size=\"80%\">こんにちは <span size=\"80%\">1/2</span></span>", font: "Noto Sans 10", maxWidth: 40)
        expectPango(m, 39.89, 30.89)
        #expect(m.lineCount == 2)
        // An empty tag too: the space after it is an item of its own, in Noto Serif.
        expectPango(try measure("שלום<sub></sub> ", font: "Noto Serif 11"), 36.27, 19.98)
    }

    @Test func wrapsWithStyles() throws {
        let m = try measure("<b>Save</b> all the <big>changes</big> you made today", maxWidth: 80)
        expectPango(m, 67.22, 80.71)
        #expect(m.lineCount == 5)
    }

    @Test func markupIsPartOfTheCacheKey() throws {
        let engine = try TestEngine.engine()
        var request = MeasureRequest(text: "<b>x</b>", font: "DejaVu Sans 10")
        let plain = try engine.measure(request)
        request.markup = true
        let marked = try engine.measure(request)
        #expect(plain.width != marked.width)
        #expect(request != MeasureRequest(text: "<b>x</b>", font: "DejaVu Sans 10"))
    }

    @Test func malformedMarkupIsANamedError() throws {
        #expect(throws: FitTextError.invalidArgument(name: "markup", reason: "Error on line 1 char 19: Element “i” was closed, but the currently open element is “b”")) {
            _ = try measure("<b>Save</i>")
        }
    }

    @Test func cellsCountThePlainText() throws {
        var request = MeasureRequest(text: "<b>abc</b>&amp;", unit: .cells)
        request.markup = true
        #expect(try TestEngine.engine().measure(request).width == 4)
    }

    /// A text of the daemon's size made of tags: every tag read, one style per distinct
    /// attribute set (no work per tag that grows with the text: every request costs time
    /// linear in its size, docs/reliability.md).
    @Test func manyTagsAtTheSizeLimit() throws {
        let unit = "<b>ab</b> <i>c</i>\n"
        let count = TextLimits.maxTextBytes / unit.utf8.count
        let m = try measure(String(repeating: unit, count: count))
        #expect(m.lineCount == count + 1)
    }

    @Test func distinctStylesAreBounded() throws {
        let many = (1...(TextEngine.maxMarkupStyles + 1)).map { "<span size=\"\($0 * 64)\">a</span>" }.joined()
        #expect(throws: FitTextError.self) { _ = try measure(many) }
    }
}
