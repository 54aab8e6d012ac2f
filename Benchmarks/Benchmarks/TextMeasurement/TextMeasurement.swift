// The four peers under ordo-one/benchmark (`swift package --package-path Benchmarks benchmark`):
// percentiles of whole corpus passes, CPU time and allocations. One iteration is one pass over
// the plain corpus; "ns/string" divides each pass by the number of strings. The ratio table
// comes from FitBenchRatios, which times the peers interleaved and without this harness's
// malloc interposer (which adds to every allocation).
import Benchmark
import FitBenchPeers

#if canImport(Glibc)
import Glibc
#endif

let benchmarks: @Sendable () -> Void = {
    let corpus: Corpus
    let peers: [any MeasuringPeer]
    do {
        corpus = try Corpus.load()
        peers = try makePeers(corpus: corpus)
    } catch {
        print("TextMeasurement: \(error)")
        return
    }
    let perString = BenchmarkMetric.custom("ns/string", polarity: .prefersSmaller, useScalingFactor: false)
    Benchmark.defaultConfiguration = .init(
        // No CPU-time metric: Linux reports it in 10 ms ticks, longer than a pass.
        metrics: [.wallClock, .throughput, .mallocCountTotal, perString],
        timeUnits: .microseconds,
        units: [perString: .count],
        warmupIterations: 2,
        maxDuration: .seconds(3),
        maxIterations: 10_000)

    for peer in peers {
        Benchmark("\(peer.name) (\(corpus.count) strings/iteration)") { benchmark in
            peer.prepareCorpusPass()  // the fitd peers' cache drops stay out of the timing
            var start = timespec()
            var end = timespec()
            benchmark.startMeasurement()
            clock_gettime(CLOCK_MONOTONIC, &start)
            blackHole(peer.measureCorpus())
            clock_gettime(CLOCK_MONOTONIC, &end)
            benchmark.stopMeasurement()
            let nanoseconds = (end.tv_sec - start.tv_sec) * 1_000_000_000 + (end.tv_nsec - start.tv_nsec)
            benchmark.measurement(perString, nanoseconds / corpus.count)
        }
    }
}
