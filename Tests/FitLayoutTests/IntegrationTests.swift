import Testing

@testable import FitLayout

/// The layout's three parts together (stacks, text and fitting, reuse and containers): the
/// places where one part's rule meets another's node (10 px characters, 20 px lines).
@Suite struct IntegrationTests {
    /// The V1 tab bar (spec 3.3) as data rows and one item template whose choice point is
    /// inside it: the decision reaches the copies' choices after forEach expansion.
    static func tabBar(scrolled: Bool = false) -> [LayoutNode] {
        var nodes = [
            node("bar", nil, .uniformFit, .init(spacing: 8, axis: .horizontal)),
            node("tabs", "bar", .forEach, .init(fields: ["label"], data: ["Home", "Search", "Settings"])),
            node("tab", "tabs", .choice),
            node("full", "tab", .hstack, .init(spacing: 8)), image("fullIcon", "full"), text("label", "full", "{label}"),
            image("icon", "tab"),
        ]
        if scrolled {
            nodes[0].parent = "scroll"
            nodes.insert(node("scroll", nil, .scroll, .init(axis: .horizontal)), at: 0)
        }
        return nodes
    }

    @Test func aForEachOfItemsWithAChoiceInsideDecidesAsTheWrittenOutTabBar() throws {
        // Tabs 68, 88, 108 + 2 × 8 = 280 (TextAndFittingTests' tab bar, written out there).
        let wide = try layout(Self.tabBar(), width: 300)
        #expect(wide.decision("bar")?.candidate == 0)
        #expect(wide.frame("tab#0") == rect(0, 0, 68, 20))
        #expect(wide.frame("tab#1") == rect(76, 0, 88, 20))
        #expect(wide.frame("label#2") == rect(200, 0, 80, 20))
        #expect(wide.node("icon#0")?.visible == false)
        let narrow = try layout(Self.tabBar(), width: 200)
        #expect(narrow.decision("bar")?.candidate == 1)
        #expect((0..<3).allSatisfy { narrow.frame("icon#\($0)") == rect(Double($0) * 28, 0, 20, 20) })
        #expect(narrow.size == LayoutSize(width: 76, height: 20))
        // Inside a horizontal scroll the bar is not constrained along its axis (spec 3.2).
        let scrolled = try layout(Self.tabBar(scrolled: true), width: 200)
        #expect(scrolled.decision("bar")?.candidate == 0)
        #expect(scrolled.frame("scroll") == rect(0, 0, 200, 20))
        #expect(scrolled.frame("bar") == rect(0, 0, 280, 20))
    }

    @Test func aBackgroundPassesItsBasesLayoutPriorityUp() throws {
        // Spec 1.2: background passes its child's priority up. "aaaa bbbb cccc" (140, at
        // least 40) beside a background whose base "dddd eeee" (90, at least 40) has priority
        // 1, at 150: the base is sized first with 150 − 40 = 110 and keeps one line (90×20);
        // the other text gets 60 and takes three lines (40×60). Without the priority the
        // less flexible "dddd eeee" would go first with half, 75, and wrap.
        func row(priority: Double?) -> [LayoutNode] {
            [
                node("row", nil, .hstack, .init(spacing: 0)),
                text("a", "row", "aaaa bbbb cccc"),
                node("back", "row", .background),
                node("b", "back", .text, .init(text: "dddd eeee", layoutPriority: priority)),
                node("shape", "back", .spacer, .init(minLength: 0)),
            ]
        }
        let prioritised = try layout(row(priority: 1), width: 150)
        #expect(prioritised.frame("a") == rect(0, 0, 40, 60))
        #expect(prioritised.frame("back") == rect(40, 20, 90, 20))
        #expect(prioritised.frame("shape") == rect(40, 20, 90, 20))
        let plain = try layout(row(priority: nil), width: 150)
        #expect(plain.frame("b")?.width == 40)
    }

    @Test func aBackgroundKeepsItsTextsSpacingAndAHiddenTextKeepsItsBaselines() throws {
        // Spec 1.3: background keeps its base's spacing preferences, so a text in a
        // background above a text is spaced as two texts (0), not as views (8).
        let nodes = [
            node("column", nil, .vstack),
            node("back", "column", .background), text("top", "back", "ab"), node("fill", "back", .spacer),
            text("below", "column", "cd"),
        ]
        let result = try layout(nodes, width: nil)
        #expect(result.frame("below") == rect(0, 20, 20, 20))
        // Spec 4.3: a hidden text is laid out as shown, so it reports its baselines too.
        let hidden = [
            node("row", nil, .hstack, .init(alignment: LayoutAlignment(name: "firstTextBaseline"))),
            node("ghost", "row", .text, .init(text: "ab", hidden: true)), text("shown", "row", "cd"),
        ]
        let row = try layout(hidden, width: nil)
        #expect(row.node("ghost")?.hidden == true)
        #expect(row.node("ghost")?.firstBaseline == 16 && row.node("shown")?.firstBaseline == 16)
        #expect(row.frame("shown") == rect(28, 0, 20, 20))
    }

    // Baseline alignment (spec 1.4) in l3's containers: a *choice* for grid rows and flow
    // lines, read as an hstack reads it. "Big" in title (twice the size: 60×40, baseline 32)
    // beside "ab\ncd" (20×40, first baseline 16): the baselines on one line, the text 16
    // lower; the row as tall as the union, 32 above and max(8, 24) below = 56.
    static let big = FixedAdvanceMeasurer(advance: 10, lineHeight: 20, styleFactors: [.title: 2])

    @Test func aGridRowAlignedByFirstTextBaselineLinesUpItsCells() throws {
        let nodes = [
            node("grid", nil, .grid),
            node("row", "grid", .gridRow, .init(alignment: LayoutAlignment(name: "leadingFirstTextBaseline"))),
            text("title", "row", "Big", style: .title), text("two", "row", "ab\ncd"),
        ]
        let result = try layout(nodes, width: nil, using: Self.big)
        #expect(result.frame("title") == rect(0, 0, 60, 40))
        #expect(result.frame("two") == rect(68, 16, 20, 40))
        #expect(result.frame("row") == rect(0, 0, 88, 56))
        #expect(result.node("row")?.firstBaseline == 32)
        #expect(result.size == LayoutSize(width: 88, height: 56))
    }

    @Test func aFlowAlignedByFirstTextBaselineLinesUpEachLine() throws {
        let nodes = [
            node("flow", nil, .flow, .init(alignment: LayoutAlignment(name: "leadingFirstTextBaseline"))),
            text("title", "flow", "Big", style: .title), text("two", "flow", "ab\ncd"), text("next", "flow", "xyz"),
        ]
        // At 100 "xyz" (30) does not fit after 60 + 8 + 20 + 8: a second line at 56 + 8.
        let result = try layout(nodes, width: 100, using: Self.big)
        #expect(result.frame("title") == rect(0, 0, 60, 40))
        #expect(result.frame("two") == rect(68, 16, 20, 40))
        #expect(result.frame("next") == rect(0, 64, 30, 20))
        #expect(result.size == LayoutSize(width: 88, height: 84))
    }

    @Test func aGridColumnTakesItsCellsLayoutPriority() throws {
        // Spec 4.6: a column's priority is the highest of its cells'. The hstack case of
        // aBackgroundPassesItsBasesLayoutPriorityUp as one grid row: at 150, the column of
        // "dddd eeee" (priority 1) is sized first with 150 − 40 and keeps one line.
        func grid(priority: Double?) -> [LayoutNode] {
            [
                node("grid", nil, .grid, .init(spacing: 0)), node("row", "grid", .gridRow),
                text("a", "row", "aaaa bbbb cccc"),
                node("b", "row", .text, .init(text: "dddd eeee", layoutPriority: priority)),
            ]
        }
        let prioritised = try layout(grid(priority: 1), width: 150)
        #expect(prioritised.frame("a") == rect(0, 0, 40, 60))
        #expect(prioritised.frame("b") == rect(40, 20, 90, 20))
        // Without it the less flexible column goes first with half (75) and wraps.
        let plain = try layout(grid(priority: nil), width: 150)
        #expect(plain.frame("b") == rect(90, 0, 40, 40) && plain.frame("a") == rect(0, 0, 90, 40))
    }
}

