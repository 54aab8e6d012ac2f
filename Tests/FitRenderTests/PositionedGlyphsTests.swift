import FitTestSupport
import FitText
import Testing

/// `TextEngine.positionedGlyphs`: glyphs placed as Pango places them (order, alignment, baselines),
/// on the pinned fonts.
@Suite struct PositionedGlyphsTests {
    private func layout(_ text: String, font: String = "Noto Sans 14", maxWidth: Double? = nil) throws -> PositionedGlyphs {
        var request = MeasureRequest(text: text, font: font, maxWidth: maxWidth, wrap: .wordChar)
        request.language = "en-us"
        return try PinnedEngine.engine().positionedGlyphs(request)
    }

    @Test func theMeasurementIsTheEnginesMeasurement() throws {
        var request = MeasureRequest(text: "The quick brown fox", font: "DejaVu Sans 10", maxWidth: 60)
        request.language = "en-us"
        let engine = try PinnedEngine.engine()
        #expect(try engine.positionedGlyphs(request).metrics == engine.measure(request))
    }

    @Test func aRightToLeftParagraphsLinesAlignRightAndItsLeftToRightRunsKeepTheirOrder() throws {
        // Line 2 is "你好 · a b x²", all at bidi level 2 in a right-to-left paragraph: drawn left
        // to right as written, its right end at the layout's (pango-view: 你好 at 119.89 px,
        // "a" at 171.93 px).
        let laid = try layout("مرحبا · שלום · नमस्ते · สวัสดี · 你好 · a b x²", maxWidth: 220)
        #expect(laid.lines.count == 2)
        let line = try #require(laid.lines.last)
        #expect(abs(line.x + line.width - 220) < 0.001)
        let xs = line.runs.flatMap(\.glyphs).map { line.x + $0.x }
        #expect(xs == xs.sorted())
        #expect(abs((xs.first ?? 0) - 119.89) < 0.01)
        #expect(xs.contains { abs($0 - 171.93) < 0.01 })
    }

    @Test func runsSitOnTheFirstRunsDominantBaseline() throws {
        // Latin after Chinese is aligned on the ideographic baseline (BaselineShift), so it is
        // raised or lowered; alone it sits on the roman baseline.
        let mixed = try layout("漢字 Latin")
        let latin = try #require(mixed.lines.first?.runs.last)
        #expect(latin.glyphs.allSatisfy { $0.y != 0 })
        let alone = try layout("Latin")
        #expect(alone.lines.first?.runs.first?.glyphs.allSatisfy { $0.y == 0 } == true)
    }

    @Test func aHebrewWordIsDrawnRightToLeft() throws {
        let laid = try layout("abc שלום")
        let runs = try #require(laid.lines.first?.runs)
        #expect(runs.count >= 2)
        // The Hebrew run comes last visually (the paragraph is left to right), its glyphs in
        // visual order: HarfBuzz gives them reversed, leftmost first.
        let hebrew = try #require(runs.last?.glyphs)
        #expect(hebrew.map(\.x) == hebrew.map(\.x).sorted())
    }
}
