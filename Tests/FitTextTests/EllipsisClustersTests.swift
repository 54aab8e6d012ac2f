import Testing

@testable import FitText

/// What an ellipsis replaces, as Pango 1.50.12's ellipsize.c decides (PANGO_RULES.md §7): glyph
/// clusters of HarfBuzz's monotone-characters level, a span ending where the character after
/// the cluster's end is a cursor position, the centre in Pango units; and the shaping rules
/// found with it (a negative advance counts as positive; a joiner joins only its own item).
/// Figures from `FONTCONFIG_FILE=Tests/fonts/fonts.conf /usr/bin/python3
/// Tests/oracle/pango_measure.py` with `"line_texts": true`; the same cases on the system's
/// fonts are in Tests/oracle/ellipsis-cases.jsonl.
@Suite struct EllipsisClustersTests {
    private func measure(
        _ text: String, font: String, language: String, maxWidth: Double? = nil, ellipsize: EllipsizeMode = .none
    ) throws -> TextMetrics {
        var request = MeasureRequest(text: text, font: font, maxWidth: maxWidth, ellipsize: ellipsize, includeLines: true)
        request.language = language
        return try TestEngine.engine().measure(request)
    }

    @Test func anEllipsisRemovesGlyphClustersNotGraphemeClusters() throws {
        // दु is one grapheme cluster but two glyph clusters in Noto Sans Devanagari; the gap
        // from the start ends after ि's base, so the vowel sign ा alone stays.
        let r = try measure("नमस्ते दुनिया", font: "Noto Sans 10", language: "hi", maxWidth: 40, ellipsize: .start)
        #expect(r.lines.map(\.text) == ["…ा"])
        #expect(r.width == 40)
        #expect(r.height == 19.6923828125)
    }

    @Test func aSpanEndsOnlyWhereTheCharacterAfterItsEndIsACursorPosition() throws {
        // ಲ|ಕೋ|ಟೆ: after ಲ comes ಕ then ೋ (no cursor position after ಕ), after ಕೋ comes ಟ then ೆ:
        // the first span is the whole word, and only the ellipsis is left. Its font (Noto
        // Sans) alone makes the line's height.
        let r = try measure("ಲಕೋಟೆ", font: "Noto Sans 10", language: "kn", maxWidth: 30, ellipsize: .start)
        #expect(r.lines.map(\.text) == ["…"])
        #expect(r.width == 30)
        #expect(r.height == 18.1591796875)
    }

    @Test func theMiddleGapGrowsFromTheCentreInPangoUnits() throws {
        let r = try measure("錯誤太多，停止執行", font: "Noto Sans CJK TC 11", language: "zh-tw", maxWidth: 60, ellipsize: .middle)
        #expect(r.lines.map(\.text) == ["錯⋯執行"])
        #expect(r.width == 60)
    }

    @Test func aNegativeAdvanceCountsAsPositive() throws {
        // Noto Serif Kannada gives the below-base ಕ a negative advance; Pango's shape.c negates
        // it (and moves the glyph by as much), so the word is wider than HarfBuzz's sum (23.19).
        let r = try measure("ನ್ಕೋ", font: "Noto Serif Kannada 10", language: "kn")
        #expect(r.width == 25.42578125)
    }

    @Test func aLetterOfAnotherScriptAfterAJoinerIsAClusterOfItsOwn() throws {
        // break_indic joins what follows a ZWJ only inside the joiner's item: "a" is its own
        // cluster, in DejaVu Sans, not in the Malayalam font of the cluster before.
        let r = try measure("ല്\u{200D}a", font: "DejaVu Sans 11", language: "ml")
        #expect(r.width == 26.5595703125)
        #expect(r.height == 19.2314453125)
    }

    @Test func aSpaceAfterAJoinerIsDroppedAtTheLineEnd() throws {
        let r = try measure("ന്\u{200D} ന്", font: "Noto Sans 12", language: "ml", maxWidth: 20)
        #expect(r.lines.map(\.text) == ["ന്\u{200D} ", "ന്"])
        #expect(r.width == 16.9921875)
        #expect(r.height == 39.904296875)
    }

    @Test func aJoinerStillJoinsTheNextLetterOfItsScript() throws {
        // `ಗ್‌ಗ` (ZWNJ) stays one cluster: a break inside it is no break (break-indic.c).
        let text = Array("ಗ್\u{200C}ಗ".utf16)
        var starts: [Int32] = [0, 1, 2, 3, 4]
        text.withUnsafeBufferPointer { TextAnalyzer.splitConjuncts(&starts, in: $0) }
        #expect(starts == [0, 1, 2, 4])
    }
}
