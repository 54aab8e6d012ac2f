import FitText

/// fitd's text engine, in process, in one of three regimes (Benchmarks/README.md):
/// cold (shaping and result caches dropped before every pass; fonts stay loaded, as Pango's
/// do), warm shaping (results dropped, shaped runs kept, every pass at a new wrap width: what
/// re-wrapping costs), known words (before each pass, all caches dropped and the whole
/// strings measured, untimed; the pass measures every string without its first word: new
/// strings made of words the engine has shaped) and cached
/// (everything warm).
public final class FitdPeer: MeasuringPeer {
    public enum Regime: Sendable {
        case cold, warmShaping, knownWords, cached
    }

    public let name: String
    let engine: TextEngine
    let requests: [MeasureRequest]
    let regime: Regime
    /// Wrap widths the warm-shaping passes take in turn (px): narrow enough that the longer
    /// strings wrap, so line breaking is part of the cost; never the warm-up's (no width).
    static let wrapWidths: [Double] = [120, 160, 200, 240, 280]
    private var pass = 0
    /// Requests the engine rejected in the last pass (none expected on this corpus).
    public private(set) var failures = 0

    public init(corpus: Corpus, regime: Regime) throws(BenchError) {
        self.regime = regime
        switch regime {
        case .cold: name = PeerName.fitdCold.rawValue
        case .warmShaping: name = PeerName.fitdWarmShaping.rawValue
        case .knownWords: name = PeerName.fitdKnownWords.rawValue
        case .cached: name = PeerName.fitdCached.rawValue
        }
        var configuration = TextEngine.Configuration()
        configuration.language = "en-us"  // the oracle's and the Pango peer's context language
        do { engine = try TextEngine(configuration: configuration) } catch {
            throw .peer(name, reason: "TextEngine(configuration:) failed: \(error)")
        }
        requests = corpus.entries.map { MeasureRequest(text: $0.text, font: $0.font) }
        tails = requests.map { request in
            var tail = request
            if let space = request.text.firstIndex(of: " ") {
                let rest = request.text[request.text.index(after: space)...].drop { $0 == " " }
                if !rest.isEmpty { tail.text = String(rest) }
            }
            return tail
        }
    }

    /// The requests without their first word (strings of one word stay whole).
    let tails: [MeasureRequest]

    public func prepareCorpusPass() {
        switch regime {
        case .cold: engine.removeCachedMeasurements()
        case .warmShaping: engine.removeCachedResults()
        case .knownWords:
            // Every pass starts from the whole strings only, so no tail is known as a string.
            engine.removeCachedMeasurements()
            for request in requests { _ = try? engine.measure(request) }
            engine.removeCachedResults()
        case .cached: break
        }
    }

    public func measureCorpus() -> Double {
        var sum = 0.0
        var failures = 0
        // The first pass (the untimed warm-up) measures unwrapped, as the other peers do;
        // each later warm-shaping pass wraps at a width of its own.
        let width: Double? = regime == .warmShaping && pass > 0 ? FitdPeer.wrapWidths[pass % FitdPeer.wrapWidths.count] : nil
        let passRequests = regime == .knownWords ? tails : requests
        pass += 1
        for var request in passRequests {
            request.maxWidth = width
            do { sum += try engine.measure(request).width } catch { failures += 1 }
        }
        self.failures = failures
        return sum
    }

    public func widths() -> [Double]? {
        guard regime == .cold else { return nil }
        return requests.map { (try? engine.measure($0).width) ?? .nan }
    }
}
