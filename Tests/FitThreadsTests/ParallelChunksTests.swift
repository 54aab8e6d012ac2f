import Synchronization
import Testing

@testable import FitThreads

@Suite struct ParallelChunksTests {
    @Test(arguments: [(0, 4, 1), (1, 4, 2), (10, 3, 2), (1000, 64, 2), (1000, 64, 8), (7, 100, 4)])
    func everyItemOnceAndTheResultsInOrder(count: Int, chunk: Int, workers: Int) async {
        let chunks = await ParallelChunks.map(count: count, chunk: chunk, workers: workers) { range in
            Array(range)
        }
        #expect(chunks.flatMap { $0 } == Array(0..<count))
        #expect(chunks.allSatisfy { $0.count <= chunk })
    }

    /// The point of it: with two workers, two chunks are under way at the same time. Each
    /// chunk waits (suspended, so one pool thread is enough) until a second one has started,
    /// up to five seconds; with one worker at a time none ever sees a second.
    @Test(.timeLimit(.minutes(1))) func twoWorkersRunTwoChunksAtOnce() async {
        let gauge = Gauge()
        _ = await ParallelChunks.map(count: 4, chunk: 1, workers: 2) { _ in
            gauge.enter()
            for _ in 0..<500 where gauge.most < 2 { try? await Task.sleep(for: .milliseconds(10)) }
            gauge.leave()
        }
        #expect(gauge.most == 2)
        let alone = Gauge()
        _ = await ParallelChunks.map(count: 3, chunk: 1, workers: 1) { _ in
            alone.enter()
            try? await Task.sleep(for: .milliseconds(20))
            alone.leave()
        }
        #expect(alone.most == 1)
    }

    @Test func coresAreCounted() {
        #expect(ParallelChunks.availableCores >= 1)
    }
}

/// Chunks under way now, and the most at once.
private final class Gauge: Sendable {
    private let now = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)
    var most: Int { peak.load(ordering: .relaxed) }
    func enter() {
        let current = now.wrappingAdd(1, ordering: .relaxed).newValue
        _ = peak.max(current, ordering: .relaxed)
    }
    func leave() { now.wrappingSubtract(1, ordering: .relaxed) }
}
