import Testing

@testable import FitLayout

/// Reuse: inherited properties, forEach, hidden, background (docs/swiftui-layout.md
/// 4.3, 4.4, 4.9), with hand-computed frames (10 px characters, 20 px lines).
@Suite struct ReuseTests {
    // MARK: Environment (spec 4.9)

    @Test func lineLimitSetOnAContainerReachesEveryTextBelowUnlessOneSetsItsOwn() throws {
        let nodes = [
            node("column", nil, .vstack, .init(lineLimit: 1, spacing: 0)),
            node("inner", "column", .padding, .init(length: 0)),
            text("deep", "inner", "aaaa bbbb"),
            text("own", "column", "cccc dddd", lineLimit: 2),
        ]
        // At 50 px (5 characters) both texts need two lines. "deep" inherits the limit of 1:
        // "aaaa…" cut to the width, 50×20, truncated; "own" keeps its 2 lines, 40×40.
        let result = try layout(nodes, width: 50)
        #expect(result.frame("deep") == rect(0, 0, 50, 20))
        #expect(result.node("deep")?.text?.truncated == true)
        #expect(result.frame("own") == rect(5, 20, 40, 40))
        #expect(result.node("own")?.text?.truncated == false)
        #expect(result.size == LayoutSize(width: 50, height: 60))
    }

    @Test func aTextStyleSetOnAContainerSizesTheTextsBelowAndTheNearestWins() throws {
        let big = FixedAdvanceMeasurer(advance: 10, lineHeight: 20, styleFactors: [.title: 2])
        let nodes = [
            node("column", nil, .vstack, .init(textStyle: .title, spacing: 0)),
            text("styled", "column", "ab"),
            node("plain", "column", .hstack, .init(font: "Sans 11")),
            text("unstyled", "plain", "ab"),
        ]
        // "ab" in title: 2 × 20 = 40 wide, 40 tall; under the hstack's own font: 20×20.
        let result = try layout(nodes, width: nil, using: big)
        #expect(result.frame("styled") == rect(0, 0, 40, 40))
        #expect(result.frame("unstyled") == rect(10, 40, 20, 20))
    }

    @Test func anInheritedMinimumScaleFactorIsSearchedPerText() throws {
        // Seed 004's complaint: one modifier on the container (lineLimit 1 and the factor),
        // but each text finds its own factor: "aaaaaaaaaa" (100) on one line at 80 → 0.8;
        // "bbbbbbbb" (80) fits at 1.
        let nodes = [
            node("column", nil, .vstack, .init(lineLimit: 1, minimumScaleFactor: 0.5, spacing: 0)),
            text("long", "column", "aaaaaaaaaa"),
            text("short", "column", "bbbbbbbb"),
        ]
        let result = try layout(nodes, width: 80)
        #expect(result.node("long")?.text?.scale == 0.8)
        #expect(result.node("short")?.text?.scale == 1)
        #expect(result.frame("long") == rect(0, 0, 80, 16))
    }

    @Test func truncationAlignmentAndDirectionAreResolvedForEveryNodeBelow() throws {
        let nodes = [
            node("root", nil, .vstack, .init(truncation: .head, multilineTextAlignment: .center, layoutDirection: .rightToLeft)),
            node("row", "root", .hstack, .init(layoutDirection: .leftToRight)),
            text("a", "row", "x"),
            text("b", "root", "y", lineLimit: 1),
        ]
        let prepared = try PreparedLayout(LayoutDocument(nodes: nodes))
        #expect(prepared.nodes[2].properties.truncation == .head)
        #expect(prepared.nodes[2].properties.multilineTextAlignment == .center)
        #expect(prepared.nodes[1].properties.layoutDirection == .leftToRight)
        #expect(prepared.nodes[2].properties.layoutDirection == .leftToRight)
        #expect(prepared.nodes[3].properties.layoutDirection == .rightToLeft)
        #expect(prepared.nodes[3].properties.lineLimit == 1)
        // The document itself is unchanged: what is sent and cached is what was given.
        #expect(prepared.document.nodes[2].properties.truncation == nil)
        // The alignment is reported with the text's outcome, and changes no frame.
        let result = try prepared.layout(in: .unspecified, measurer: measurer)
        #expect(result.node("a")?.text?.alignment == .center)
        #expect(result.frame("a") == rect(0, 0, 10, 20))
    }

    @Test func aDocumentWithoutInheritedValuesIsLaidOutAsGiven() throws {
        let nodes = [node("row", nil, .hstack), text("a", "row", "x")]
        let prepared = try PreparedLayout(LayoutDocument(nodes: nodes))
        #expect(prepared.nodes == prepared.document.nodes)
    }

    // MARK: hidden and background (spec 4.3, 4.4), seed 003

    /// `Text("190").hidden().padding(4).background(shape).overlay(Text(value))`: the cell is the
    /// template's size, the value centred in it. The shape is a spacer, which outside a stack
    /// takes what it is offered, as a SwiftUI Shape does.
    static func cell(_ id: String, parent: NodeReference, value: String) -> [LayoutNode] {
        [
            node("\(id)", parent, .overlay),
            node("\(id)Back", "\(id)", .background),
            node("\(id)Pad", "\(id)Back", .padding, .init(length: 4)),
            node("\(id)Template", "\(id)Pad", .text, .init(text: "190", hidden: true)),
            node("\(id)Shape", "\(id)Back", .spacer, .init(minLength: 0)),
            text("\(id)Value", "\(id)", value),
        ]
    }

    @Test func seed003CellsAreTheHiddenTemplatesSizeWhateverTheirValue() throws {
        var nodes = [node("row", nil, .hstack, .init(spacing: 8))]
        for (index, value) in ["72", "105", "64"].enumerated() { nodes += Self.cell("c\(index)", parent: "row", value: value) }
        // Spec O1: "190" 30×20 at 4,4 in a 38×28 padding; cells at 0, 46, 92; values centred.
        let result = try layout(nodes, width: nil)
        #expect(result.frame("c0Template") == rect(4, 4, 30, 20))
        #expect(result.frame("c0") == rect(0, 0, 38, 28))
        #expect(result.frame("c0Shape") == rect(0, 0, 38, 28))
        #expect(result.frame("c0Value") == rect(9, 4, 20, 20))
        #expect(result.frame("c1Value") == rect(50, 4, 30, 20))
        #expect(result.frame("c2Value") == rect(101, 4, 20, 20))
        #expect(result.size == LayoutSize(width: 130, height: 28))
        #expect(result.node("c0Template")?.hidden == true && result.node("c0Template")?.visible == true)
        #expect(result.node("c0Value")?.hidden == false)
    }

    @Test func hiddenReachesTheSubtreeAndItsTruncationIsNotReported() throws {
        let nodes = [
            node("row", nil, .hstack, .init(spacing: 0)),
            node("ghost", "row", .padding, .init(length: 0, hidden: true)),
            node("ghostText", "ghost", .text, .init(text: "aaaa bbbb", lineLimit: 1, hidden: false)),
            text("shown", "row", "cc"),
        ]
        // At 40 px the hidden text is cut ("aaa…" 40×20) and takes its place all the same.
        let result = try layout(nodes, width: 60)
        #expect(result.node("ghostText")?.hidden == true)
        #expect(result.node("ghostText")?.text?.truncated == true)
        #expect(result.truncated == false)
        #expect(result.frame("shown")?.x == result.frame("ghostText")?.maxX)
    }

    @Test func aBackgroundNeedsABase() {
        #expect(refusal([node("b", nil, .background)]) == .invalidChildren(node: at(0, "b"), reason: "a background needs a base child"))
    }

    // MARK: forEach

    static func rates(_ values: [String]) -> [LayoutNode] {
        [
            node("week", nil, .hstack, .init(spacing: 8)),
            node("day", "week", .forEach, .init(fields: ["rate"], data: values)),
        ] + cell("cell", parent: "day", value: "{rate}")
    }

    @Test func forEachRepeatsItsTemplatePerRowAmongItsParentsChildren() throws {
        let result = try layout(Self.rates(["72", "105", "64"]), width: nil)
        // The same frames as the three cells written out (seed003…), ids suffixed by the row.
        #expect(result.frame("cell#0") == rect(0, 0, 38, 28))
        #expect(result.frame("cell#1") == rect(46, 0, 38, 28))
        #expect(result.frame("cellValue#1") == rect(50, 4, 30, 20))
        #expect(result.frame("cellValue#2") == rect(101, 4, 20, 20))
        #expect(result.size == LayoutSize(width: 130, height: 28))
        #expect(result.node("day") == nil)
        // Tree order: the hstack, then each row's subtree.
        #expect(result.nodes.map(\.id).prefix(3) == ["week", "cell#0", "cellBack#0"])
        #expect(result.nodes.count == 1 + 3 * 6)
    }

    @Test func aForEachsFontDoesNotResizeAnImageCopy() throws {
        // The forEach sets a text style; its template is a 30×10 image and a text. The image
        // keeps its own size (as an image below a container with a text style does), not one
        // line of the style tall (20×20 with this measurer).
        let nodes = [
            node("row", nil, .hstack, .init(spacing: 0)),
            node("each", "row", .forEach, .init(textStyle: .largeTitle, fields: ["n"], data: ["1", "2"])),
            node("icon", "each", .image, .init(width: 30, height: 10)), text("label", "each", "{n}"),
        ]
        let result = try layout(nodes, width: nil)
        #expect(result.frame("icon#0")?.size == LayoutSize(width: 30, height: 10))
        #expect(result.frame("icon#1")?.size == LayoutSize(width: 30, height: 10))
    }

    @Test func aHiddenForEachHidesEveryCopyEvenOneThatSaysOtherwise() throws {
        let nodes = [
            node("list", nil, .vstack),
            node("each", "list", .forEach, .init(hidden: true, fields: ["n"], data: ["1", "2"])),
            node("label", "each", .text, .init(text: "{n}", hidden: false)),
        ]
        let result = try layout(nodes, width: nil)
        #expect(result.node("label#0")?.hidden == true)
        #expect(result.node("label#1")?.hidden == true)
    }

    @Test func forEachFillsInFieldsLeavesOtherBracesAndNests() throws {
        let nodes = [
            node("list", nil, .vstack, .init(spacing: 0)),
            node("rows", "list", .forEach, .init(lineLimit: 1, fields: ["name", "n"], data: ["a", "1", "b", "2"])),
            node("line", "rows", .hstack, .init(spacing: 0)),
            node("parts", "line", .forEach, .init(fields: ["part"], data: ["x", "y"])),
            text("label", "parts", "{name}{n}{part}{missing}{"),
        ]
        let prepared = try PreparedLayout(LayoutDocument(nodes: nodes))
        let texts = prepared.nodes.filter { $0.kind == .text }
        #expect(texts.map(\.id) == ["label#0#0", "label#0#1", "label#1#0", "label#1#1"])
        #expect(texts.map(\.properties.text) == ["a1x{missing}{", "a1y{missing}{", "b2x{missing}{", "b2y{missing}{"])
        // The forEach's lineLimit went to its copies' subtrees.
        #expect(texts.allSatisfy { $0.properties.lineLimit == 1 })
    }

    @Test func aUniformFitListFromOneItemTemplateDecidesAsTheWrittenOutList() throws {
        // DecisionTests' ScreenCred list, as three data rows and one item template.
        let nodes = [
            node("list", nil, .uniformFit, .init(spacing: 0, axis: .vertical)),
            node("items", "list", .forEach, .init(fields: ["label"], data: ["Books", "Games", "Productivity"])),
            node("item", "items", .firstFit, .init(axes: .horizontal)),
            node("row", "item", .hstack, .init(spacing: 8)), image("rowIcon", "row"), text("rowLabel", "row", "{label}"),
            node("col", "item", .vstack, .init(spacing: 4)), image("colIcon", "col"), text("colLabel", "col", "{label}"),
        ]
        // At 140 "Productivity" does not fit as a row (148): every item is a column.
        let narrow = try layout(nodes, width: 140)
        #expect(narrow.decision("list")?.candidate == 1)
        #expect(narrow.frame("col#0") == rect(35, 0, 50, 44))
        #expect(narrow.frame("colLabel#2") == rect(0, 112, 120, 20))
        #expect(try layout(nodes, width: 300).decision("list")?.candidate == 0)
    }

    @Test func aForEachUnderAThresholdPassesWhenToItsCopies() throws {
        let nodes = [
            node("row", nil, .threshold, .init(spacing: 0, category: .accessibilityMedium)),
            node("tags", "row", .forEach, .init(when: .horizontal, fields: ["t"], data: ["ab", "cd"])),
            text("tag", "tags", "{t}"),
            text("always", "row", "e"),
        ]
        let wide = try layout(nodes, width: nil)
        #expect(wide.frame("tag#1") == rect(20, 0, 20, 20) && wide.frame("always") == rect(40, 0, 10, 20))
        let tall = try layout(nodes, width: nil, category: .accessibilityMedium)
        #expect(tall.node("tag#0")?.visible == false && tall.frame("always") == rect(0, 0, 10, 20))
    }

    @Test func aHundredRowListIsAHundredDataRowsAndOneTemplate() throws {
        // What forEach is for: 100 items of a 22-node row travel as 24 nodes, not 2,200.
        var nodes = [
            node("list", nil, .vstack, .init(spacing: 0)),
            node("items", "list", .forEach, .init(fields: ["name"], data: (0..<100).map { "item \($0)" })),
            node("row", "items", .hstack, .init(spacing: 0)),
        ]
        for part in 0..<21 { nodes.append(text("part\(part)", "row", part == 0 ? "{name}" : "x")) }
        #expect(nodes.count == 24)
        let prepared = try PreparedLayout(LayoutDocument(nodes: nodes))
        #expect(prepared.document.nodes.count == 1 + 100 * 22)
        let result = try prepared.layout(in: .unspecified, measurer: measurer)
        // "item 99" is 70 wide, then 20 one-character parts: the widest rows 270, 20 tall.
        #expect(result.frame("part0#99") == rect(0, 99 * 20, 70, 20))
        #expect(result.frame("part20#99") == rect(260, 99 * 20, 10, 20))
        #expect(result.size == LayoutSize(width: 270, height: 2000))
    }

    @Test func forEachIsBoundedAndChecked() {
        let many = [String](repeating: "v", count: 6000)
        // 1 + 6,000 rows × 2 nodes > 10,000: refused before anything is copied.
        let tooMany = [node("list", nil, .vstack), node("rows", "list", .forEach, .init(fields: ["f"], data: many))]
            + [text("a", "rows", "{f}"), text("b", "rows", "{f}")]
        #expect(refusal(tooMany) == .tooManyNodes(count: 12001, limit: LayoutLimits.maxNodes))
        // Nested: 100 × 100 copies of a forEach that makes nothing still count.
        let hundred = [String](repeating: "v", count: 100)
        let nested = [
            node("list", nil, .vstack), node("outer", "list", .forEach, .init(fields: ["f"], data: hundred)),
            node("inner", "outer", .forEach, .init(fields: ["g"], data: hundred)),
            node("innermost", "inner", .forEach, .init(fields: ["h"], data: hundred)),
            text("t", "innermost", "x"),
        ]
        #expect(refusal(nested).map { if case .tooManyNodes = $0 { true } else { false } } == true)
        #expect(refusal([node("rows", nil, .forEach, .init(fields: ["f"], data: []))])
            == .invalidChildren(node: at(0, "rows"), reason: "a forEach stands for its rows among its parent's children; it cannot be the root"))
        #expect(refusal([node("list", nil, .vstack), node("rows", "list", .forEach, .init(fields: ["a", "b"], data: ["1", "2", "3"]))])
            == .invalidProperty(node: at(1, "rows"), property: "data", reason: "3 values are not whole rows of 2 fields"))
        #expect(refusal([node("list", nil, .vstack), node("rows", "list", .forEach, .init(data: []))])
            == .missingProperty(node: at(1, "rows"), property: "fields"))
        // Expanded into a frame, which takes one child: the expansion is checked like a document.
        let framed = [node("f", nil, .frame), node("rows", "f", .forEach, .init(fields: ["a"], data: ["1", "2"])), text("t", "rows", "{a}")]
        #expect(refusal(framed) == .invalidChildren(node: at(0, "f"), reason: "a frame has exactly one child, not 2"))
    }

    @Test func forEachTextIsBoundedOnceFilledIn() {
        let long = String(repeating: "x", count: 40_000)
        // Two 40 KB values in one text pass the 64 KiB limit of a text.
        let nodes = [
            node("list", nil, .vstack), node("rows", "list", .forEach, .init(fields: ["v"], data: [long])),
            text("t", "rows", "{v}{v}"),
        ]
        #expect(refusal(nodes) == .invalidProperty(node: at(2, "t"), property: "text", reason: "longer than 65536 bytes once filled in"))
        // Many braces cost their length, not its square: this returns at once.
        let braces = String(repeating: "{", count: 60_000) + "}"
        let many = [node("list", nil, .vstack), node("rows", "list", .forEach, .init(fields: ["v"], data: ["1"])), text("t", "rows", braces)]
        // Scanning from every "{" to the "}" would be 1.8e9 steps, seconds even optimised.
        let elapsed = ContinuousClock().measure { #expect(refusal(many) == nil) }
        #expect(elapsed < .seconds(1))
    }
}

func at(_ index: Int, _ id: String) -> NodeLocation { NodeLocation(index: index, id: id) }
