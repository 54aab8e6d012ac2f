import Testing

@testable import FitLayout

/// `fitctl fit --render` shows what the layout says (issue 13): "…" only on truncated texts.
@Suite struct RendererTruncationTests {
    @Test func aTextThatFitsIsDrawnWholeEvenPastItsColumns() throws {
        // 10 px a character, 12 px a terminal column: "ISO 3200" (80 px) fits its frame, which
        // is 7 columns for 8 characters; it was cut to "ISO 32…" though nothing is truncated.
        let nodes = [node("row", nil, .hstack, .init(spacing: 20)), text("iso", "row", "ISO 3200"), text("f", "row", "f/2.8")]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 400, height: nil), measurer: measurer)
        #expect(result.truncated == false)
        let drawing = LayoutRenderer(columnWidth: 12, rowHeight: 20).render(document, result)
        #expect(!drawing.contains("…"), "\(drawing)")
        #expect(drawing.contains("ISO 3200") && drawing.contains("f/2.8"), "\(drawing)")
    }

    @Test func aTruncatedTextEndsInAnEllipsis() throws {
        let nodes = [text("t", nil, "Screen time this week", lineLimit: 1)]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 100, height: nil), measurer: measurer)
        #expect(result.truncated)
        #expect(LayoutRenderer(columnWidth: 10, rowHeight: 20).render(document, result).hasSuffix("…"))
    }

    @Test func theEnginesLinesAreDrawnAsGiven() throws {
        let nodes = [text("t", nil, "Screen time this week")]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 100, height: nil), measurer: measurer)
        let drawing = LayoutRenderer(columnWidth: 10, rowHeight: 20).render(document, result, lines: [0: ["Screen", "time this", "week"]])
        #expect(drawing == "Screen\ntime this\nweek")
    }
}
