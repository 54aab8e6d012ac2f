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
