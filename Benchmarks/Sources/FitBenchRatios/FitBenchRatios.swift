import ArgumentParser
import FitBenchPeers

/// Times fitd against Pango and the HarfBuzz floor on the plain corpus, in one process, in
/// interleaved rounds, and prints per-string times and ratios (Benchmarks/README.md).
@main
struct FitBenchRatios: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Per-string measuring time of fitd, Pango and raw HarfBuzz, as ratios.",
        discussion: """
            Every round times each peer for at least --min-round-ms, the order rotating from \
            round to round so that no peer always follows the same one; the table gives the \
            median over rounds. Ratios are medians of per-round ratios, so a slow moment of \
            the machine, which slows every peer of a round alike, cancels out.
            """)

    @Option(help: "Interleaved rounds; the table shows medians over them.")
    var rounds = 15

    @Option(help: "Least time each peer runs in each round, in milliseconds (whole passes).")
    var minRoundMs = 150

    @Option(help: "Time only this peer: \(PeerName.allCases.map(\.rawValue).joined(separator: ", ")). For profilers: one warm-up pass, then --passes passes, no table.")
    var only: String?

    @Option(help: "Passes of the --only peer.")
    var passes = 20

    @Flag(help: "Exit 1 when fitd misses a target (cold ≤ 0.25 × Pango, cached < 1 µs).")
    var check = false

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard minRoundMs >= 1 else { throw ValidationError("--min-round-ms must be at least 1") }
        guard passes >= 1 else { throw ValidationError("--passes must be at least 1") }
        if let only, FitBenchRatios.peerName(only) == nil {
            throw ValidationError("--only \(only): not a peer; use one of \(PeerName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// A peer by name; "fitd-uncached", the cold regime's earlier name, still works.
    static func peerName(_ text: String) -> PeerName? {
        text == "fitd-uncached" ? .fitdCold : PeerName(rawValue: text)
    }

    func run() throws {
        let corpus = try Corpus.load()
        if let only, let name = FitBenchRatios.peerName(only) {
            let peer = try makePeers([name], corpus: corpus)[0]
            let perString = SinglePeerRun(peer: peer, corpus: corpus, passes: passes).run()
            print("\(peer.name): \(passes) passes over \(corpus.count) strings, \(formatTime(perString)) per string")
            return
        }
        let peers = try makePeers(corpus: corpus)
        print("fitd benchmark: \(corpus.summary)")
        print("fonts pinned: FONTCONFIG_FILE=\(BenchEnvironment.fontsConfiguration.path)")
        let agreement = WidthAgreement(peers: peers)
        let result = InterleavedRun(peers: peers, corpus: corpus, rounds: rounds, minRoundNanoseconds: UInt64(minRoundMs) * 1_000_000).run()
        let report = RatioReport(result: result, agreement: agreement)
        print(report.text)
        if check && !report.targetsMet { throw ExitCode(1) }
    }
}
