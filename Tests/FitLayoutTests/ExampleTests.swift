import FitLayoutJSON
import Foundation
import Testing

@testable import FitLayout

/// protocol/examples that reproduce the seeds' write-ups (docs/swiftui-layout.md section 5),
/// with the frames the spec gives for them (10 px characters, 20 px lines).
@Suite struct ExampleTests {
    static func example(_ name: String) throws -> LayoutDocument {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("protocol/examples/\(name).json")
        return try LayoutDocument(json: [UInt8](Data(contentsOf: url)))
    }

    @Test func seed003TemplateCellsHaveTheSpecsFrames() throws {
        // Spec section 5, seed 003 (O1): cells 38×28 at 0, 46, 92; values centred in them.
        let result = try Self.example("template-cells").layout(in: .unspecified, measurer: measurer)
        for (row, x) in [0.0, 46, 92].enumerated() {
            #expect(result.frame("cell#\(row)") == rect(x, 0, 38, 28))
            #expect(result.frame("widest#\(row)") == rect(x + 4, 4, 30, 20))
            #expect(result.node("widest#\(row)")?.hidden == true)
            #expect(result.frame("shape#\(row)") == rect(x, 0, 38, 28))
        }
        #expect(result.frame("rate#0") == rect(9, 4, 20, 20))
        #expect(result.frame("rate#1") == rect(50, 4, 30, 20))
        #expect(result.frame("rate#2") == rect(101, 4, 20, 20))
        #expect(result.size == LayoutSize(width: 130, height: 28))
    }

    @Test func tagChipsWrapIntoLinesAndInheritTheirStyle() throws {
        // Chips are the label plus 4 each side: 58, 68, 58, 38. At 140: 58 + 8 + 68 = 134,
        // the third would pass 140 → a second line 28 + 8 down.
        let document = try Self.example("tag-flow")
        let result = try document.layout(in: ProposedSize(width: 140, height: nil), measurer: measurer)
        #expect(result.frame("chip#0") == rect(0, 0, 58, 28))
        #expect(result.frame("chip#1") == rect(66, 0, 68, 28))
        #expect(result.frame("chip#2") == rect(0, 36, 58, 28))
        #expect(result.frame("chip#3") == rect(66, 36, 38, 28))
        #expect(result.frame("shape#3") == rect(66, 36, 38, 28))
        #expect(result.size == LayoutSize(width: 134, height: 64))
        // The labels are in the flow's body style and one line (what the flow sets once).
        let prepared = try PreparedLayout(document)
        let label = try #require(prepared.nodes.first { $0.id == "label#0" })
        #expect(label.properties.lineLimit == 1)
        #expect(prepared.fonts[prepared.nodes.firstIndex { $0.id == "label#0" } ?? 0] == .style(.body))
    }

    @Test func theTemplatePatternInAGridGivesEqualCellsWhateverTheValues() throws {
        let result = try Self.example("heart-rate-grid").layout(in: .unspecified, measurer: measurer)
        // Every cell is the padded template (30 + 8) × (20 + 8); columns 38 apart by 4.
        for row in 0..<2 {
            for (column, name) in ["mon", "tue", "wed"].enumerated() {
                #expect(result.frame("\(name)Cell#\(row)") == rect(Double(column) * 42, Double(row) * 32, 38, 28))
            }
        }
        #expect(result.frame("mon#0") == rect(9, 4, 20, 20))
        #expect(result.frame("tue#0") == rect(46, 4, 30, 20))
        #expect(result.frame("wed#1") == rect(98, 36, 10, 20))
        #expect(result.size == LayoutSize(width: 122, height: 60))
    }
}
