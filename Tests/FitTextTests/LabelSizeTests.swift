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
}
