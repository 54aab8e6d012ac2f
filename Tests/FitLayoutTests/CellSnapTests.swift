import Testing

@testable import FitLayout

/// Layouts in cells cover whole cells: a terminal cannot draw half a column.
@Suite struct CellSnapTests {
    func cells(_ nodes: [LayoutNode], width: Double?) throws -> LayoutResult {
        try LayoutDocument(nodes: nodes).layout(
            in: ProposedSize(width: width, height: nil), options: .init(unit: .cells), measurer: FixedAdvanceMeasurer.cells)
    }

    @Test func aCentredValueInCellsStartsOnAWholeCellAndKeepsItsWidth() throws {
        // "7" (1 cell) centred in a 4-cell frame: 1.5 in px terms; in cells 2 (half up), still
        // 1 wide — rounding each edge half away from zero would make it 2 wide (1.5→2, 2.5→3).
        let result = try cells(
            [node("box", nil, .frame, .init(width: 4, height: 3)), text("v", "box", "7")], width: nil)
        #expect(result.frame("v") == rect(2, 1, 1, 1))
        let even = try cells(
            [node("box", nil, .frame, .init(width: 9, height: 1)), text("v", "box", "72")], width: nil)
        #expect(even.frame("v") == rect(4, 0, 2, 1))  // (9 − 2) / 2 = 3.5
    }

    @Test func neighboursInCellsShareTheirSnappedEdgeAndEveryFrameIsWhole() throws {
        // Three flexible spacers share 10 cells: 3⅓ each in px terms.
        let result = try cells(
            [
                node("row", nil, .hstack, .init(spacing: 0)), node("a", "row", .spacer, .init(minLength: 0)),
                node("b", "row", .spacer, .init(minLength: 0)), node("c", "row", .spacer, .init(minLength: 0)),
            ], width: 10)
        for node in result.nodes {
            for value in [node.frame.x, node.frame.y, node.frame.width, node.frame.height] {
                #expect(value == value.rounded(), "\(node.id): \(node.frame)")
            }
        }
        let a = try #require(result.frame("a")), b = try #require(result.frame("b")), c = try #require(result.frame("c"))
        #expect(a.maxX == b.x && b.maxX == c.x && a.x == 0 && c.maxX == 10)
    }

    @Test func pixelLayoutsKeepTheirFractions() throws {
        let result = try LayoutDocument(nodes: [node("box", nil, .frame, .init(width: 9, height: 20)), text("v", "box", "72")])
            .layout(in: .unspecified, options: .init(unit: .px), measurer: FixedAdvanceMeasurer.cells)
        #expect(result.frame("v")?.x == 3.5)
    }
}
