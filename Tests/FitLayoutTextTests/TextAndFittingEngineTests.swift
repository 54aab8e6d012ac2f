import FitLayout
import FitText
import Testing

@testable import FitLayoutText

/// Text and fitting through the real TextEngine and the pinned fonts
/// (docs/swiftui-layout.md 2.1, 3.2, 4.10). Expected sizes come from what the engine measures.
@Suite struct TextAndFittingEngineTests {
    static let sentence = "one two three four five six seven eight"

    func layout(_ nodes: [LayoutNode], width: Double?, height: Double? = nil) throws -> LayoutResult {
        try LayoutDocument(nodes: nodes).layout(in: ProposedSize(width: width, height: height), measurer: try Fixture.measurer())
    }

    @Test func textKeepsTheLinesItsFrameHoldsAndEllipsizesTheLast() throws {
        let all = try Fixture.measurer().measure(LayoutText(Self.sentence), proposedWidth: 80, scale: 1)
        #expect(all.lineCount >= 3)
        let line = all.height / Double(all.lineCount)
        let nodes = [
            LayoutNode(id: "f", kind: .frame, properties: .init(height: line * 2.5)),
            LayoutNode(id: "t", parent: "f", kind: .text, properties: .init(text: Self.sentence)),
        ]
        let result = try layout(nodes, width: 80)
        let shown = try #require(result.node("t"))
        #expect(shown.text?.lineCount == 2 && shown.text?.truncated == true)
        #expect(same(shown.frame.height, line * 2))
        #expect(shown.frame.width <= 80)
        #expect(result.truncated)

        // fixedSize(vertical) lets it take every line, overflowing the frame.
        let fixed = try layout([
            LayoutNode(id: "f", kind: .frame, properties: .init(height: line * 2.5)),
            LayoutNode(id: "fix", parent: "f", kind: .fixedSize, properties: .init(horizontal: false, vertical: true)),
            LayoutNode(id: "t", parent: "fix", kind: .text, properties: .init(text: Self.sentence)),
        ], width: 80)
        #expect(fixed.node("t")?.text?.lineCount == all.lineCount)
        #expect(same(fixed.frame("t")?.height, all.height))
    }

    @Test func minimumScaleFactorShrinksAOneLineTextToAShorterHeight() throws {
        let line = try Fixture.measurer().measure(LayoutText("Exposure"), proposedWidth: nil, scale: 1).height
        let nodes = [
            LayoutNode(id: "f", kind: .frame, properties: .init(height: line * 0.8)),
            LayoutNode(id: "t", parent: "f", kind: .text, properties: .init(text: "Exposure", minimumScaleFactor: 0.5)),
        ]
        let result = try layout(nodes, width: 1000)
        let outcome = try #require(result.node("t")?.text)
        #expect(outcome.scale < 1 && outcome.scale >= 0.5)
        #expect(!outcome.truncated)
        #expect((result.frame("t")?.height ?? .infinity) <= line * 0.8 + 1e-9)
        // Width alone would not shrink it.
        let free = try layout([nodes[1].withoutParent], width: 1000)
        #expect(free.node("t")?.text?.scale == 1)
    }

    @Test func seed004ValueShrinksWithTheWidestThroughTheOverlaysHeight() throws {
        let widest = try Fixture.width("1/1000s")
        let result = try Fixture.layout("exposure-overlay", width: widest * 0.7)
        let cell = try #require(result.node("widest")?.text)
        let value = try #require(result.node("value")?.text)
        #expect(cell.scale < 1 && value.scale < 1)
        #expect((result.frame("value")?.height ?? .infinity) <= (result.frame("widest")?.height ?? 0) + 1e-9)
        #expect(abs(cell.scale - value.scale) < 0.05)
        #expect(!result.truncated)
    }

    func tabBar(scrolled: Bool) -> [LayoutNode] {
        var nodes: [LayoutNode] = []
        if scrolled { nodes.append(LayoutNode(id: "scroll", kind: .scroll, properties: .init(axis: .horizontal))) }
        nodes.append(LayoutNode(id: "bar", parent: scrolled ? "scroll" : nil, kind: .uniformFit, properties: .init(spacing: 8, axis: .horizontal)))
        for (index, label) in ["Home", "Search", "Settings"].enumerated() {
            nodes += [
                LayoutNode(id: "tab\(index)", parent: "bar", kind: .choice),
                LayoutNode(id: "full\(index)", parent: "tab\(index)", kind: .hstack, properties: .init(spacing: 8)),
                LayoutNode(id: "fullIcon\(index)", parent: "full\(index)", kind: .image, properties: .init(width: 20, height: 20)),
                LayoutNode(id: "label\(index)", parent: "full\(index)", kind: .text, properties: .init(text: label)),
                LayoutNode(id: "icon\(index)", parent: "tab\(index)", kind: .image, properties: .init(width: 20, height: 20)),
            ]
        }
        return nodes
    }

    @Test func tabBarSwitchesToIconsWhenItsWholeWidthDoesNotFitUnlessScrolled() throws {
        let labels = try ["Home", "Search", "Settings"].map { try Fixture.width($0) }
        let needed = labels.reduce(16) { $0 + 28 + $1 }
        #expect(try layout(tabBar(scrolled: false), width: needed).decision("bar")?.candidate == 0)
        let narrow = try layout(tabBar(scrolled: false), width: needed - 1)
        #expect(narrow.decision("bar")?.candidate == 1)
        #expect(narrow.size == LayoutSize(width: 76, height: 20))
        let scrolled = try layout(tabBar(scrolled: true), width: needed - 1)
        #expect(scrolled.decision("bar")?.candidate == 0)
        #expect(same(scrolled.frame("bar")?.width, needed))
        #expect(same(scrolled.frame("scroll")?.width, needed - 1))
    }

    @Test func seed000ListTakesColumnsWhenTheLongRowDoesNotFit() throws {
        let long = try Fixture.width("Groceries and household")
        let rows = try Fixture.layout("uniform-scroll-list", width: 28 + long)
        #expect(rows.decision("list")?.candidate == 0)
        #expect(rows.node("groceriesRowLabel")?.visible == true && rows.node("rentColumn")?.visible == false)
        let columns = try Fixture.layout("uniform-scroll-list", width: 28 + long - 1)
        #expect(columns.decision("list")?.candidate == 1)
        #expect(columns.node("groceriesColumnLabel")?.visible == true && columns.node("rentRow")?.visible == false)
        // The column's label wraps to the proposal, below its ideal width.
        #expect((columns.frame("groceriesColumnLabel")?.width ?? .infinity) <= 28 + long - 1)
    }

    @Test func fittingColumnHugsItsWrappedLongestLabelBelowItsIdealWidth() throws {
        let long = try Fixture.width("Some Much Longer Text")
        let width = (long * 0.8).rounded()
        let wrapped = try Fixture.measurer().measure(LayoutText("Some Much Longer Text"), proposedWidth: width, scale: 1)
        let expected = max(wrapped.width, try Fixture.width("Some Text"))
        #expect(expected < width)
        let result = try Fixture.layout("fitting-column", width: width)
        #expect(same(result.decision("column")?.length, expected))
        #expect(same(result.frame("row1")?.width, expected))
        #expect(same(result.size.width, expected))
    }
}

extension LayoutNode {
    var withoutParent: LayoutNode {
        var copy = self
        copy.parent = nil
        return copy
    }
}

@Suite struct BreakpointEngineTests {
    @Test func cardBreakpointIsTheFirstWholePixelWhereTheRowFitsAndExactlyTheRowsWidth() throws {
        let measurer = try Fixture.measurer()
        let icon = try measurer.lineHeight(of: .style(.body), sizeCategory: .large)
        let rowWidth = icon + 8 + (try Fixture.width("Screen time this week", font: .style(.body)))
        let options = LayoutOptions(breakpoints: BreakpointRange(from: 100, to: 1000))
        let result = try Fixture.document("first-fit-card").layout(in: ProposedSize(width: 500, height: nil), options: options, measurer: measurer)
        let found = try #require(result.breakpoints)
        let first = rowWidth.rounded(.up)
        // Exactly: the row's own width, to Pango's 1/1024 px (a text's width is whole units).
        let exact = (rowWidth * 1024).rounded(.up) / 1024
        #expect(found.decisions["card"] == [
            DecisionInterval(from: 100, to: first - 1, candidate: 1, exactFrom: 100),
            DecisionInterval(from: first, to: 1000, candidate: 0, exactFrom: exact),
        ])
        #expect(exact != first, "the row's width is not a whole px: the exact flip says more than the grid")
        #expect(same(found.maxContentWidth, rowWidth))
        #expect(found.minContentWidth < rowWidth)
    }
}

@Suite struct LastBaselineTests {
    @Test func lastBaselineIsTheEnginesLastLineBaselineInOneFont() throws {
        let measured = try Fixture.measurer().measure(LayoutText(TextAndFittingEngineTests.sentence), proposedWidth: 80, scale: 1)
        #expect(measured.lineCount >= 3)
        // A text with no font is in the UI font: GTK's Sans 10 here.
        var request = MeasureRequest(text: TextAndFittingEngineTests.sentence, font: "Sans 10", maxWidth: 80, wrap: .wordChar)
        request.includeLines = true
        let lines = try Fixture.engine().measure(request).lines
        #expect(lines.count == measured.lineCount)
        #expect(abs(measured.lastBaseline - (lines.last?.baseline ?? 0)) < 1e-6)
        #expect(abs(measured.baseline - (lines.first?.baseline ?? 0)) < 1e-6)
    }
}
