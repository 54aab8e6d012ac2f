import FitClient
import FitLayout
import FitService
import FitServiceTestSupport
import FitTestSupport
import FitText
import Testing

/// Layout of many texts over every core: the daemon measures a document's texts on
/// `[limits] workers` tasks before it lays the document out, and answers what one worker does.
@Suite struct LayoutEveryCoreTests {
    /// The document laid out by a service of its own with `workers`, and what that service's
    /// result cache then counts.
    static func layout(workers: Int) async throws -> (LayoutResult, CacheStatistics?) {
        var limits = ServiceLimits()
        limits.workers = workers
        let engine = try PinnedEngine.freshEngine()
        let harness = try await ServiceHarness.start(limits: limits, engine: engine)
        defer { harness.stop() }
        let client = try await harness.client()
        let result = try await client.layout(document: ListDocument.rows(64, tag: "every core"), proposal: ProposedSize(width: 320, height: nil))
        return (result, engine.cacheStatistics.first { $0.name == "results" })
    }

    @Test func aLongListLaidOutOverTwoWorkersIsTheListLaidOutByOne() async throws {
        let (one, oneResults) = try await Self.layout(workers: 1)
        let (two, twoResults) = try await Self.layout(workers: 2)
        #expect(two == one)
        // 64 rows, 258 probes: as long as a document must be for the daemon to premeasure it
        // (TextEngineMeasurer.premeasureMinimumProbes). Alone, the layout measured 128 texts
        // unwrapped and at width 0 and the template's two strings at the column's width.
        // Spread, the workers measured the texts' 256 and the strings unwrapped (two the
        // layout does not ask), and the layout found the 256 cached.
        let alone = try #require(oneResults), spread = try #require(twoResults)
        #expect(alone.misses == 258)
        #expect(spread.misses == alone.misses + 2)
        #expect(spread.hits == alone.hits + 256)
    }
}
