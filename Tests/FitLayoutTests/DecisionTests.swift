import Testing
@testable import FitLayout

/// The seeds' scenarios (docs/swiftui-layout.md section 5), one per technique, against
/// hand-computed frames.
@Suite struct DecisionTests {
    /// ViewThatFits card: a row (icon, label) or a column (icon over label).
    func card(_ label: String) -> [LayoutNode] {
        [
            node("card", nil, .firstFit, .init(axes: .horizontal)),
            node("row", "card", .hstack, .init(spacing: 8)),
            image("rowIcon", "row"),
            text("rowLabel", "row", label),
            node("column", "card", .vstack, .init(spacing: 4)),
            image("columnIcon", "column"),
            text("columnLabel", "column", label),
        ]
    }

    @Test func firstFitCardSwitchesWhenTheTextGrows() throws {
        // "Screen time" = 11 × 10 = 110; row ideal = 20 + 8 + 110 = 138 ≤ 220 → the row.
        let short = try layout(card("Screen time"), width: 220)
        #expect(short.decision("card")?.candidate == 0)
        #expect(short.decision("card")?.candidateID == "row")
        #expect(short.frame("row") == rect(0, 0, 138, 20))
        #expect(short.frame("rowIcon") == rect(0, 0, 20, 20))
        #expect(short.frame("rowLabel") == rect(28, 0, 110, 20))
        #expect(short.node("column")?.visible == false)

        // "Screen time this week" = 210; row ideal 238 > 220 → the column: 210 wide,
        // 20 + 4 + 20 = 44 tall; the icon centred at (210 − 20) / 2 = 95.
        let long = try layout(card("Screen time this week"), width: 220)
        #expect(long.decision("card")?.candidateID == "column")
        #expect(long.frame("column") == rect(0, 0, 210, 44))
        #expect(long.frame("columnIcon") == rect(95, 0, 20, 20))
        #expect(long.frame("columnLabel") == rect(0, 24, 210, 20))
        #expect(long.node("row")?.visible == false)
        #expect(long.size == LayoutSize(width: 210, height: 44))
    }

    /// ScreenCred: three items, each a row or a column; only "Productivity" is too long.
    func list() -> [LayoutNode] {
        var nodes = [node("list", nil, .uniformFit, .init(spacing: 0, axis: .vertical))]
        for (index, label) in ["Books", "Games", "Productivity"].enumerated() {
            nodes += [
                node("item\(index)", "list", .firstFit, .init(axes: .horizontal)),
                node("row\(index)", "item\(index)", .hstack, .init(spacing: 8)),
                image("rowIcon\(index)", "row\(index)"),
                text("rowLabel\(index)", "row\(index)", label),
                node("col\(index)", "item\(index)", .vstack, .init(spacing: 4)),
                image("colIcon\(index)", "col\(index)"),
                text("colLabel\(index)", "col\(index)", label),
            ]
        }
        return nodes
    }

    @Test func aSpacerInAUniformFitExpandsAlongTheListOnly() throws {
        // A vertical list (the default axis) of a text and a spacer: the spacer takes the
        // height left, and no width, so the list is as wide as the text.
        let nodes = [node("list", nil, .uniformFit, .init(spacing: 0)), text("t", "list", "ab"), node("gap", "list", .spacer)]
        let result = try layout(nodes, width: 100, height: 100)
        #expect(result.frame("gap")?.width == 0)
        #expect(result.frame("gap")?.height == 80)
        #expect(result.size == LayoutSize(width: 20, height: 100))
        let across = [node("list", nil, .uniformFit, .init(spacing: 0, axis: .horizontal)), text("t", "list", "ab"), node("gap", "list", .spacer)]
        #expect(try layout(across, width: 100, height: 100).frame("gap")?.size == LayoutSize(width: 80, height: 0))
    }

    @Test func uniformFitSwitchesEveryItemWhenOneIsLong() throws {
        // Row ideals: 20 + 8 + 50 = 78, 78, 20 + 8 + 120 = 148 > 140 → not all rows fit.
        // Column ideals: 50, 50, 120 ≤ 140 → candidate 1 for all three.
        let narrow = try layout(list(), width: 140)
        #expect(narrow.decision("list")?.candidate == 1)
        for index in 0..<3 {
            #expect(narrow.decision("item\(index)")?.candidateID == "col\(index)")
            #expect(narrow.node("row\(index)")?.visible == false)
        }
        // Columns: 50×44, 50×44, 120×44 stacked without spacing, centred in 120.
        #expect(narrow.frame("list") == rect(0, 0, 120, 132))
        #expect(narrow.frame("col0") == rect(35, 0, 50, 44))
        #expect(narrow.frame("item1") == rect(35, 44, 50, 44))
        #expect(narrow.frame("col2") == rect(0, 88, 120, 44))
        #expect(narrow.frame("colLabel2") == rect(0, 112, 120, 20))

        // Everything fits at 300: all rows.
        let wide = try layout(list(), width: 300)
        #expect(wide.decision("list")?.candidate == 0)
        #expect((0..<3).allSatisfy { wide.decision("item\($0)")?.candidateID == "row\($0)" })
        #expect(wide.frame("row2") == rect(0, 40, 148, 20))
    }

    /// A list of settings, each item a row (label beside value) or a column (label over
    /// value), and each value "long if it fits, else short": a firstFit inside the item.
    func settings(_ values: [(label: String, long: String, short: String)]) -> [LayoutNode] {
        var nodes = [node("list", nil, .uniformFit, .init(spacing: 0, axis: .vertical))]
        for (index, value) in values.enumerated() {
            nodes.append(node("item\(index)", "list", .firstFit, .init(axes: .horizontal)))
            for (form, kind) in [("row", LayoutNodeKind.hstack), ("col", .vstack)] {
                nodes += [
                    node("\(form)\(index)", "item\(index)", kind, .init(spacing: kind == .hstack ? 8 : 0)),
                    text("\(form)Label\(index)", "\(form)\(index)", value.label),
                    node("\(form)Value\(index)", "\(form)\(index)", .firstFit, .init(axes: .horizontal)),
                    text("\(form)Long\(index)", "\(form)Value\(index)", value.long),
                    text("\(form)Short\(index)", "\(form)Value\(index)", value.short),
                ]
            }
        }
        return nodes
    }

    @Test func aFirstFitInsideAListItemDecidesForItsItemAlone() throws {
        let nodes = settings([("Name", "Alexander Hamilton", "A. Hamilton"), ("Town", "New York", "NY")])
        // Row ideals (values at their ideal, so long): 40 + 8 + 180 = 228 and 40 + 8 + 80 = 128;
        // 228 > 150, so every item is a column (the list's one decision). In its column each
        // value is offered 150: "Alexander Hamilton" (180) does not fit, "New York" (80) does.
        let narrow = try layout(nodes, width: 150)
        #expect(narrow.decision("list")?.candidate == 1)
        #expect(narrow.decision("item0")?.candidateID == "col0")
        #expect(narrow.decision("item1")?.candidateID == "col1")
        #expect(narrow.decision("colValue0")?.candidateID == "colShort0")
        #expect(narrow.decision("colValue1")?.candidateID == "colLong1")
        // Every shown decision, in document order: each item's value reports its own.
        #expect(narrow.decisions.map(\.id) == ["list", "item0", "colValue0", "item1", "colValue1"])
        #expect(narrow.decisions.map(\.candidate) == [1, 1, 1, 1, 0])
        // Columns 110×40 ("A. Hamilton") and 80×40 ("New York"), centred in the 110 list.
        #expect(narrow.frame("col0") == rect(0, 0, 110, 40))
        #expect(narrow.frame("colShort0") == rect(0, 20, 110, 20))
        #expect(narrow.frame("col1") == rect(15, 40, 80, 40))
        #expect(narrow.frame("colLong1") == rect(15, 60, 80, 20))
        #expect(narrow.node("colLong0")?.visible == false && narrow.node("colShort1")?.visible == false)

        // At 250 every row fits: rows for all, and both long values fit beside their labels.
        let wide = try layout(nodes, width: 250)
        #expect(wide.decision("list")?.candidate == 0)
        #expect(wide.decisions.map(\.id) == ["list", "item0", "rowValue0", "item1", "rowValue1"])
        #expect(wide.decisions.map(\.candidate) == [0, 0, 0, 0, 0])
        #expect(wide.frame("rowLong0") == rect(48, 0, 180, 20))
    }

    @Test func aListWhoseFirstFitsAreAllInsideItsItemsHasOnePosition() throws {
        // Items that are rows, not candidates: the list has no choice point, and each value
        // picks its own form in the width its row leaves it (170 − 40 − 8 = 122).
        var nodes = [node("list", nil, .uniformFit, .init(spacing: 0, axis: .vertical))]
        for (index, value) in [("Name", "Alexander Hamilton", "A. Hamilton"), ("Town", "New York", "NY")].enumerated() {
            nodes += [
                node("row\(index)", "list", .hstack, .init(spacing: 8)),
                text("label\(index)", "row\(index)", value.0),
                node("value\(index)", "row\(index)", .firstFit, .init(axes: .horizontal)),
                text("long\(index)", "value\(index)", value.1),
                text("short\(index)", "value\(index)", value.2),
            ]
        }
        #expect(try PreparedLayout(LayoutDocument(nodes: nodes)).positions[0] == 1)
        let result = try layout(nodes, width: 170)
        #expect(result.decision("list")?.candidate == 0)
        #expect(result.decision("value0")?.candidateID == "short0")
        #expect(result.decision("value1")?.candidateID == "long1")
        #expect(result.frame("short0") == rect(48, 0, 110, 20))
        #expect(result.frame("long1")?.width == 80)
    }

    @Test func aFirstFitInsideAListItemIsNotBoundedAsTheListsChoicePoints() throws {
        // More candidates than a list's choice point may have (each position lays the whole
        // list out once): an ordinary firstFit deep in an item is accepted, as anywhere.
        let many = LayoutLimits.maxChoicePositions + 1
        var nodes = [
            node("list", nil, .uniformFit), node("row", "list", .hstack),
            node("deep", "row", .firstFit, .init(axes: .horizontal)),
        ]
        for index in 0..<many { nodes.append(text("t\(index)", "deep", String(repeating: "x", count: many - index))) }
        #expect(refusal(nodes) == nil)
        // 33 − k characters fit 100 from k = 23 on.
        #expect(try layout(nodes, width: 100).decision("deep")?.candidate == 23)
        // The same firstFit as the item itself is one of the list's choice points, and refused.
        nodes.remove(at: 1)
        nodes[1].parent = "list"
        #expect(refusal(nodes) != nil)
    }

    /// RStack(threshold: .accessibilityMedium) with RDualText's spacer only when horizontal.
    func payment() -> [LayoutNode] {
        [
            node("payment", nil, .threshold, .init(spacing: 8, category: .accessibilityMedium)),
            node("icon", "payment", .image, .init(textStyle: .body)),
            text("merchant", "payment", "Joe's Coffee Shop", style: .body),
            node("gap", "payment", .spacer, .init(when: .horizontal)),
            text("amount", "payment", "$2.34", style: .body),
        ]
    }

    @Test func paymentRowStacksVerticallyFromAccessibilityMediumAndLosesItsSpacer() throws {
        let scaled = FixedAdvanceMeasurer(advance: 10, lineHeight: 20, categoryFactors: [.accessibilityMedium: 2])
        // large: the spacer (priority −∞) waits for the others, its 8 px minimum reserved
        // (docs/swiftui-layout.md 1.1, E2; this test expected the old equal share, which wrapped
        // the merchant beside a 116 px gap). 320 − 3 × 8 − 8 = 288: icon 288/3 → 20 (268 left);
        // amount 268/2 → 50 (218); merchant 218 → 170, one line (48); spacer 48 + 8 = 56.
        let row = try layout(payment(), width: 320, category: .large, using: scaled)
        #expect(row.decision("payment")?.axis == .horizontal)
        #expect(row.frame("payment") == rect(0, 0, 320, 20))
        #expect(row.frame("icon") == rect(0, 0, 20, 20))
        #expect(row.frame("merchant") == rect(28, 0, 170, 20))
        #expect(row.frame("gap") == rect(206, 10, 56, 0))
        #expect(row.frame("amount") == rect(270, 0, 50, 20))
        #expect(row.node("merchant")?.text?.lineCount == 1)

        // accessibilityMedium: everything twice as large (advance 20, line 40), vertical, no
        // spacer. Merchant at 320 → 16 characters: "Joe's Coffee" / "Shop" = 240×80. Widths
        // 40, 240, 100 → 240 wide; 40 + 8 + 80 + 8 + 40 = 176 tall.
        let column = try layout(payment(), width: 320, category: .accessibilityMedium, using: scaled)
        #expect(column.decision("payment")?.axis == .vertical)
        #expect(column.node("gap")?.visible == false)
        #expect(column.frame("payment") == rect(0, 0, 240, 176))
        #expect(column.frame("icon") == rect(100, 0, 40, 40))
        #expect(column.frame("merchant") == rect(0, 48, 240, 80))
        #expect(column.frame("amount") == rect(70, 136, 100, 40))
    }

    /// CwlFitting: rows with full-width backgrounds (frame maxWidth ∞) as wide as the longest
    /// label, not as wide as the proposal.
    func column(_ kind: LayoutNodeKind) -> [LayoutNode] {
        [
            node("column", nil, kind, .init(spacing: 0)),
            node("row1", "column", .frame, .init(maxWidth: .infinity)),
            text("short", "row1", "Some Text"),
            node("row2", "column", .frame, .init(maxWidth: .infinity)),
            text("long", "row2", "Some Much Longer Text"),
        ]
    }

    @Test func fittingRowsFillTheLongestLabelAndNoMore() throws {
        // Ideal widths 90 and 210 → fitted to 210; each row's frame takes the 210 offered.
        let fitted = try layout(column(.fitting), width: 400)
        #expect(fitted.decision("column")?.length == 210)
        #expect(fitted.frame("column") == rect(0, 0, 210, 40))
        #expect(fitted.frame("row1") == rect(0, 0, 210, 20))
        #expect(fitted.frame("short") == rect(60, 0, 90, 20))
        #expect(fitted.frame("row2") == rect(0, 20, 210, 20))
        // A plain vstack lets the rows take all 400 (the problem CwlFitting solves).
        let plain = try layout(column(.vstack), width: 400)
        #expect(plain.frame("row1") == rect(0, 0, 400, 20))
        // Narrower than the longest label: the hidden copy is laid out at 150, where the long
        // label wraps to "Some Much / Longer Text" (110), so the column is 110, not
        // min(210, 150) = 150 (docs/swiftui-layout.md 4.10 and 5: the hidden copy is laid out
        // at the offered width).
        let narrow = try layout(column(.fitting), width: 150)
        #expect(narrow.decision("column")?.length == 110)
        #expect(narrow.frame("row1")?.width == 110)
    }

    @Test func heartRateCellsAllTakeTheWidthOf190() throws {
        var nodes = [node("week", nil, .hstack, .init(spacing: 4))]
        let rates = ["72", "190", "58", "101", "99", "64", "7"]
        for (day, rate) in rates.enumerated() {
            nodes += [
                node("cell\(day)", "week", .padding, .init(length: 4)),
                node("slot\(day)", "cell\(day)", .template, .init(templates: ["190"])),
                text("rate\(day)", "slot\(day)", rate),
            ]
        }
        // "190" = 30×20, padded by 4 → 38×28; 7 × 38 + 6 × 4 = 290.
        for width in [nil, 320.0] {
            let week = try layout(nodes, width: width)
            #expect(week.frame("week") == rect(0, 0, 290, 28))
            for (day, rate) in rates.enumerated() {
                let x = Double(day) * 42
                #expect(week.frame("cell\(day)") == rect(x, 0, 38, 28))
                #expect(week.frame("slot\(day)") == rect(x + 4, 4, 30, 20))
                // The value is centred in the reserved 30: "72" at +5, "7" at +10.
                let valueWidth = Double(rate.count) * 10
                #expect(week.frame("rate\(day)") == rect(x + 4 + (30 - valueWidth) / 2, 4, valueWidth, 20))
            }
        }
    }

    func exposure() -> [LayoutNode] {
        [
            node("exposure", nil, .scaleGroup, .init(minimumScaleFactor: 0.5)),
            node("labels", "exposure", .hstack, .init(spacing: 10)),
            text("shutter", "labels", "1/1000s", lineLimit: 1),
            text("iso", "labels", "ISO 3200", lineLimit: 1),
            text("aperture", "labels", "f/2.8", lineLimit: 1),
        ]
    }

    @Test func exposureLabelsShrinkTogetherThenTruncateAtTheMinimum() throws {
        // 70 + 80 + 50 + 2 × 10 = 220 ≤ 300: no shrinking.
        let wide = try layout(exposure(), width: 300)
        #expect(wide.decision("exposure")?.scale == 1)
        #expect(wide.frame("iso") == rect(80, 0, 80, 20))

        // At 170: 150 left after spacing. At factor s the texts are 70s, 80s, 50s; the stack
        // offers f/2.8 150/3, then 1/1000s (150 − 50s)/2, then ISO 3200 150 − 120s, which
        // holds 80s while s ≤ 0.75. At 0.751 ISO 3200 needs 60.08 of 59.88. So 0.75 for all.
        let short = try layout(exposure(), width: 170)
        #expect(short.decision("exposure")?.scale == 0.75)
        #expect(short.frame("shutter") == rect(0, 0, 52.5, 15))
        #expect(short.frame("iso") == rect(62.5, 0, 60, 15))
        #expect(short.frame("aperture") == rect(132.5, 0, 37.5, 15))
        #expect(["shutter", "iso", "aperture"].allSatisfy { short.node($0)?.text == TextOutcome(scale: 0.75, lineCount: 1, truncated: false) })
        #expect(!short.truncated)

        // At 100 even 0.5 does not fit (200 × 0.5 + 20 = 120): all stay at 0.5 and truncate.
        // 80 left: f/2.8 gets 26.7 → 25; 1/1000s gets 27.5 → 5 characters "1/10…" = 25;
        // ISO 3200 gets 30 → 6 characters = 30.
        let tiny = try layout(exposure(), width: 100)
        #expect(tiny.decision("exposure")?.scale == 0.5)
        #expect(tiny.frame("shutter") == rect(0, 0, 25, 10))
        #expect(tiny.frame("iso") == rect(35, 0, 30, 10))
        #expect(tiny.frame("aperture") == rect(75, 0, 25, 10))
        #expect(tiny.node("shutter")?.text?.truncated == true)
        #expect(tiny.node("aperture")?.text?.truncated == false)
        #expect(tiny.truncated)
    }

    @Test func templateInsideAScaleGroupShrinksWithItsValue() throws {
        // The seed-004 overlay: hidden "1/1000s" sets the cell; the value follows its factor.
        let nodes = [
            node("group", nil, .scaleGroup, .init(minimumScaleFactor: 0.4)),
            node("slot", "group", .template, .init(lineLimit: 1, templates: ["1/1000s"], alignment: .leading)),
            text("value", "slot", "1/5s", lineLimit: 1),
        ]
        // 70 wide at 1; in 35 the largest factor is 0.5 (7 × 5 = 35).
        let result = try layout(nodes, width: 35)
        #expect(result.decision("group")?.scale == 0.5)
        #expect(result.frame("slot") == rect(0, 0, 35, 10))
        #expect(result.frame("value") == rect(0, 0, 20, 10))
        #expect(result.node("value")?.text?.scale == 0.5)
    }

    @Test func iconFollowsTheBodyStyle() throws {
        let nodes = [
            node("button", nil, .hstack, .init(spacing: 8)),
            node("icon", "button", .image, .init(textStyle: .body)),
            text("label", "button", "Press me", style: .body),
        ]
        let scaled = FixedAdvanceMeasurer(categoryFactors: [.xxxLarge: 1.5, .accessibilityLarge: 3])
        // Body lines: 20 at large, 30 at xxxLarge, 60 at accessibilityLarge; "Press me" = 8 chars.
        for (category, line) in [(SizeCategory.large, 20.0), (.xxxLarge, 30), (.accessibilityLarge, 60)] {
            let result = try layout(nodes, width: nil, category: category, using: scaled)
            #expect(result.frame("icon") == rect(0, 0, line, line))
            #expect(result.frame("label") == rect(line + 8, 0, 8 * line / 2, line))
        }
    }
}

/// A uniformFit names what its position shows: per choice point, the node shown there.
@Suite struct UniformFitCandidateIDTests {
    @Test func aListNamesTheNodeEachChoicePointShowsAndTheFirstAsItsCandidate() throws {
        let bar = try LayoutDocument(json: Array(#"""
            {"version": 1, "root": {"id": "bar", "kind": "uniformFit", "axis": "horizontal", "children": [
              {"kind": "choice", "children": [
                {"id": "home", "kind": "hstack", "children": [{"kind": "image", "width": 20, "height": 20}, {"kind": "text", "text": "Home"}]},
                {"id": "homeIcon", "kind": "image", "width": 20, "height": 20}]},
              {"kind": "choice", "children": [
                {"id": "search", "kind": "hstack", "children": [{"kind": "image", "width": 20, "height": 20}, {"kind": "text", "text": "Search"}]},
                {"id": "searchIcon", "kind": "image", "width": 20, "height": 20}]},
              {"kind": "choice", "children": [{"id": "onlyOne", "kind": "image", "width": 20, "height": 20}]}]}}
            """#.utf8))
        let prepared = try PreparedLayout(bar)
        let wide = try prepared.layout(in: ProposedSize(width: 400, height: nil), measurer: FixedAdvanceMeasurer())
        let list = try #require(wide.decisions.first { $0.id == "bar" })
        #expect(list.candidate == 0)
        // A choice with fewer children shows its last.
        #expect(list.candidateIDs == ["home", "search", "onlyOne"])
        #expect(list.candidateID == "home")
        let narrow = try prepared.layout(in: ProposedSize(width: 100, height: nil), measurer: FixedAdvanceMeasurer())
        let icons = try #require(narrow.decisions.first { $0.id == "bar" })
        #expect(icons.candidate == 1 && icons.candidateIDs == ["homeIcon", "searchIcon", "onlyOne"] && icons.candidateID == "homeIcon")
    }
}
