import FitLayoutJSON
import Testing

@testable import FitLayout

/// Containers: grid, flow (docs/swiftui-layout.md 4.6, 4.7) and the nested JSON
/// form, with hand-computed frames (10 px characters, 20 px lines).
@Suite struct ContainerTests {
    // MARK: Grid

    static func g1(_ properties: LayoutProperties = .init()) -> [LayoutNode] {
        [
            node("grid", nil, .grid, properties),
            node("head", "grid", .gridRow), text("name", "head", "Name"), text("qty", "head", "Qty"),
            node("line", "grid", .gridRow), text("apples", "line", "Apples"), text("twelve", "line", "12"),
        ]
    }

    @Test func gridColumnsAreTheirWidestCellAndCellsAreCentred() throws {
        // Spec G1: columns 60 and 30, rows 20, spacing 8.
        let result = try layout(Self.g1(), width: nil)
        #expect(result.frame("name") == rect(10, 0, 40, 20))
        #expect(result.frame("qty") == rect(68, 0, 30, 20))
        #expect(result.frame("apples") == rect(0, 28, 60, 20))
        #expect(result.frame("twelve") == rect(73, 28, 20, 20))
        #expect(result.frame("line") == rect(0, 28, 98, 20))
        #expect(result.size == LayoutSize(width: 98, height: 48))
        // A proposal wider than needed changes nothing: texts hug.
        #expect(try layout(Self.g1(), width: 300).frame("twelve") == rect(73, 28, 20, 20))
    }

    @Test func aNarrowGridSizesItsLeastFlexibleColumnFirst() throws {
        let nodes = [
            node("grid", nil, .grid),
            node("row", "grid", .gridRow), text("long", "row", "aaaa bbbb"), text("short", "row", "cc"),
        ]
        // W 100: 92 after the spacing. "cc" (flexibility 20) first: offered 46, takes 20;
        // "aaaa bbbb" offered 72 wraps to 40×40. Row 40 tall; "cc" centred in it.
        let result = try layout(nodes, width: 100)
        #expect(result.frame("long") == rect(0, 0, 40, 40))
        #expect(result.frame("short") == rect(48, 10, 20, 20))
        #expect(result.size == LayoutSize(width: 68, height: 40))
    }

    @Test func equalColumnsTakeTheWidestColumnsWidthOrAnEqualShare() throws {
        let nodes = [
            node("grid", nil, .grid, .init(columns: .equal)),
            node("row", "grid", .gridRow), text("a", "row", "a"), text("b", "row", "bbb"),
        ]
        // Ideal: both columns 30 (the widest), "a" centred in its 30.
        let ideal = try layout(nodes, width: nil)
        #expect(ideal.frame("a") == rect(10, 0, 10, 20))
        #expect(ideal.frame("b") == rect(38, 0, 30, 20))
        #expect(ideal.size == LayoutSize(width: 68, height: 20))
        // W 50: 2 × 30 + 8 > 50 → (50 − 8) / 2 = 21 each; "bbb" wraps to "bb / b".
        let narrow = try layout(nodes, width: 50)
        #expect(narrow.frame("a") == rect(5.5, 10, 10, 20))
        #expect(narrow.frame("b") == rect(29.5, 0, 20, 40))
        #expect(narrow.size == LayoutSize(width: 50, height: 40))
    }

    @Test func aChildThatIsNotAGridRowSpansTheGrid() throws {
        let nodes = Self.g1() + [text("total", "grid", "total")]
        // Proposed the columns' 98: 50 wide, centred at 24, below the rows.
        let result = try layout(nodes, width: nil)
        #expect(result.frame("total") == rect(24, 56, 50, 20))
        #expect(result.size == LayoutSize(width: 98, height: 76))
    }

    @Test func aCellCoveringColumnsWidensTheLastOnlyWhenItDoesNotFit() throws {
        var nodes = Self.g1()
        nodes.insert(contentsOf: [node("top", "grid", .gridRow), node("title", "top", .text, .init(text: "Fruit stock", gridCellColumns: 2))], at: 1)
        // Columns 60 and 30 cover 98 < 110 ("Fruit stock"): the second grows to 42.
        let result = try layout(nodes, width: nil)
        #expect(result.frame("title") == rect(0, 0, 110, 20))
        #expect(result.frame("qty") == rect(74, 28, 30, 20))
        #expect(result.frame("twelve") == rect(79, 56, 20, 20))
        #expect(result.size == LayoutSize(width: 110, height: 76))
        // A short title fits in the two columns and changes nothing.
        nodes[2].properties.text = "Fruit"
        let short = try layout(nodes, width: nil)
        #expect(short.frame("title") == rect(24, 0, 50, 20))
        #expect(short.frame("twelve") == rect(73, 56, 20, 20))
        // Spans are bounded: a row covering more columns than the node limit is refused.
        nodes[2].properties.gridCellColumns = 10_000
        nodes.insert(node("extra", "top", .text, .init(text: "x")), at: 3)
        #expect(throws: LayoutError.invalidProperty(
            node: at(3, "extra"), property: "gridCellColumns",
            reason: "the grid's cells cover more than 10000 columns in all (LayoutLimits.maxNodes)")) {
            try layout(nodes, width: nil)
        }
    }

    @Test func theColumnsAllRowsCoverAreBoundedInAllNotPerRow() throws {
        // Two rows of one 6,000-column cell: each row is under the limit, the grid is not
        // (5,000 such rows would cost ~5 × 10^7 additions per plan).
        var nodes = [node("grid", nil, .grid)]
        for row in 0..<2 {
            nodes.append(node("r\(row)", "grid", .gridRow))
            nodes.append(node("c\(row)", "r\(row)", .text, .init(text: "x", gridCellColumns: 6000)))
        }
        #expect(throws: LayoutError.invalidProperty(
            node: at(4, "c1"), property: "gridCellColumns",
            reason: "the grid's cells cover more than 10000 columns in all (LayoutLimits.maxNodes)")) {
            try layout(nodes, width: 300)
        }
    }

    @Test func aRightToLeftGridStartsItsColumnsAtTheRight() throws {
        let result = try layout(Self.g1(.init(layoutDirection: .rightToLeft)), width: nil)
        #expect(result.frame("name") == rect(48, 0, 40, 20))
        #expect(result.frame("qty") == rect(0, 0, 30, 20))
        #expect(result.frame("twelve") == rect(5, 28, 20, 20))
    }

    @Test func aLongRowAndManyShortOnesCostTheirCells() throws {
        // One row of 1,000 cells and 1,000 rows of one: each column asks only its own cells.
        var nodes = [node("grid", nil, .grid, .init(spacing: 0)), node("wide", "grid", .gridRow)]
        for column in 0..<1000 { nodes.append(text("w\(column)", "wide", "a")) }
        for row in 0..<1000 {
            nodes.append(node("r\(row)", "grid", .gridRow))
            nodes.append(text("c\(row)", "r\(row)", "bb"))
        }
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let ideal = try layout(nodes, width: nil)
            #expect(ideal.frame("c999") == rect(0, 20 * 1000, 20, 20))
            #expect(ideal.size.width == 20 + 999 * 10)
            // Squeezed: every column asked at 0, ∞ and its share.
            #expect(try layout(nodes, width: 5000).size.width == 5000)
        }
        #expect(elapsed < .seconds(2))
    }

    @Test func aGridRowBelongsInAGrid() {
        #expect(refusal([node("v", nil, .vstack), node("r", "v", .gridRow)])
            == .invalidChildren(node: at(1, "r"), reason: "a gridRow is a child of a grid"))
    }

    // MARK: Flow

    static func tags(_ properties: LayoutProperties = .init(spacing: 8)) -> [LayoutNode] {
        [node("flow", nil, .flow, properties)] + ["swift", "layout", "pango", "gtk"].map { text($0, "flow", $0) }
    }

    @Test func flowWrapsItemsIntoLinesAtTheProposedWidth() throws {
        // Spec L1: 50 + 8 + 60 = 118 ≤ 130; + 8 + 50 > 130 → a new line 28 down.
        let result = try layout(Self.tags(), width: 130)
        #expect(result.frame("swift") == rect(0, 0, 50, 20))
        #expect(result.frame("layout") == rect(58, 0, 60, 20))
        #expect(result.frame("pango") == rect(0, 28, 50, 20))
        #expect(result.frame("gtk") == rect(58, 28, 30, 20))
        #expect(result.size == LayoutSize(width: 118, height: 48))
        // No width: one line, 50 + 60 + 50 + 30 + 3 × 8 = 214.
        let ideal = try layout(Self.tags(), width: nil)
        #expect(ideal.frame("gtk") == rect(184, 0, 30, 20))
        #expect(ideal.size == LayoutSize(width: 214, height: 20))
    }

    @Test func anItemWiderThanTheLineIsAloneAndWraps() throws {
        let nodes = [node("flow", nil, .flow, .init(spacing: 8))]
            + [text("ab", "flow", "ab"), text("long", "flow", "abcdef gh"), text("cd", "flow", "cd")]
        // At 50: "abcdef gh" (90) gets its own line and is proposed 50: "abcde / f gh", 50×40.
        let result = try layout(nodes, width: 50)
        #expect(result.frame("ab") == rect(0, 0, 20, 20))
        #expect(result.frame("long") == rect(0, 28, 50, 40))
        #expect(result.frame("cd") == rect(0, 76, 20, 20))
        #expect(result.size == LayoutSize(width: 50, height: 96))
    }

    @Test func aRightToLeftFlowStartsItsLinesAtTheRight() throws {
        let result = try layout(Self.tags(.init(spacing: 8, layoutDirection: .rightToLeft)), width: 130)
        #expect(result.frame("swift") == rect(68, 0, 50, 20))
        #expect(result.frame("layout") == rect(0, 0, 60, 20))
        #expect(result.frame("pango") == rect(68, 28, 50, 20))
        #expect(result.frame("gtk") == rect(30, 28, 30, 20))
    }

    @Test func flowAlignsItemsInTheirLine() throws {
        let nodes = [
            node("flow", nil, .flow, .init(spacing: 0, alignment: LayoutAlignment(horizontal: .leading, vertical: .bottom))),
            node("tall", "flow", .image, .init(width: 20, height: 40)), text("x", "flow", "x"),
        ]
        let result = try layout(nodes, width: nil)
        #expect(result.frame("x") == rect(20, 20, 10, 20))
    }

    // MARK: The nested form

    static let nested = """
        {"version": 1, "root": {"id": "card", "kind": "vstack", "spacing": 4, "lineLimit": 1, "children": [
          {"kind": "text", "text": "Title"},
          {"kind": "hstack", "children": [{"id": "icon", "kind": "image", "width": 20, "height": 20}, {"kind": "text", "text": "x"}]}]}}
        """

    @Test func theNestedFormReadsAsTheFlatOneWithIdsFromPositions() throws {
        let document = try LayoutDocument(json: Self.nested)
        #expect(document.nodes.map(\.id) == ["card", "#1", "#2", "icon", "#4"])
        #expect(document.nodes.map(\.parent) == [nil, .index(0), .index(0), .index(2), .index(2)])
        let flat = try LayoutDocument(json: document.json())
        #expect(flat == document)
        let result = try document.layout(in: .unspecified, measurer: measurer)
        // "Title" 50 wide; the row 20 + 8 + 10 = 38, centred at 6, 4 below.
        #expect(result.frame("#1") == rect(0, 0, 50, 20))
        #expect(result.frame("icon") == rect(6, 24, 20, 20))
        #expect(result.frame("#4") == rect(34, 24, 10, 20))
        // The same tree built in Swift.
        let tree = LayoutTree(
            "vstack", id: "card", ["spacing": .number(4), "lineLimit": .number(1)],
            children: [
                LayoutTree("text", ["text": .string("Title")]),
                LayoutTree(
                    "hstack",
                    children: [
                        LayoutTree("image", id: "icon", ["width": .number(20), "height": .number(20)]),
                        LayoutTree("text", ["text": .string("x")]),
                    ]),
            ])
        #expect(try LayoutDocument(root: tree) == document)
    }

    @Test func forEachDataMayBeWrittenAsObjects() throws {
        let json = """
            {"root": {"kind": "vstack", "children": [
              {"kind": "forEach", "data": [{"name": "Rent", "amount": "900"}, {"name": "Food"}],
               "children": [{"kind": "text", "text": "{name}: {amount}"}]}]}}
            """
        let document = try LayoutDocument(json: json)
        #expect(document.nodes[1].properties.fields == ["amount", "name"])
        #expect(document.nodes[1].properties.data == ["900", "Rent", "", "Food"])
        let prepared = try PreparedLayout(document)
        #expect(prepared.document.nodes.compactMap(\.properties.text) == ["Rent: 900", "Food: "])
        #expect(prepared.document.nodes.map(\.id) == ["root", "#2#0", "#2#1"])
    }

    @Test func generatedIDsStayShortAtTheDepthLimitAndTheirPrefixIsReserved() throws {
        // 128 levels below the root: `<parent's id>.<position>` was 261 bytes there, past the
        // 256-byte id limit; `#128` is not.
        var tree = LayoutTree("spacer")
        for _ in 0..<LayoutLimits.maxDepth { tree = LayoutTree("vstack", children: [tree]) }
        let document = try LayoutDocument(root: tree)
        #expect(document.nodes.last?.id == "#128")
        #expect(throws: Never.self) { try PreparedLayout(document) }
        #expect(refusal(json: ##"{"root": {"kind": "vstack", "children": [{"id": "#1", "kind": "spacer"}]}}"##) == .invalidID(
            node: at(1, "#1"), reason: "ids beginning with \"#\" are reserved for the ids the nested form gives nodes without one"))
    }

    @Test func dataObjectsNamingTooManyFieldsAreRefusedBeforeTheRowsAreBuilt() throws {
        // 65 rows of one new key each: 65 fields, refused while reading (rows × fields of
        // data would be built first otherwise: 10,000 such rows make 10^8 strings).
        let rows = (0..<65).map { #"{"k\#($0)": "v"}"# }.joined(separator: ", ")
        let json = #"{"root": {"kind": "forEach", "data": [\#(rows)], "children": [{"kind": "text", "text": "x"}]}}"#
        #expect(refusal(json: json) == .malformedDocument(
            "the node at .root: invalid \"data\": the rows name 65 distinct fields; at most 64 (LayoutLimits.maxForEachFields)"))
        let flat = #"{"nodes": [{"id": "f", "kind": "forEach", "data": [\#(rows)]}]}"#
        #expect(refusal(json: flat) == .invalidProperty(
            node: at(0, "f"), property: "data", reason: "the rows name 65 distinct fields; at most 64 (LayoutLimits.maxForEachFields)"))
    }

    @Test func dataObjectsBesideExplicitFieldsAreRefusedWhateverTheKeyOrder() throws {
        // Which of the two gave the fields depended on the order JSONDecoder listed the keys in:
        // the same file laid out with ["z"] on one run and ["a"] on another.
        let reason = "data written as rows of objects names its fields itself; leave fields out, or write data as a flat array of strings"
        for (first, second) in [(#""fields": ["z"]"#, #""data": [{"a": "1"}]"#), (#""data": [{"a": "1"}]"#, #""fields": ["z"]"#)] {
            let flat = #"{"nodes": [{"id": "f", "kind": "forEach", \#(first), \#(second)}]}"#
            #expect(refusal(json: flat) == .invalidProperty(node: at(0, "f"), property: "fields", reason: reason), "\(first)")
            let nested = #"{"root": {"kind": "forEach", \#(first), \#(second), "children": [{"kind": "text", "text": "{a}"}]}}"#
            #expect(refusal(json: nested) == .malformedDocument("the node at .root: invalid \"fields\": \(reason)"), "\(first)")
        }
        // Either alone still reads.
        #expect(throws: Never.self) { try LayoutDocument(json: #"{"nodes": [{"id": "f", "kind": "forEach", "fields": ["a"], "data": ["1"]}]}"#) }
        #expect(throws: Never.self) { try LayoutDocument(json: #"{"nodes": [{"id": "f", "kind": "forEach", "data": [{"a": "1"}]}]}"#) }
    }

    @Test func theNestedFormIsChecked() {
        #expect(refusal(json: #"{"root": {"kind": "vstack"}, "nodes": []}"#)
            == .malformedDocument("give nodes (the flat form) or root (the nested form), not both"))
        #expect(refusal(json: #"{"root": {"kind": "vstack", "children": [{"kind": "text", "text": "a", "parent": "x"}]}}"#)
            == .malformedDocument("the node at .root.children[0] names a parent; in the nested form its place says it"))
        #expect(refusal(json: #"{"nodes": [{"id": "a", "kind": "vstack", "children": []}]}"#)
            == .invalidProperty(
                node: at(0, "a"), property: "children", reason: "children are for the nested form (a document with root, not nodes)"))
        #expect(refusal(json: #"{"root": {"kind": "text", "text": "a", "colour": "red"}}"#)
            == .unknownProperty(node: at(0, "root"), property: "colour", kind: "text"))
        #expect(refusal(json: #"{"root": {"kind": "vstack", "children": [{"kind": "text", "text": {"a": 1}}]}}"#)
            == .malformedDocument(
                "the node at .root.children[0]: invalid \"text\": expected a string, number, boolean or array of strings"))
        // 200 levels: refused while reading, before the recursion goes deeper.
        let deep = String(repeating: #"{"kind": "vstack", "children": ["#, count: 200) + #"{"kind": "spacer"}"#
            + String(repeating: "]}", count: 200)
        #expect(refusal(json: #"{"root": "# + deep + "}")
            == .malformedDocument("nodes are nested more than 128 levels below the root"))
    }
}
