import FitLayout
import Testing

@testable import FitLayoutText

/// Stacks (docs/swiftui-layout.md section 1) through the real TextEngine and the
/// pinned fonts. Expected frames are sums of what the engine measures, never typed in.
@Suite struct StackEngineTests {
    func layout(_ nodes: [LayoutNode], width: Double?) throws -> LayoutResult {
        try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: width, height: nil), measurer: try Fixture.measurer())
    }

    func row() -> [LayoutNode] {
        [
            LayoutNode(id: "row", kind: .hstack),
            LayoutNode(id: "merchant", parent: "row", kind: .text, properties: .init(text: "Joe's Coffee Shop")),
            LayoutNode(id: "gap", parent: "row", kind: .spacer),
            LayoutNode(id: "amount", parent: "row", kind: .text, properties: .init(text: "$2.34")),
        ]
    }

    @Test func textsBesideASpacerKeepTheirIdealWidthWhileTheyFit() throws {
        let merchant = try Fixture.width("Joe's Coffee Shop"), amount = try Fixture.width("$2.34")
        // The spacer is 0 from its neighbours and at least 8: the row's ideal is their sum + 8.
        let ideal = merchant + 8 + amount
        for width in [ideal, ideal + 30, ideal * 2] {
            let result = try layout(row(), width: width)
            #expect(same(result.frame("merchant")?.width, merchant))
            #expect(result.node("merchant")?.text?.lineCount == 1)
            #expect(same(result.frame("gap")?.width, width - merchant - amount))
            #expect(same(result.frame("amount")?.maxX, width))
        }
        // Below the ideal the merchant wraps (it is offered what the amount leaves).
        let narrow = try layout(row(), width: ideal - 20)
        #expect((narrow.node("merchant")?.text?.lineCount ?? 0) > 1)
    }

    @Test func seed002PaymentRowFitsOnOneLineAtItsIdealWidth() throws {
        let icon = try Fixture.measurer().lineHeight(of: .style(.body), sizeCategory: .large)
        let merchant = try Fixture.width("Joe's Coffee Shop", font: .style(.body))
        let amount = try Fixture.width("$2.34", font: .style(.body))
        let ideal = icon + merchant + amount + 4 * 8
        let result = try Fixture.layout("payment-row-threshold", width: ideal)
        #expect(result.node("merchant")?.text?.lineCount == 1)
        #expect(same(result.frame("gap")?.width, 8))
        #expect(same(result.frame("amount")?.maxX, ideal))
    }

    @Test func aHigherLayoutPriorityKeepsItsTextOnOneLine() throws {
        let a = "Monthly subscription fee", b = "Renews on the first"
        let bWidth = try Fixture.width(b)
        let nodes = [
            LayoutNode(id: "row", kind: .hstack),
            LayoutNode(id: "a", parent: "row", kind: .text, properties: .init(text: a)),
            LayoutNode(id: "b", parent: "row", kind: .text, properties: .init(text: b, layoutPriority: 1)),
        ]
        let width = bWidth + 8 + 60
        let result = try layout(nodes, width: width)
        #expect(same(result.frame("b")?.width, bWidth))
        #expect(result.node("b")?.text?.lineCount == 1)
        #expect((result.node("a")?.text?.lineCount ?? 0) > 1)
        #expect((result.frame("a")?.width ?? .infinity) <= 60 + 1e-9)
    }

    @Test func baselinesLineUpAcrossFontSizes() throws {
        for name in ["firstTextBaseline", "lastTextBaseline"] {
            let nodes = [
                LayoutNode(id: "row", kind: .hstack, properties: .init(alignment: LayoutAlignment(name: name))),
                LayoutNode(id: "big", parent: "row", kind: .text, properties: .init(text: "Total", textStyle: .largeTitle)),
                LayoutNode(id: "small", parent: "row", kind: .text, properties: .init(text: "incl. tax\nand fees")),
            ]
            let result = try layout(nodes, width: nil)
            let big = try #require(result.node("big")), small = try #require(result.node("small"))
            let first = name == "firstTextBaseline"
            let bigLine = try #require(first ? big.firstBaseline : big.lastBaseline)
            let smallLine = try #require(first ? small.firstBaseline : small.lastBaseline)
            // The two baselines at one height, which is the row's own.
            #expect(same(big.frame.y + bigLine, small.frame.y + smallLine))
            let rowLine = first ? result.node("row")?.firstBaseline : result.node("row")?.lastBaseline
            #expect(same(rowLine, big.frame.y + bigLine))
            // The row spans both children (the union of their ranges).
            #expect(result.size.height + 1e-9 >= max(big.frame.maxY, small.frame.maxY))
            #expect(min(big.frame.y, small.frame.y) == 0)
        }
    }

    @Test func rightToLeftStartsAtTheRightEdge() throws {
        let nodes = [
            LayoutNode(id: "row", kind: .hstack, properties: .init(layoutDirection: .rightToLeft)),
            LayoutNode(id: "first", parent: "row", kind: .text, properties: .init(text: "First")),
            LayoutNode(id: "second", parent: "row", kind: .text, properties: .init(text: "Second")),
        ]
        let result = try layout(nodes, width: nil)
        #expect(same(result.frame("first")?.maxX, result.size.width))
        #expect(result.frame("second")?.x == 0)
        #expect(same(result.frame("first")?.x, try Fixture.width("Second") + 8))
    }

    @Test func rowsOfAnIdealVStackAreAllAsWideAsTheWidest() throws {
        // E7: VStack { Text.frame(maxWidth: .infinity) … }.fixedSize(horizontal: true, vertical: false)
        let long = try Fixture.width("Some Much Longer Text")
        let nodes = [
            LayoutNode(id: "fixed", kind: .fixedSize, properties: .init(horizontal: true, vertical: false)),
            LayoutNode(id: "column", parent: "fixed", kind: .vstack),
            LayoutNode(id: "row1", parent: "column", kind: .frame, properties: .init(maxWidth: .infinity)),
            LayoutNode(id: "short", parent: "row1", kind: .text, properties: .init(text: "Some Text")),
            LayoutNode(id: "row2", parent: "column", kind: .frame, properties: .init(maxWidth: .infinity)),
            LayoutNode(id: "long", parent: "row2", kind: .text, properties: .init(text: "Some Much Longer Text")),
        ]
        let result = try layout(nodes, width: 600)
        #expect(same(result.frame("row1")?.width, long))
        #expect(same(result.frame("row2")?.width, long))
        let short = try #require(result.frame("short"))
        #expect(same(short.x, (long - short.width) / 2))
    }

    @Test func aMinimumWidthFrameFillsItsStackWhenPlacing() throws {
        let nodes = [
            LayoutNode(id: "frame", kind: .frame, properties: .init(minWidth: 300)),
            LayoutNode(id: "row", parent: "frame", kind: .hstack),
            LayoutNode(id: "label", parent: "row", kind: .text, properties: .init(text: "Label")),
            LayoutNode(id: "gap", parent: "row", kind: .spacer),
        ]
        let result = try layout(nodes, width: nil)
        #expect(result.frame("row")?.width == 300)
        #expect(same(result.frame("gap")?.width, 300 - (try Fixture.width("Label"))))
    }

    @Test func seed001FittingRowsHugTheLongestTextWithItsSpacersAtTheirMinimum() throws {
        let long = try Fixture.width("Some Much Longer Text"), short = try Fixture.width("Some Text")
        let result = try Fixture.layout("fitting-spacer-rows", width: 600)
        #expect(same(result.decision("column")?.length, long + 16))
        #expect(same(result.frame("long")?.x, 8))
        #expect(same(result.frame("short")?.x, (long + 16 - short) / 2))
        #expect(same(result.frame("after1")?.maxX, long + 16))

        // The plain column: the rows take the whole 600.
        let plain = try Fixture.layout("spacer-rows", width: 600)
        #expect(same(plain.frame("short")?.x, (600 - short) / 2))
        #expect(same(plain.frame("after2")?.maxX, 600))
    }
}
