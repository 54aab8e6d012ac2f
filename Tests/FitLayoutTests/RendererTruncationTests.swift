import Testing

@testable import FitLayout

/// `fitctl fit --render` shows what the layout says: "…" only on truncated texts.
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

    @Test func aTruncatedTextKeepsItsEllipsisBesideTheNextText() throws {
        // 10 px a character, 12 px a column: "ISO 32…" (the engine's line) is 7 columns in a
        // 60 px (5-column) frame, and "f/2.8" starts 10 px after it: it was drawn over the
        // "…", so the picture said nothing was cut ("ISO 3f/2.8").
        let nodes = [node("row", nil, .hstack, .init(spacing: 10)), text("iso", "row", "ISO 3200", lineLimit: 1), text("f", "row", "f/2.8")]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 120, height: nil), measurer: measurer)
        #expect(result.nodes[1].text?.truncated == true)
        let drawing = LayoutRenderer(columnWidth: 12, rowHeight: 20).render(document, result, lines: [1: ["ISO 32…"], 2: ["f/2.8"]])
        #expect(drawing == "ISO 32… f/2.8", "\(drawing)")
    }

    @Test func textsThatTouchInTheLayoutTouchInColumns() throws {
        let nodes = [node("row", nil, .hstack, .init(spacing: 0)), text("a", "row", "Hello"), text("b", "row", "World")]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 400, height: nil), measurer: measurer)
        #expect(LayoutRenderer(columnWidth: 12, rowHeight: 20).render(document, result) == "HelloWorld")
    }

    @Test func textsTheLayoutPutsOverEachOtherAreDrawnOverEachOther() throws {
        // A ZStack (or an overlay) stacks its texts at one origin on purpose: they are not
        // spread out side by side, the later drawn over the earlier as before.
        let nodes = [node("z", nil, .zstack, .init(alignment: .leading)), text("widest", "z", "1/1000s"), text("value", "z", "1/5s")]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 400, height: nil), measurer: measurer)
        #expect(LayoutRenderer(columnWidth: 10, rowHeight: 20).render(document, result) == "1/5s00s")
    }

    @Test func aBlankLineDoesNotMoveItsText() throws {
        // "b"'s first line is blank where "a" is drawn: only rows with characters count.
        let nodes = [node("row", nil, .hstack, .init(spacing: 0)), text("a", "row", "aaaa"), text("b", "row", "bb")]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 400, height: nil), measurer: measurer)
        let drawing = LayoutRenderer(columnWidth: 20, rowHeight: 20).render(document, result, lines: [1: ["aaaa"], 2: ["", "bb"]])
        #expect(drawing == "aaaa\n  bb", "\(drawing)")
    }

    @Test func aWidthPastIntMaxIsDrawnClippedNotTrappedOn() throws {
        let nodes = [node("row", nil, .hstack), text("a", "row", "a"), node("gap", "row", .spacer)]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 1e20, height: nil), measurer: measurer)
        let drawing = LayoutRenderer(columnWidth: 8, rowHeight: 16).render(document, result)
        #expect(drawing == "a")
    }

    @Test func theEnginesLinesAreDrawnAsGiven() throws {
        let nodes = [text("t", nil, "Screen time this week")]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 100, height: nil), measurer: measurer)
        let drawing = LayoutRenderer(columnWidth: 10, rowHeight: 20).render(document, result, lines: [0: ["Screen", "time this", "week"]])
        #expect(drawing == "Screen\ntime this\nweek")
    }
}
