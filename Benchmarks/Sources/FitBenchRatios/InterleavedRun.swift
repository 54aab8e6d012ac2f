import FitBenchPeers

#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock.
@inline(__always)
func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Keeps a value alive past the optimizer.
@inline(never)
func consume(_ value: Double) {
    if value.isNaN { print("", terminator: "") }
}

/// Times one peer in whole corpus passes; `prepareCorpusPass` stays outside the timing.
struct PassTimer {
    let peer: any MeasuringPeer
    let strings: Int

    /// Passes until at least `budget` ns have been spent measuring (and at least `minimumPasses`);
    /// returns the mean time per string in ns and the passes made.
    func run(budget: UInt64, minimumPasses: Int = 2) -> (perString: Double, passes: Int) {
        var measuring: UInt64 = 0
        var passes = 0
        while measuring < budget || passes < minimumPasses {
            peer.prepareCorpusPass()
            let start = now()
            consume(peer.measureCorpus())
            measuring += now() - start
            passes += 1
        }
        return (Double(measuring) / Double(passes * strings), passes)
    }
}

/// What the rounds measured: per peer, the per-string time of each round (ns).
struct RunResult {
    var names: [String]
    var perString: [[Double]]  // [peer][round]
    var passes: [Int]          // per peer, over all rounds
    var strings: Int
    var seconds: Double
}

/// Rounds in which every peer runs once, each round starting one peer further on (ABCD, BCDA,
/// CDAB, …), so every peer runs as often first as last and after each of the others.
struct InterleavedRun {
    let peers: [any MeasuringPeer]
    let corpus: Corpus
    let rounds: Int
    let minRoundNanoseconds: UInt64

    func run() -> RunResult {
        let start = now()
        // Warm-up, untimed: fonts loaded, code paged in, fitd-cached's caches filled.
        for peer in peers {
            peer.prepareCorpusPass()
            consume(peer.measureCorpus())
        }
        var perString = Array(repeating: [Double](), count: peers.count)
        var passes = Array(repeating: 0, count: peers.count)
        for round in 0..<rounds {
            for step in 0..<peers.count {
                let index = (round + step) % peers.count
                let timed = PassTimer(peer: peers[index], strings: corpus.count).run(budget: minRoundNanoseconds)
                perString[index].append(timed.perString)
                passes[index] += timed.passes
            }
        }
        return RunResult(
            names: peers.map(\.name), perString: perString, passes: passes, strings: corpus.count,
            seconds: Double(now() - start) / 1e9)
    }
}

/// One peer alone, for a profiler: one warm-up pass, then `passes` timed ones. The timed ones
/// run in `timedPasses`, a function of their own, so that
/// `valgrind --tool=callgrind --toggle-collect='*SinglePeerRun*timedPasses*'` counts only them
/// (not the start-up, the font loading or the warm-up).
struct SinglePeerRun {
    let peer: any MeasuringPeer
    let corpus: Corpus
    let passes: Int

    func run() -> Double {
        peer.prepareCorpusPass()
        consume(peer.measureCorpus())
        return Double(timedPasses()) / Double(passes * corpus.count)
    }

    @inline(never)
    func timedPasses() -> UInt64 {
        var measuring: UInt64 = 0
        for _ in 0..<passes {
            peer.prepareCorpusPass()
            let start = now()
            consume(peer.measureCorpus())
            measuring += now() - start
        }
        return measuring
    }
}
