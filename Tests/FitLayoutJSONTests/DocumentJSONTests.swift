#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FitLayout
import FitLayoutJSON
import Testing

/// Layout documents as JSON text: protocol/examples parse, lay out and round-trip, and the
/// format's own spellings (a parent by index, "infinity") read and write back.
@Suite struct DocumentJSONTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol/examples")

    static func example(_ name: String) throws -> LayoutDocument {
        try LayoutDocument(json: Array(try Data(contentsOf: examples.appendingPathComponent(name))))
    }

    /// 10 px characters and 20 px lines, as FitLayoutTests measure.
    let measurer = FixedAdvanceMeasurer(advance: 10, lineHeight: 20)

    @Test(arguments: [
        "first-fit-card.json", "uniform-list.json", "payment-row-threshold.json", "fitting-column.json",
        "heart-rate-template.json", "exposure-scale-group.json", "icon-body-style.json", "spacer-rows.json",
        "fitting-spacer-rows.json", "uniform-scroll-list.json", "exposure-overlay.json",
    ])
    func examplesParseLayOutAndRoundTrip(_ name: String) throws {
        let document = try Self.example(name)
        let result = try document.layout(in: ProposedSize(width: 320, height: nil), measurer: measurer)
        #expect(result.nodes.count == document.nodes.count)
        #expect(result.size.width > 0 && result.size.width <= 320)
        #expect(try LayoutDocument(json: document.json()) == document)
    }

    @Test func exampleDecisions() throws {
        // "Screen time this week" = 210: the row (238) does not fit 220, the column does.
        let card = try Self.example("first-fit-card.json").layout(in: ProposedSize(width: 220, height: nil), measurer: measurer)
        #expect(card.decision("card")?.candidateID == "column")
        let payment = try Self.example("payment-row-threshold.json")
        let large = try payment.layout(in: ProposedSize(width: 320, height: nil), options: .init(sizeCategory: .accessibilityLarge), measurer: measurer)
        #expect(large.decision("payment")?.axis == .vertical)
        #expect(large.node("gap")?.visible == false)
    }

    @Test func parentsByIndexAndInfinity() throws {
        let document = try LayoutDocument(json: #"""
            {"nodes":[{"id":"f","kind":"frame","maxWidth":"infinity"},{"id":"t","parent":0,"kind":"text","text":"hi"}]}
            """#)
        #expect(document.nodes[1].parent == .index(0))
        #expect(document.nodes[0].properties.maxWidth == .infinity)
        #expect(try document.layout(in: ProposedSize(width: 100, height: nil), measurer: measurer).size.width == 100)
        #expect(document.json(pretty: false).contains(#""maxWidth":"infinity""#))
    }
}
