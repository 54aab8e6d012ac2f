import Testing

@testable import FitText

/// The `metrics` option: GTK 4's unrounded metrics, or GTK 3's (cairo hint metrics on, Pango's
/// default round_glyph_positions). Figures from Pango 1.50.12 on the pinned fonts
/// (`pango_measure.py --metrics gtk3`; PANGO_RULES.md, "Breaking and GTK 3 metrics").
@Suite struct MetricsModeTests {
    private func measure(_ text: String, font: String = "DejaVu Sans 10", _ metrics: MetricsMode, maxWidth: Double? = nil) throws -> TextMetrics {
        var request = MeasureRequest(text: text, font: font, maxWidth: maxWidth)
        request.metrics = metrics
        return try TestEngine.engine().measure(request)
    }

    @Test func gtk3RoundsEachGlyphAdvanceAndTheVerticalMetricsToWholePixels() throws {
        let gtk4 = try measure("Hello World", .gtk4)
        #expect(abs(gtk4.width - 76.240234375) < 0.001)
        #expect(abs(gtk4.height - 15.5205078125) < 0.001)
        let gtk3 = try measure("Hello World", .gtk3)
        #expect(gtk3.width == 75)
        #expect(gtk3.height == 17)
        #expect(gtk3.baseline == 13)
    }

    @Test func gtk3RoundsFallbackFontsAndWrappedLinesToo() throws {
        let thai = try measure("ไทย", .gtk3)
        #expect(thai.width == 20)
        #expect(thai.height == 21)
        #expect(thai.baseline == 15)
        let wrapped = try measure("The quick brown fox jumps", .gtk3, maxWidth: 100)
        #expect(wrapped.lineCount == 3)
        #expect(wrapped.width == 65)
        #expect(wrapped.height == 51)
    }

    @Test func gtk3RoundsSpansWithTheirOwnLanguage() throws {
        // A lang span's style kept GTK 4 metrics (14.67 px advances, 21.44 px height).
        var request = MeasureRequest(text: "<span lang='ja'>直</span> <span lang='zh-cn'>直</span>", font: "Noto Sans 11")
        request.markup = true
        request.metrics = .gtk3
        let m = try TestEngine.engine().measure(request)
        #expect(m.width == 34)
        #expect(m.height == 23)
        #expect(m.baseline == 18)
    }

    @Test func theModeIsPartOfTheResultCacheKey() throws {
        // Measured one after the other on the same engine: the second is not the first's cached result.
        let first = try measure("Settings", font: "Noto Sans 11", .gtk4)
        let second = try measure("Settings", font: "Noto Sans 11", .gtk3)
        #expect(first.height != second.height)
        #expect(second.width == 55 && second.height == 21)
        var a = MeasureRequest(text: "x")
        var b = a
        b.metrics = .gtk3
        #expect(a != b)
        a.metrics = .gtk3
        #expect(a == b && a.hashValue == b.hashValue)
    }

    @Test func anUnknownModeIsAnInvalidArgumentNamingTheOption() {
        #expect(throws: FitTextError.self) { try MetricsMode(parsing: "GTK3") }
        do {
            _ = try MetricsMode(parsing: "gtk2")
        } catch {
            guard case .invalidArgument(let name, _) = error else { Issue.record("\(error)"); return }
            #expect(name == "metrics")
        }
    }

    @Test func aWrappedParagraphFitsWhenItDoesWithoutItsFinalWhiteSpace() throws {
        // Pango: "  leading and " / "trailing spaces  " (125 px, of which 115 without the two
        // final spaces: the last one off, 120, is exactly the width).
        var request = MeasureRequest(text: "  leading and trailing spaces  ", font: "DejaVu Sans 12", maxWidth: 120, wrap: .wordChar)
        request.metrics = .gtk3
        let m = try TestEngine.engine().measure(request)
        #expect(m.lineCount == 2)
        #expect(m.width == 125)
    }
}
