import FitLayout
import FitTestSupport
import FitText
import Testing

@testable import FitLayoutText

/// TextEngineMeasurer.premeasure: a document's texts measured on several tasks before the
/// layout asks for them (issue 14, "every core").
@Suite struct PremeasureTests {
    /// A list of `rows` rows of two texts each, every string its own, and a template.
    static func list(rows: Int, tag: String) -> LayoutDocument {
        var nodes = [LayoutNode(id: "list", kind: .vstack, properties: .init(spacing: 4))]
        for row in 0..<rows {
            nodes.append(LayoutNode(id: "r\(row)", parent: .id("list"), kind: .hstack, properties: .init(spacing: 8)))
            nodes.append(LayoutNode(id: "r\(row)l", parent: .id("r\(row)"), kind: .text, properties: .init(text: "\(tag) setting \(row)")))
            nodes.append(LayoutNode(
                id: "r\(row)v", parent: .id("r\(row)"), kind: .text, properties: .init(text: "\(row * 37 % 1000) kB \(tag)", lineLimit: 1)))
        }
        nodes.append(LayoutNode(id: "size", parent: .id("list"), kind: .template, properties: .init(templates: ["\(tag) 0 kB", "\(tag) 999 kB"])))
        return LayoutDocument(nodes: nodes)
    }

    /// As the daemon does: the plan, then the probes over `workers` tasks. Whether there was a plan.
    @discardableResult
    static func premeasure(_ measurer: TextEngineMeasurer, _ prepared: PreparedLayout, workers: Int) async -> Bool {
        guard let probes = measurer.premeasurePlan(prepared, sizeCategory: .large, workers: workers) else { return false }
        await measurer.premeasure(probes, workers: workers)
        return true
    }

    static func statistics(_ engine: TextEngine, _ cache: String) -> CacheStatistics? {
        engine.cacheStatistics.first { $0.name == cache }
    }

    @Test func probesAreEveryTextUnwrappedAndAtZeroInARowAndEveryTemplateStringOnce() throws {
        var document = Self.list(rows: 2, tag: "a")
        // A second node showing the same text in the same font and limits is measured once;
        // outside a horizontal stack no stack asks it at width 0.
        document.nodes.append(LayoutNode(id: "again", parent: .id("list"), kind: .text, properties: .init(text: "a setting 0")))
        document.nodes.append(LayoutNode(id: "alone", parent: .id("list"), kind: .text, properties: .init(text: "alone")))
        let probes = try PreparedLayout(document).textProbes(sizeCategory: .large)
        let described = probes.map { "\($0.text.string)@\($0.proposedWidth.map { "\($0)" } ?? "nil")" }
        #expect(described == [
            "a setting 0@nil", "a setting 0@0.0", "0 kB a@nil", "0 kB a@0.0", "a setting 1@nil", "a setting 1@0.0",
            "37 kB a@nil", "37 kB a@0.0", "a 0 kB@nil", "a 999 kB@nil", "alone@nil",
        ])
        #expect(probes[2].text.lineLimit == 1 && probes[0].text.lineLimit == nil)
        #expect(probes.allSatisfy { $0.text.sizeCategory == .large })
    }

    @Test func theLayoutFindsEveryPremeasuredTextCachedAndShapesNothing() async throws {
        let engine = try PinnedEngine.freshEngine()
        let measurer = TextEngineMeasurer(engine: engine)
        let prepared = try PreparedLayout(Self.list(rows: 40, tag: "cached"))
        #expect(await Self.premeasure(measurer, prepared, workers: 2))
        let results = try #require(Self.statistics(engine, "results"))
        let shaped = try #require(Self.statistics(engine, "shaped-runs"))
        #expect(results.entries == 162)  // 80 texts unwrapped and at width 0, two template strings
        // At a width, each row asks its texts at 0 and unwrapped (then reuses the unwrapped
        // measurement at its share): all answered from the cache. Only the template's two
        // strings are asked anew, at the column's width; nothing is shaped again.
        _ = try prepared.layout(in: ProposedSize(width: 320, height: nil), measurer: measurer)
        let after = try #require(Self.statistics(engine, "results"))
        #expect(after.misses == results.misses + 2)
        #expect(after.hits >= results.hits + 162)
        #expect(try #require(Self.statistics(engine, "shaped-runs")).misses == shaped.misses)
    }

    @Test func aPremeasuredLayoutIsTheLayoutWithout() async throws {
        let document = Self.list(rows: 40, tag: "same")
        for proposal in [ProposedSize(width: nil, height: nil), ProposedSize(width: 120, height: 400), ProposedSize(width: 60, height: nil)] {
            let plain = TextEngineMeasurer(engine: try PinnedEngine.freshEngine())
            let expected = try document.layout(in: proposal, measurer: plain)
            let premeasured = TextEngineMeasurer(engine: try PinnedEngine.freshEngine())
            let prepared = try PreparedLayout(document)
            #expect(await Self.premeasure(premeasured, prepared, workers: 4))
            #expect(try prepared.layout(in: proposal, measurer: premeasured) == expected)
        }
    }

    @Test func smallDocumentsOneWorkerAndCachedDocumentsAreLeftToTheLayout() async throws {
        let engine = try PinnedEngine.freshEngine()
        let measurer = TextEngineMeasurer(engine: engine)
        // 7 rows: 14 texts unwrapped and at 0, two template strings: two short of two chunks.
        #expect(await !Self.premeasure(measurer, try PreparedLayout(Self.list(rows: 7, tag: "small")), workers: 2))
        #expect(await !Self.premeasure(measurer, try PreparedLayout(Self.list(rows: 40, tag: "one")), workers: 1))
        #expect(Self.statistics(engine, "results")?.entries == 0)
        let eight = try PreparedLayout(Self.list(rows: 8, tag: "two"))
        #expect(await Self.premeasure(measurer, eight, workers: 2))
        #expect(Self.statistics(engine, "results")?.entries == 34)
        // Laid out again (a window resized): known, nothing to do ahead.
        let again = measurer.premeasurePlan(eight, sizeCategory: .large, workers: 2) == nil
        #expect(again)
    }

    @Test func aDocumentIsPremeasuredWhenAQuarterOfItsSampleIsNew() async throws {
        let measurer = TextEngineMeasurer(engine: try PinnedEngine.freshEngine())
        let document = Self.list(rows: 20, tag: "part")
        let prepared = try PreparedLayout(document)
        let sample = prepared.sampleTextProbes(TextEngineMeasurer.premeasureSample, sizeCategory: .large).sample
        #expect(sample.count == 8)
        // Seven of the eight sampled texts known: not worth it; six (a quarter new): worth it.
        for probe in sample.prefix(7) { _ = try measurer.measure(probe.text, proposedWidth: nil, scale: 1) }
        let none = measurer.premeasurePlan(prepared, sizeCategory: .large, workers: 2) == nil
        #expect(none)
        let fresh = TextEngineMeasurer(engine: try PinnedEngine.freshEngine())
        for probe in sample.prefix(6) { _ = try fresh.measure(probe.text, proposedWidth: nil, scale: 1) }
        let planned = fresh.premeasurePlan(prepared, sizeCategory: .large, workers: 2)?.count
        #expect(planned == prepared.textProbes(sizeCategory: .large).count)
    }
}
