import FitLayout
import FitText
import Testing

@testable import FitLayoutText

/// A layout asked for widget sizes gives every shown text the size a GtkLabel showing it at its
/// frame's width requests: GTK 4.8.3's own figures for a word-char wrapping label on the pinned
/// fonts (gtk_widget_measure under Xvfb: 18…293 px wide, 63 px high at 100 px).
@Suite struct LabelSizesInLayoutTests {
    @Test func aWrappedTextGetsTheSizeItsLabelRequestsAtItsFrameWidth() throws {
        let document = try LayoutDocument(json: Array("""
            {"nodes": [
              {"id": "column", "kind": "vstack"},
              {"id": "label", "parent": "column", "kind": "text", "text": "The quick brown fox jumps over the lazy dog", "font": "DejaVu Sans 10"},
              {"id": "choice", "parent": "column", "kind": "firstFit"},
              {"id": "shown", "parent": "choice", "kind": "text", "text": "Yes", "font": "DejaVu Sans 10"},
              {"id": "other", "parent": "choice", "kind": "text", "text": "No", "font": "DejaVu Sans 10"}
            ]}
            """.utf8))
        var options = LayoutOptions()
        options.widgetSizes = true
        options.metrics = "gtk-4.8"
        let prepared = try PreparedLayout(document)
        let measurer = try TextEngineMeasurer(engine: try Fixture.engine(), options: options)
        var result = try prepared.layout(in: ProposedSize(width: 100, height: nil), options: options, measurer: measurer)
        try measurer.addLabelSizes(to: &result, of: prepared, sizeCategory: options.sizeCategory)
        let label = try #require(result.nodes.first { $0.id == "label" })
        #expect(label.frame.width <= 100)
        #expect(label.labelSize == LabelSize(minimumWidth: 18, naturalWidth: 293, minimumHeight: 63, naturalHeight: 63, baseline: 13))
        // Only shown texts: not the container, not the candidate the decision left out.
        #expect(result.nodes.first { $0.id == "column" }?.labelSize == nil)
        #expect(result.nodes.first { $0.id == "shown" }?.labelSize != nil)
        #expect(result.nodes.first { $0.id == "other" }?.labelSize == nil)
    }
}

/// With `labelSizes`, texts are laid out at the whole-pixel size their GtkLabel requests, so a
/// row of labels needs the sum of their rounded widths: a decision flips where GTK's labels
/// stop fitting, not a pixel or two before.
@Suite struct LabelSizedTextsInLayoutTests {
    static let row = """
        {"nodes": [
          {"id": "choice", "kind": "firstFit", "axes": "horizontal"},
          {"id": "row", "parent": "choice", "kind": "hstack", "spacing": 0},
          {"id": "a", "parent": "row", "kind": "text", "text": "Screen time", "font": "DejaVu Sans 10"},
          {"id": "b", "parent": "row", "kind": "text", "text": "this week", "font": "DejaVu Sans 10"},
          {"id": "short", "parent": "choice", "kind": "text", "text": "Time", "font": "DejaVu Sans 10"}
        ]}
        """

    func layout(labelSizes: Bool, width: Double?) throws -> LayoutResult {
        var options = LayoutOptions()
        options.labelSizes = labelSizes
        // GTK 4.16 positions glyphs unhinted, so texts are fractional (GTK 4.8's hinted
        // metrics make them whole already).
        options.metrics = "gtk-4.16"
        let prepared = try PreparedLayout(try LayoutDocument(json: Array(Self.row.utf8)))
        let measurer = try TextEngineMeasurer(engine: try Fixture.engine(), options: options)
        return try prepared.layout(in: ProposedSize(width: width, height: nil), options: options, measurer: measurer)
    }

    @Test func eachTextIsAsWideAsItsLabelRoundedUp() throws {
        let exact = try layout(labelSizes: false, width: nil)
        let labels = try layout(labelSizes: true, width: nil)
        for id in ["a", "b"] {
            let logical = try #require(exact.nodes.first { $0.id == id }).frame.width
            let label = try #require(labels.nodes.first { $0.id == id }).frame.width
            // The pinned fonts give these texts fractional widths (else the test proves nothing).
            #expect(logical != logical.rounded(.up))
            #expect(label == logical.rounded(.up))
        }
    }

    @Test func theRowIsChosenOnlyFromTheSumOfItsLabelsWidths() throws {
        let exact = try layout(labelSizes: false, width: nil)
        let logicalRow = try #require(exact.nodes.first { $0.id == "row" }).frame.width
        let labelRow = try ["a", "b"].map { id in try #require(exact.nodes.first { $0.id == id }).frame.width.rounded(.up) }.reduce(0, +)
        #expect(labelRow > logicalRow.rounded(.up), "the two rounded widths must add up past the rounded sum")
        // At the whole px the logical row fits in, its labels do not: the short text is shown.
        let between = logicalRow.rounded(.up)
        #expect(try layout(labelSizes: false, width: between).decisions.first?.candidate == 0)
        #expect(try layout(labelSizes: true, width: between).decisions.first?.candidate == 1)
        #expect(try layout(labelSizes: true, width: labelRow).decisions.first?.candidate == 0)
    }
}

/// A layout's `textScale` option replaces the user's scale for the document's fonts (a toolkit
/// sends the sizes it resolved with its own scale already); categories stay the user's.
@Suite struct LayoutTextScaleOptionTests {
    @Test func theOptionsScaleReplacesTheUsersForFonts() throws {
        let document = try LayoutDocument(json: Array(#"{"nodes": [{"id": "t", "kind": "text", "text": "Screen time", "font": "DejaVu Sans 13.33px"}]}"#.utf8))
        let prepared = try PreparedLayout(document)
        func width(userScale: Double, optionScale: Double?) throws -> Double {
            var options = LayoutOptions()
            options.textScale = optionScale
            let measurer = try TextEngineMeasurer(engine: try Fixture.engine(), options: options, textScale: userScale)
            return try prepared.layout(in: ProposedSize(width: nil, height: nil), options: options, measurer: measurer).nodes[0].frame.width
        }
        let atOne = try width(userScale: 1, optionScale: nil)
        #expect(try width(userScale: 2, optionScale: nil) > atOne * 1.9)
        #expect(try width(userScale: 2, optionScale: 1) == atOne)
    }
}
