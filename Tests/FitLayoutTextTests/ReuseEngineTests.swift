import FitLayout
import FitLayoutJSON
import Testing

@testable import FitLayoutText

/// Reuse and containers (inherited properties, forEach, hidden, background, grid, flow, the
/// nested form) through the real TextEngine and the pinned fonts: expected frames are sums of what
/// the engine measures.
@Suite struct ReuseEngineTests {
    @Test func seed003CellsAreTheTemplatesWidthInRealFonts() throws {
        let reserved = try Fixture.width("190")
        let result = try Fixture.layout("template-cells", width: nil)
        var x = 0.0
        for (row, value) in ["72", "105", "64"].enumerated() {
            let cell = try #require(result.frame("cell#\(row)"))
            #expect(same(cell.x, x) && same(cell.width, reserved + 8))
            #expect(result.node("widest#\(row)")?.hidden == true)
            // The value is centred in the cell, whatever its own width.
            let rate = try #require(result.frame("rate#\(row)"))
            #expect(same(rate.width, try Fixture.width(value)))
            #expect(same(rate.x + rate.width / 2, cell.x + cell.width / 2))
            x = cell.maxX + 8
        }
        #expect(!result.truncated)
    }

    @Test func gridColumnsAreEqualToTheWidestTemplate() throws {
        let reserved = try Fixture.width("190")
        let result = try Fixture.layout("heart-rate-grid", width: nil)
        for row in 0..<2 {
            for (column, name) in ["mon", "tue", "wed"].enumerated() {
                let cell = try #require(result.frame("\(name)Cell#\(row)"))
                #expect(same(cell.width, reserved + 8))
                #expect(same(cell.x, Double(column) * (reserved + 8 + 4)))
            }
        }
        #expect(same(result.size.width, 3 * (reserved + 8) + 8))
    }

    @Test func aTextStyleSetOnTheContainerIsTheTextsFont() throws {
        let document = try LayoutDocument(json: """
            {"root": {"kind": "vstack", "textStyle": "title", "children": [{"id": "t", "kind": "text", "text": "Screen time"}]}}
            """)
        let result = try document.layout(in: .unspecified, measurer: try Fixture.measurer())
        let titled = try Fixture.width("Screen time", font: .style(.title))
        #expect(same(result.frame("t")?.width, titled))
        #expect(titled > (try Fixture.width("Screen time")))
    }

    @Test func flowBreaksWhereTheRealWidthsSay() throws {
        let words = ["swift", "layout", "pango", "gtk"]
        let nodes = [LayoutNode(id: "flow", kind: .flow, properties: .init(spacing: 8))]
            + words.map { LayoutNode(id: $0, parent: "flow", kind: .text, properties: .init(text: $0)) }
        let widths = try words.map { try Fixture.width($0) }
        let line = widths[0] + 8 + widths[1]
        let result = try LayoutDocument(nodes: nodes).layout(
            in: ProposedSize(width: line, height: nil), measurer: try Fixture.measurer())
        #expect(same(result.frame("layout")?.x, widths[0] + 8))
        #expect(result.frame("pango")?.x == 0)
        #expect(same(result.frame("gtk")?.x, widths[2] + 8))
        #expect((result.frame("pango")?.y ?? 0) > 0)
        #expect(same(result.size.width, max(line, widths[2] + 8 + widths[3])))
    }
}

extension ReuseEngineTests {
    @Test func tagChipsAreTheirBodyStyleLabelsPlusPadding() throws {
        let names = ["swift", "layout", "pango", "gtk"]
        let chips = try names.map { try Fixture.width($0, font: .style(.body)) + 8 }
        let line = chips[0] + 8 + chips[1]
        let result = try Fixture.layout("tag-flow", width: line)
        for (row, chip) in chips.enumerated() { #expect(same(result.frame("chip#\(row)")?.width, chip)) }
        #expect(same(result.frame("chip#1")?.x, chips[0] + 8))
        #expect(result.frame("chip#2")?.x == 0 && (result.frame("chip#2")?.y ?? 0) > 0)
    }
}
