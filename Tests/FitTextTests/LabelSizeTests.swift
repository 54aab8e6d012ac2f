import Testing

@testable import FitText

/// A GtkLabel's size request (LabelSize): figures from GTK 4.8.3's own labels on the pinned
/// fonts (gtk_widget_measure under Xvfb, FONTCONFIG_FILE=Tests/fonts/fonts.conf, the font set
/// as a PangoAttrFontDesc), as GTK 4.8 with cairo 1.16 draws them.
@Suite struct LabelSizeTests {
    private static let gtk48 = ToolkitProfile(.gtk4, minor: 8, subpixelCairo: false)
    private static let sentence = "The quick brown fox jumps over the lazy dog"

    private func size(
        _ text: String, maxWidth: Double? = nil, ellipsize: EllipsizeMode = .none, maxLines: Int? = nil
    ) throws -> LabelSize {
        var request = MeasureRequest(text: text, font: "DejaVu Sans 10", maxWidth: maxWidth, maxLines: maxLines, ellipsize: ellipsize)
        request.metrics = Self.gtk48
        return try TestEngine.engine().labelSize(request)
    }

    @Test func aPlainLabelIsItsTextRoundedUpToWholePixels() throws {
        #expect(try size("Hello World") == LabelSize(minimumWidth: 75, naturalWidth: 75, minimumHeight: 16, naturalHeight: 16, baseline: 13))
    }

    @Test func anEllipsizingLabelCanShrinkToItsEllipsisAndKeepsItsHeight() throws {
        #expect(try size(Self.sentence, maxWidth: 100, ellipsize: .end)
            == LabelSize(minimumWidth: 13, naturalWidth: 293, minimumHeight: 16, naturalHeight: 16, baseline: 13))
    }

    @Test func aWrappingLabelShrinksToItsWidestWordAndGrowsInHeight() throws {
        #expect(try size(Self.sentence, maxWidth: 100)
            == LabelSize(minimumWidth: 40, naturalWidth: 293, minimumHeight: 63, naturalHeight: 63, baseline: 13))
        // A width under the minimum is raised to it (gtksizerequest.c): a word a line.
        #expect(try size(Self.sentence, maxWidth: 10).naturalHeight == 140)
    }

    @Test func aLineLimitedLabelEndsItsLastLineWithTheEllipsis() throws {
        #expect(try size(Self.sentence, maxWidth: 100, ellipsize: .end, maxLines: 2)
            == LabelSize(minimumWidth: 24, naturalWidth: 293, minimumHeight: 32, naturalHeight: 32, baseline: 13))
    }

    @Test func cellsHaveNoLabelSize() {
        var request = MeasureRequest(text: "x", unit: .cells)
        request.metrics = Self.gtk48
        #expect(throws: FitTextError.self) { try TestEngine.engine().labelSize(request) }
    }

    private func size(_ text: String, maxWidth: Double? = nil, ellipsize: EllipsizeMode = .none, chars: LabelCharWidths, font: String = "DejaVu Sans 10") throws -> LabelSize {
        var request = MeasureRequest(text: text, font: font, maxWidth: maxWidth, ellipsize: ellipsize)
        request.metrics = Self.gtk48
        request.language = "c"
        return try TestEngine.engine().labelSize(request, chars: chars)
    }

    @Test func charPixelsArePangosApproximateCharacterOrDigitWidth() throws {
        // pango_context_get_metrics on the pinned fonts (Pango 1.50.12, a fresh PangoCairo font
        // map): approximate char and digit widths (DejaVu Sans 10 en 7077 / 8192, Noto Sans 12
        // ar 8240 / 9216, Noto Sans 11 ja 7212 / 8192, DejaVu Sans Mono 10 c 8220 / 8192).
        let cases: [(font: String, language: String, units: Int)] = [
            ("DejaVu Sans 10", "en", 8192), ("Noto Sans 12", "ar", 9216), ("Noto Sans 11", "ja", 8192),
            ("DejaVu Sans Mono 10", "c", 8220), ("Cantarell 11", "de", 9216),
        ]
        for (font, language, units) in cases {
            var request = MeasureRequest(text: "", font: font)
            request.language = language
            #expect(try TestEngine.engine().approximateCharPixels(for: request) == units, "\(font), \(language)")
        }
    }

    @Test func widthCharsAndMaxWidthCharsSizeTheLabelAsGTKDoes() throws {
        // GTK 4.8.3's labels, the font as their CSS font (its Pango context's).
        #expect(try size("Hello World", chars: LabelCharWidths(widthChars: 20))
            == LabelSize(minimumWidth: 160, naturalWidth: 160, minimumHeight: 16, naturalHeight: 16, baseline: 13))
        #expect(try size("Hello World", chars: LabelCharWidths(widthChars: 20), font: "DejaVu Sans Mono 10").naturalWidth == 161)
        #expect(try size(Self.sentence, maxWidth: 100, chars: LabelCharWidths(maxWidthChars: 20))
            == LabelSize(minimumWidth: 40, naturalWidth: 157, minimumHeight: 63, naturalHeight: 63, baseline: 13))
        #expect(try size(Self.sentence, maxWidth: 100, chars: LabelCharWidths(widthChars: 8, maxWidthChars: 30))
            == LabelSize(minimumWidth: 64, naturalWidth: 234, minimumHeight: 63, naturalHeight: 63, baseline: 13))
        #expect(try size(Self.sentence, maxWidth: 100, ellipsize: .end, chars: LabelCharWidths(maxWidthChars: 12))
            == LabelSize(minimumWidth: 13, naturalWidth: 96, minimumHeight: 16, naturalHeight: 16, baseline: 13))
    }

    @Test func aCharacterCountOutOfRangeIsAnInvalidArgumentNamingIt() {
        let error = #expect(throws: FitTextError.self) { try size("x", chars: LabelCharWidths(maxWidthChars: 10_001)) }
        guard case .invalidArgument(let name, _)? = error else {
            Issue.record("not invalidArgument: \(String(describing: error))")
            return
        }
        #expect(name == "max_width_chars")
    }

    @Test func theSampleStringIsPangosBestMatchForTheLanguage() {
        #expect(PangoSampleString.text(for: "pt-br").hasPrefix("À noite"))
        #expect(PangoSampleString.text(for: "pt").hasPrefix("Vejam a bruxa"))
        #expect(PangoSampleString.text(for: "pt-pt") == PangoSampleString.text(for: "pt"))
        #expect(PangoSampleString.text(for: "zh-tw") != PangoSampleString.text(for: "zh-cn"))
        #expect(PangoSampleString.text(for: "c") == PangoSampleString.fallback)
        #expect(PangoSampleString.text(for: "english") == PangoSampleString.fallback)
    }
}
