#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import FitLayout
import FitLayoutJSON

@Suite struct FormatTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol/examples")

    static func example(_ name: String) throws -> LayoutDocument {
        try LayoutDocument(json: Array(try Data(contentsOf: examples.appendingPathComponent(name))))
    }

    @Test func cacheKeyIsStableAndSensitive() throws {
        let document = try Self.example("uniform-list.json")
        let key = LayoutCacheKey(document: document, proposal: ProposedSize(width: 320, height: nil), options: .init())
        let same = LayoutCacheKey(document: try Self.example("uniform-list.json"), proposal: ProposedSize(width: 320, height: nil), options: .init())
        #expect(key == same && key.digest == same.digest)
        #expect(key.digest != LayoutCacheKey(document: document, proposal: ProposedSize(width: 321, height: nil), options: .init()).digest)
        #expect(key.digest != LayoutCacheKey(document: document, proposal: ProposedSize(width: 320, height: nil), options: .init(sizeCategory: .xLarge)).digest)
        // A layout with breakpoints answers more: it must not share a key with one without.
        let ranged = LayoutCacheKey(
            document: document, proposal: ProposedSize(width: 320, height: nil), options: .init(breakpoints: .init(from: 0, to: 500)))
        #expect(ranged != key && ranged.digest != key.digest)
        var changed = document
        changed.nodes[3].properties.text = "Novels"
        #expect(changed.stableDigest != document.stableDigest)
        // FNV-1a is fixed, so the digest of a fixed document is a constant across runs.
        #expect(LayoutDocument(nodes: [text("t", nil, "x")]).stableDigest == LayoutDocument(nodes: [text("t", nil, "x")]).stableDigest)
    }

    @Test func rendererDrawsFramesAndTextsSideBySide() throws {
        let nodes = [
            node("cells", nil, .hstack, .init(spacing: 1)),
            node("a", "cells", .padding, .init(length: 1)), node("ta", "a", .template, .init(templates: ["190"])), text("va", "ta", "72"),
            node("b", "cells", .padding, .init(length: 1)), node("tb", "b", .template, .init(templates: ["190"])), text("vb", "tb", "190"),
        ]
        let document = LayoutDocument(nodes: nodes)
        let result = try document.layout(in: .unspecified, options: .init(unit: .cells), measurer: FixedAdvanceMeasurer.cells)
        // Each cell 3 + 2 = 5 wide, 1 + 2 = 3 tall, 1 apart; "72" centred in the 3 reserved
        // columns would start at 1 + 0.5: in cells it is snapped to column 2 (CellSnapTests).
        let drawing = LayoutRenderer().render(document, result)
        #expect(drawing == """
            ┌───┐ ┌───┐
            │ 72│ │190│
            └───┘ └───┘
            """)
        let side = LayoutRenderer().render(document, results: [("unspecified", result), ("again", result)])
        #expect(side.split(separator: "\n").first == "unspecified   again")
        #expect(side.split(separator: "\n").count == 4)
    }
}
