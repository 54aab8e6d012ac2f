#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import FitLayout
import FitLayoutJSON

/// Text and fitting against hand-computed frames (docs/swiftui-layout.md sections 2, 3, 4.10
/// and 5; fixed advance: 10 px a character, 20 px a line).
@Suite struct TextAndFittingTests {
    // MARK: Item 2 — text under a proposed height (spec 2.1, T1–T3)

    @Test func textShowsTheLinesThatFitTheProposedHeightAndEllipsizesTheLast() throws {
        let nodes = [text("t", nil, "one two three four five")]
        // 100 × nil: "one two / three four / five", every line.
        let all = try layout(nodes, width: 100)
        #expect(all.frame("t") == rect(0, 0, 100, 60))
        #expect(all.node("t")?.text == TextOutcome(scale: 1, lineCount: 3, truncated: false))
        // 100 × 45: ⌊45 / 20⌋ = 2 lines, "one two / three fou…".
        let two = try layout(nodes, width: 100, height: 45)
        #expect(two.frame("t") == rect(0, 0, 100, 40))
        #expect(two.node("t")?.text == TextOutcome(scale: 1, lineCount: 2, truncated: true))
        #expect(two.truncated)
        // Below one line: one line, overflowing (the spec's choice).
        let one = try layout(nodes, width: 100, height: 5)
        #expect(one.frame("t") == rect(0, 0, 100, 20))
        #expect(one.node("t")?.text?.truncated == true)
    }

    @Test func textInAShortFrameTruncatesUnlessFixedVertically() throws {
        // frame(height: 25) at W 100: the text is proposed 100 × 25 → one line "one two t…",
        // centred: (25 − 20) / 2 = 2.5.
        let framed = try layout([
            node("f", nil, .frame, .init(height: 25)),
            text("t", "f", "one two three four five"),
        ], width: 100)
        #expect(framed.frame("f") == rect(0, 0, 100, 25))
        #expect(framed.frame("t") == rect(0, 2.5, 100, 20))
        #expect(framed.node("t")?.text?.truncated == true)
        // fixedSize(horizontal: false, vertical: true) inside: every line, overflowing the
        // frame centred, (25 − 60) / 2 = −17.5.
        let fixed = try layout([
            node("f", nil, .frame, .init(height: 25)),
            node("fix", "f", .fixedSize, .init(horizontal: false, vertical: true)),
            text("t", "fix", "one two three four five"),
        ], width: 100)
        #expect(fixed.frame("f") == rect(0, 0, 100, 25))
        #expect(fixed.frame("t") == rect(0, -17.5, 100, 60))
        #expect(fixed.node("t")?.text == TextOutcome(scale: 1, lineCount: 3, truncated: false))
    }

    @Test func lineLimitAndHeightTakeTheSmallerLimit() throws {
        // lineLimit 2, height room for 3: 2 lines; lineLimit 3, height room for 1: 1 line.
        let byLimit = try layout([text("t", nil, "one two three four five", lineLimit: 2)], width: 100, height: 65)
        #expect(byLimit.node("t")?.text?.lineCount == 2)
        let byHeight = try layout([text("t", nil, "one two three four five", lineLimit: 3)], width: 100, height: 25)
        #expect(byHeight.frame("t") == rect(0, 0, 100, 20))
    }

    @Test func minimumScaleFactorShrinksTextToFitTheProposedHeight() throws {
        // T2: proposed 100 × 30. At 1.0 two lines, 40 tall. At 0.75 (7.5 px, 15 px lines)
        // "aaaa bbbb / cccc" is 67.5 × 30; at 0.751 two lines are 30.04 > 30.
        let result = try layout([
            node("t", nil, .text, .init(text: "aaaa bbbb cccc", minimumScaleFactor: 0.5)),
        ], width: 100, height: 30)
        #expect(result.frame("t") == rect(0, 0, 67.5, 30))
        #expect(result.node("t")?.text == TextOutcome(scale: 0.75, lineCount: 2, truncated: false))
        // Without a height only the width counts: 90 × 40 at 1.
        let free = try layout([node("t", nil, .text, .init(text: "aaaa bbbb cccc", minimumScaleFactor: 0.5))], width: 100)
        #expect(free.node("t")?.text?.scale == 1)
    }

    @Test func seed004OverlayValueShrinksToTheWidestValuesFactor() throws {
        // T3 (spec 5, seed 004), protocol/examples/exposure-overlay.json at W 50: "1/1000s" is
        // 70 at 1; the largest factor on the 1/1000 grid with 7 × 10 × f ≤ 50 is 0.714 →
        // 49.98 × 14.28. The overlay's frame is proposed that; "1/5s" is 40 wide at 1 but a
        // line is 20 > 14.28 tall, so it shrinks to 0.714 too: 28.56 × 14.28, leading.
        let document = try FormatTests.example("exposure-overlay.json")
        let result = try document.layout(in: ProposedSize(width: 50, height: nil), measurer: measurer)
        let f = 0.714
        #expect(result.frame("widest") == rect(0, 0, 7 * 10 * f, 20 * f))
        #expect(result.frame("slot") == rect(0, 0, 7 * 10 * f, 20 * f))
        #expect(result.frame("value") == rect(0, 0, 4 * 10 * f, 20 * f))
        #expect(result.node("widest")?.text == TextOutcome(scale: f, lineCount: 1, truncated: false))
        #expect(result.node("value")?.text == TextOutcome(scale: f, lineCount: 1, truncated: false))
    }

    @Test func templateStringsAreCutToTheProposedHeight() throws {
        // A template in a 25-tall frame at W 50: "aaaa bbbb" would be two lines; one fits.
        let result = try layout([
            node("f", nil, .frame, .init(height: 25)),
            node("slot", "f", .template, .init(templates: ["aaaa bbbb"])),
        ], width: 50)
        #expect(result.frame("slot") == rect(0, 2.5, 50, 20))
        #expect(result.node("slot")?.text?.truncated == true)
    }

    // MARK: Item 3 — uniformFit constrained along its axis; scroll (spec 3.2, V1, V2)

    /// A tab bar as one decision: every tab a label with an icon, or the icon alone.
    func tabBar() -> [LayoutNode] {
        var nodes = [node("bar", nil, .uniformFit, .init(spacing: 8, axis: .horizontal))]
        for (index, label) in ["Home", "Search", "Settings"].enumerated() {
            nodes += [
                node("tab\(index)", "bar", .choice),
                node("full\(index)", "tab\(index)", .hstack, .init(spacing: 8)),
                image("fullIcon\(index)", "full\(index)"),
                text("label\(index)", "full\(index)", label),
                image("icon\(index)", "tab\(index)"),
            ]
        }
        return nodes
    }

    @Test func horizontalListSwitchesWhenItsWholeWidthDoesNotFit() throws {
        // V1: tabs 68, 88, 108 + 2 × 8 = 280.
        let wide = try layout(tabBar(), width: 300)
        #expect(wide.decision("bar")?.candidate == 0)
        #expect(wide.frame("tab0") == rect(0, 0, 68, 20))
        #expect(wide.frame("tab1") == rect(76, 0, 88, 20))
        #expect(wide.frame("tab2") == rect(172, 0, 108, 20))
        // 280 > 200: icons only, at 0, 28, 56; the bar 76 × 20. (Before: never constrained
        // along its own axis, so the tabs always "fit".)
        let narrow = try layout(tabBar(), width: 200)
        #expect(narrow.decision("bar")?.candidate == 1)
        #expect((0..<3).allSatisfy { narrow.frame("icon\($0)") == rect(Double($0) * 28, 0, 20, 20) })
        #expect(narrow.node("full0")?.visible == false)
        #expect(narrow.size == LayoutSize(width: 76, height: 20))
    }

    @Test func horizontalListInsideAHorizontalScrollIsUnconstrained() throws {
        var nodes = tabBar()
        nodes[0].parent = "scroll"
        nodes.insert(node("scroll", nil, .scroll, .init(axis: .horizontal)), at: 0)
        // The scroll proposes nil width: the tabs are kept; the scroll is as wide as proposed.
        let result = try layout(nodes, width: 200)
        #expect(result.decision("bar")?.candidate == 0)
        #expect(result.frame("scroll") == rect(0, 0, 200, 20))
        #expect(result.frame("bar") == rect(0, 0, 280, 20))
    }

    func seed000(width: Double?, height: Double?) throws -> LayoutResult {
        try FormatTests.example("uniform-scroll-list.json").layout(in: ProposedSize(width: width, height: height), measurer: measurer)
    }

    /// The same list without the scroll around it.
    func seed000Unscrolled(width: Double?, height: Double?) throws -> LayoutResult {
        var document = try FormatTests.example("uniform-scroll-list.json")
        document.nodes.removeFirst()
        document.nodes[0].parent = nil
        return try document.layout(in: ProposedSize(width: width, height: height), measurer: measurer)
    }

    @Test func seed000ListIsConstrainedOnBothAxesUnlessScrolled() throws {
        // V2 (spec 3.3, seed 000). Rows: "Rent" 20 + 8 + 40 = 68, "Groceries and household"
        // 20 + 8 + 230 = 258; the row list is 258 × 48.
        let rows = try seed000Unscrolled(width: 300, height: 100)
        #expect(rows.decision("list")?.candidate == 0)
        #expect(rows.frame("list") == rect(0, 0, 258, 48))
        #expect(rows.frame("rent") == rect(95, 0, 68, 20))
        #expect(rows.frame("groceries") == rect(0, 28, 258, 20))
        #expect(rows.node("rentColumn")?.visible == false)
        // 258 > 200 and the column list (230 × 104) does not fit either: the last.
        #expect(try seed000Unscrolled(width: 200, height: 100).decision("list")?.candidate == 1)
        // 48 > 40 along the list's own axis: columns (before: rows, the axis was never
        // constrained, D10).
        #expect(try seed000Unscrolled(width: 300, height: 40).decision("list")?.candidate == 1)
        // ViewThatFits(in: .horizontal): the height no longer constrains.
        var document = try FormatTests.example("uniform-scroll-list.json")
        document.nodes.removeFirst()
        document.nodes[0].parent = nil
        document.nodes[0].properties.axes = .horizontal
        let horizontal = try document.layout(in: ProposedSize(width: 300, height: 40), measurer: measurer)
        #expect(horizontal.decision("list")?.candidate == 0)
    }

    @Test func seed000ListInAScrollIsDecidedByTheWidthOnly() throws {
        let rows = try seed000(width: 300, height: 40)
        #expect(rows.decision("list")?.candidate == 0)
        #expect(rows.frame("list") == rect(0, 0, 258, 48))
        #expect(rows.frame("scroll") == rect(0, 0, 258, 40))
        // W 200: columns, list 130 × 124: "Rent" 40 × 48 centred at 45; "Groceries and /
        // household" wraps at 200 to 130 × 40, its item 130 × 68 at y 56.
        let columns = try seed000(width: 200, height: nil)
        #expect(columns.decision("list")?.candidate == 1)
        #expect(columns.frame("list") == rect(0, 0, 130, 124))
        #expect(columns.frame("rent") == rect(45, 0, 40, 48))
        #expect(columns.frame("rentColumnIcon") == rect(55, 0, 20, 20))
        #expect(columns.frame("rentColumnLabel") == rect(45, 28, 40, 20))
        #expect(columns.frame("groceries") == rect(0, 56, 130, 68))
        #expect(columns.frame("groceriesColumnIcon") == rect(55, 56, 20, 20))
        #expect(columns.frame("groceriesColumnLabel") == rect(0, 84, 130, 40))
        #expect(columns.size == LayoutSize(width: 130, height: 124))
    }

    // MARK: Item 5 — any subtree is an item; the decision travels down (spec 3.2)

    @Test func uniformFitItemsMayBeAnySubtreeWithTheChoiceDeepInside() throws {
        let nodes = [
            node("list", nil, .uniformFit, .init(spacing: 0, axis: .vertical)),
            text("header", "list", "Spending"),
            node("pad", "list", .padding, .init(length: 5)),
            node("deep", "pad", .choice),
            node("row", "deep", .hstack, .init(spacing: 8)),
            image("rowIcon", "row"),
            text("rowLabel", "row", "Groceries"),
            node("column", "deep", .vstack, .init(spacing: 0)),
            image("columnIcon", "column"),
            text("columnLabel", "column", "Groceries"),
            node("card", "list", .firstFit),
            text("cardWide", "card", "Groceries total"),
            text("cardShort", "card", "Total"),
        ]
        // Position 0: header 80, padded row 5 + 20 + 8 + 90 + 5 = 128, card 150 → 150 × 90.
        let wide = try layout(nodes, width: 160)
        #expect(wide.decision("list")?.candidate == 0)
        #expect(wide.frame("pad") == rect(11, 20, 128, 30))
        #expect(wide.decision("card")?.candidateID == "cardWide")
        // At 140 position 0 (150 wide) does not fit; position 1: header 80, padded column
        // 100 × 50, card "Total" 50 → 100 × 90. The firstFit follows the list, not its own
        // test ("Groceries total" would fit 140 on its own).
        let narrow = try layout(nodes, width: 140)
        #expect(narrow.decision("list")?.candidate == 1)
        #expect(narrow.frame("pad") == rect(0, 20, 100, 50))
        #expect(narrow.frame("columnLabel") == rect(5, 45, 90, 20))
        #expect(narrow.decision("card")?.candidateID == "cardShort")
        #expect(narrow.node("row")?.visible == false && narrow.node("column")?.visible == true)
    }

    @Test func aChoiceOutsideAUniformFitIsRefused() {
        let error = refusal([node("c", nil, .choice), text("a", "c", "a")])
        guard case .invalidChildren(let at, _) = error else {
            Issue.record("expected invalidChildren, got \(String(describing: error))")
            return
        }
        #expect(at.id == "c")
    }

    // MARK: Item 4 — fitting below its ideal width (spec 4.10, 5 seed 001)

    @Test func fittingHugsItsWidestWrappedRowBelowItsIdealWidth() throws {
        // fitting-column.json at W 150: the hidden copy at 150 wraps "Some Much Longer Text"
        // to "Some Much / Longer Text" 110 × 40, and the rows' flexible frames take their
        // texts' widths there: the column is 110, not min(210, 150) = 150.
        let document = try FormatTests.example("fitting-column.json")
        let result = try document.layout(in: ProposedSize(width: 150, height: nil), measurer: measurer)
        #expect(result.decision("column")?.length == 110)
        #expect(result.frame("row1") == rect(0, 0, 110, 20))
        #expect(result.frame("short") == rect(10, 0, 90, 20))
        #expect(result.frame("row2") == rect(0, 20, 110, 40))
        #expect(result.frame("long") == rect(0, 20, 110, 40))
    }

    @Test func fittingHiddenCopyFixesSpacersAtTheirMinimum() throws {
        // CwlFitting's README form, rows HStack { Spacer; Text; Spacer } (spacing 0): in the
        // hidden copy the spacers are 8 each, so the column is 8 + 210 + 8 = 226 at W 400 and
        // 8 + 110 + 8 = 126 at W 150 (spec 5, seed 001).
        var nodes = [node("column", nil, .fitting, .init(spacing: 0))]
        for (index, label) in ["Some Text", "Some Much Longer Text"].enumerated() {
            nodes += [
                node("row\(index)", "column", .hstack, .init(spacing: 0)),
                node("lead\(index)", "row\(index)", .spacer),
                text("label\(index)", "row\(index)", label),
                node("trail\(index)", "row\(index)", .spacer),
            ]
        }
        #expect(try layout(nodes, width: 400).decision("column")?.length == 226)
        #expect(try layout(nodes, width: 150).decision("column")?.length == 126)
    }
}

@Suite struct LastBaselineFixedTests {
    @Test func lastBaselineIsTheLastLinesBaseline() throws {
        // "ab / cd" at 40: two 20 px lines, baselines 16 and 36 (spec 1.6 E5).
        let two = try measurer.measure(LayoutText("ab cd"), proposedWidth: 40, scale: 1)
        #expect(two.baseline == 16 && two.lastBaseline == 36)
        let one = try measurer.measure(LayoutText("ab"), proposedWidth: nil, scale: 0.5)
        #expect(one.baseline == 8 && one.lastBaseline == 8)
        // Given by no measurer: lines taken as equal.
        #expect(MeasuredText(width: 1, height: 60, baseline: 16, lineCount: 3, truncated: false).lastBaseline == 56)
    }

    @Test func aTemplatesBaselinesAreThoseOfTheLinesItShowsUnderAHeight() throws {
        // "a b c" at width 10 is three 20 px lines; in a height of 25 one shows (its size is
        // 10×20), so its last baseline is the first line's 16, not the third's 56.
        let nodes = [node("box", nil, .frame, .init(width: 10, height: 25)), node("slot", "box", .template, .init(templates: ["a b c"]))]
        let result = try layout(nodes, width: nil)
        #expect(result.frame("slot")?.height == 20)
        #expect(result.node("slot")?.firstBaseline == 16)
        #expect(result.node("slot")?.lastBaseline == 16)
    }
}
