import FitLayout
import FitTestSupport
import FitText
import Testing

@testable import FitLayoutText

/// TextEngineMeasurer.premeasure: a document's texts measured on several tasks before the
/// layout asks for them, so that a layout's texts are measured on every core.
@Suite struct PremeasureTests {
    static func list(rows: Int, tag: String) -> LayoutDocument { ListDocument.rows(rows, tag: tag) }

    /// The documents here are smaller than a premeasure pays for (``TextEngineMeasurer/
    /// premeasureMinimumProbes``): what they test is what is measured, and its use.
    static let minimumProbes = 32

    /// As the daemon does: the plan, then the probes over `workers` tasks. Whether there was a plan.
    @discardableResult
    static func premeasure(_ measurer: TextEngineMeasurer, _ prepared: PreparedLayout, workers: Int) async -> Bool {
        guard let probes = measurer.premeasurePlan(prepared, sizeCategory: .large, workers: workers, minimumProbes: minimumProbes)
        else { return false }
        await measurer.premeasure(probes, workers: workers)
        return true
    }

    static func statistics(_ engine: TextEngine, _ cache: String) -> CacheStatistics? {
        engine.cacheStatistics.first { $0.name == cache }
    }

    @Test func probesAreEveryTextUnwrappedAndAtZeroInARowAndEveryTemplateString() throws {
        var document = Self.list(rows: 2, tag: "a")
        // Outside a horizontal stack no stack asks a text at width 0.
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
        let document = Self.list(rows: 40, tag: "cached")
        let proposal = ProposedSize(width: 320, height: nil)
        // Alone, on an engine of its own: what the layout asks, all misses the first time.
        let lone = try PinnedEngine.freshEngine()
        _ = try document.layout(in: proposal, measurer: TextEngineMeasurer(engine: lone))
        let alone = try #require(Self.statistics(lone, "results"))
        #expect(alone.misses == 162)  // 80 texts unwrapped and at width 0, two strings at 320

        let engine = try PinnedEngine.freshEngine()
        let measurer = TextEngineMeasurer(engine: engine)
        let prepared = try PreparedLayout(document)
        #expect(await Self.premeasure(measurer, prepared, workers: 2))
        let results = try #require(Self.statistics(engine, "results"))
        let shaped = try #require(Self.statistics(engine, "shaped-runs"))
        #expect(results.entries == 162)  // 80 texts unwrapped and at width 0, two strings unwrapped
        // Each row asks its texts at 0 and unwrapped (then reuses the unwrapped measurement at
        // its share): all 160 answered from the cache. Only the template's two strings are
        // asked anew, at the column's width; nothing is shaped again.
        _ = try prepared.layout(in: proposal, measurer: measurer)
        let after = try #require(Self.statistics(engine, "results"))
        #expect(after.misses - results.misses == 2)
        #expect(after.hits - results.hits == alone.hits + 160)
        #expect(try #require(Self.statistics(engine, "shaped-runs")).misses == shaped.misses)
    }

    /// The probes are the requests the layout makes, whatever the measurer's settings: after
    /// a premeasure the layout of rows makes no measurement of its own, and shapes nothing.
    /// Markup is the exception that proves it: its unwrapped measurement is not reused at a
    /// wider share (``TextEngineMeasurer/reusesUnwrapped(width:)``), so the share is measured,
    /// from words already shaped.
    @Test(arguments: ["styles", "markup", "cells", "scaled", "gtk3", "language"])
    func probesAreTheLayoutsOwnRequests(_ setting: String) async throws {
        let engine = try PinnedEngine.freshEngine()
        var measurer = TextEngineMeasurer(engine: engine, unit: setting == "cells" ? .cells : .px, textScale: setting == "scaled" ? 1.5 : 1)
        measurer.markup = setting == "markup"
        if setting == "gtk3" { measurer.metrics = .gtk3 }
        if setting == "language" { measurer.language = "ja" }
        var nodes = [LayoutNode(id: "list", kind: .vstack)]
        for row in 0..<20 {
            nodes.append(LayoutNode(id: "r\(row)", parent: .id("list"), kind: .hstack, properties: .init(spacing: 8)))
            var label = LayoutProperties(text: setting == "markup" ? "<b>\(setting)</b> row \(row)" : "\(setting) row \(row)")
            if setting == "styles" { label.textStyle = row % 2 == 0 ? .headline : .caption }
            nodes.append(LayoutNode(id: "r\(row)l", parent: .id("r\(row)"), kind: .text, properties: label))
            nodes.append(LayoutNode(id: "r\(row)v", parent: .id("r\(row)"), kind: .text, properties: .init(text: "\(row * 3) items", lineLimit: 1)))
        }
        let prepared = try PreparedLayout(LayoutDocument(nodes: nodes))
        #expect(await Self.premeasure(measurer, prepared, workers: 2))
        let before = try #require(Self.statistics(engine, "results"))
        let shaped = try #require(Self.statistics(engine, "shaped-runs"))
        #expect(before.misses == 80)
        _ = try prepared.layout(in: ProposedSize(width: 320, height: nil), measurer: measurer)
        let after = try #require(Self.statistics(engine, "results"))
        #expect(after.misses - before.misses == (setting == "markup" ? 40 : 0))
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
        // 7 rows: 14 texts unwrapped and at 0, two template strings: two short of 32.
        #expect(await !Self.premeasure(measurer, try PreparedLayout(Self.list(rows: 7, tag: "small")), workers: 2))
        #expect(await !Self.premeasure(measurer, try PreparedLayout(Self.list(rows: 40, tag: "one")), workers: 1))
        #expect(Self.statistics(engine, "results")?.entries == 0)
        let eight = try PreparedLayout(Self.list(rows: 8, tag: "two"))
        #expect(await Self.premeasure(measurer, eight, workers: 2))
        #expect(Self.statistics(engine, "results")?.entries == 34)
        // By default a document needs 256 probes: 63 rows make 254, 64 rows 258.
        let default63 = try PreparedLayout(Self.list(rows: 63, tag: "sixty-three"))
        #expect(measurer.premeasurePlan(default63, sizeCategory: .large, workers: 2) == nil)
        let default64 = try PreparedLayout(Self.list(rows: 64, tag: "sixty-four"))
        #expect(measurer.premeasurePlan(default64, sizeCategory: .large, workers: 2)?.count == 258)
        // Laid out again (a window resized): known, nothing to do ahead.
        let again = measurer.premeasurePlan(eight, sizeCategory: .large, workers: 2, minimumProbes: Self.minimumProbes) == nil
        #expect(again)
    }

    @Test func aCancelledCallerMeasuresNothingAhead() async throws {
        let engine = try PinnedEngine.freshEngine()
        let measurer = TextEngineMeasurer(engine: engine)
        let prepared = try PreparedLayout(Self.list(rows: 40, tag: "cancelled"))
        let probes = try #require(measurer.premeasurePlan(prepared, sizeCategory: .large, workers: 2, minimumProbes: Self.minimumProbes))
        // As when the daemon cancels the call of a client that left the bus.
        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await measurer.premeasure(probes, workers: 2)
        }
        await caller.value
        #expect(Self.statistics(engine, "results")?.entries == 0)
    }

    @Test func aDocumentIsPremeasuredWhenAQuarterOfItsSampleIsNew() async throws {
        let measurer = TextEngineMeasurer(engine: try PinnedEngine.freshEngine())
        let document = Self.list(rows: 20, tag: "part")
        let prepared = try PreparedLayout(document)
        let sample = prepared.sampleTextProbes(TextEngineMeasurer.premeasureSample, sizeCategory: .large).sample
        #expect(sample.count == 8)
        // Seven of the eight sampled texts known: not worth it; six (a quarter new): worth it.
        for probe in sample.prefix(7) { _ = try measurer.measure(probe.text, proposedWidth: nil, scale: 1) }
        let none = measurer.premeasurePlan(prepared, sizeCategory: .large, workers: 2, minimumProbes: Self.minimumProbes) == nil
        #expect(none)
        let fresh = TextEngineMeasurer(engine: try PinnedEngine.freshEngine())
        for probe in sample.prefix(6) { _ = try fresh.measure(probe.text, proposedWidth: nil, scale: 1) }
        let planned = fresh.premeasurePlan(prepared, sizeCategory: .large, workers: 2, minimumProbes: Self.minimumProbes)?.count
        #expect(planned == prepared.textProbes(sizeCategory: .large).count)
    }
}
