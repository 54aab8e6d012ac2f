import FitLayout
import FitText
import Foundation
import Testing

@testable import FitLayoutText

@Suite struct PrepareEngineTests {
    /// Issue 14: prepare measures every text at its ideal size ahead (on every core), into the
    /// engine's result cache, so the layout's first question about each is a cache hit and
    /// gets the same answer as measuring it cold.
    @Test func prepareLeavesEveryIdealMeasurementInTheEnginesCache() throws {
        // An engine of its own: the shared one's counters move with the tests running beside.
        let measurer = TextEngineMeasurer(engine: try TextEngine())
        let tag = UUID().uuidString.prefix(8)
        let texts = (0..<24).map { LayoutText("prepared \(tag) row \($0)") }
        func results() -> CacheStatistics? { measurer.engine.cacheStatistics.first { $0.name == "results" } }
        let before = try #require(results())
        measurer.prepare(texts)
        let prepared = try #require(results())
        #expect(prepared.misses - before.misses == 24)
        for text in texts {
            let measured = try measurer.measure(text, proposedWidth: nil, scale: 1)
            #expect(measured.width > 0)
        }
        let after = try #require(results())
        #expect(after.hits - prepared.hits == 24)
        #expect(after.misses == prepared.misses)
    }
}
