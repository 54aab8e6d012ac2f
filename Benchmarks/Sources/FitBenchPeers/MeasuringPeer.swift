/// One of the engines measured side by side. A pass measures every corpus string once.
public protocol MeasuringPeer: AnyObject {
    /// The name in tables and on the command line ("pango", "fitd-cold", …).
    var name: String { get }
    /// Runs before each timed pass, outside the timing (fitd-cold and fitd-warm-shaping drop caches).
    func prepareCorpusPass()
    /// Measures every string once and returns the sum of the widths in px, so no work can be
    /// optimized away and peers can be checked against one another.
    func measureCorpus() -> Double
    /// The logical width of each string in px, for the agreement check; nil for a peer that
    /// does not measure what Pango does (the HarfBuzz floor: one font, no layout).
    func widths() -> [Double]?
}

public enum PeerName: String, CaseIterable, Sendable {
    case pango
    case fitdCold = "fitd-cold"
    case fitdWarmShaping = "fitd-warm-shaping"
    case fitdKnownWords = "fitd-known-words"
    case fitdCached = "fitd-cached"
    case harfbuzzFloor = "harfbuzz-floor"
}

/// Creates the peers over one corpus. Pins the fonts first: nothing in the process may
/// have touched fontconfig before.
public func makePeers(_ names: [PeerName] = PeerName.allCases, corpus: Corpus) throws(BenchError) -> [any MeasuringPeer] {
    try BenchEnvironment.pinFonts()
    var peers: [any MeasuringPeer] = []
    for name in names {
        switch name {
        case .pango: peers.append(try PangoPeer(corpus: corpus))
        case .fitdCold: peers.append(try FitdPeer(corpus: corpus, regime: .cold))
        case .fitdWarmShaping: peers.append(try FitdPeer(corpus: corpus, regime: .warmShaping))
        case .fitdKnownWords: peers.append(try FitdPeer(corpus: corpus, regime: .knownWords))
        case .fitdCached: peers.append(try FitdPeer(corpus: corpus, regime: .cached))
        case .harfbuzzFloor: peers.append(try HarfBuzzFloorPeer(corpus: corpus))
        }
    }
    return peers
}
