import FitText

/// fitd's text engine, in process. Uncached: the shaping and result caches are dropped before
/// every pass (fonts stay loaded, as Pango's do); cached: they stay warm.
public final class FitdPeer: MeasuringPeer {
    public let name: String
    let engine: TextEngine
    let requests: [MeasureRequest]
    let cached: Bool
    /// Requests the engine rejected in the last pass (none expected on this corpus).
    public private(set) var failures = 0

    public init(corpus: Corpus, cached: Bool) throws(BenchError) {
        self.cached = cached
        name = cached ? PeerName.fitdCached.rawValue : PeerName.fitdUncached.rawValue
        var configuration = TextEngine.Configuration()
        configuration.language = "en-us"  // the oracle's and the Pango peer's context language
        do { engine = try TextEngine(configuration: configuration) } catch {
            throw .peer(name, reason: "TextEngine(configuration:) failed: \(error)")
        }
        requests = corpus.entries.map { MeasureRequest(text: $0.text, font: $0.font) }
    }

    public func prepareCorpusPass() {
        if !cached { engine.removeCachedMeasurements() }
    }

    public func measureCorpus() -> Double {
        var sum = 0.0
        var failures = 0
        for request in requests {
            do { sum += try engine.measure(request).width } catch { failures += 1 }
        }
        self.failures = failures
        return sum
    }

    public func widths() -> [Double]? {
        requests.map { (try? engine.measure($0).width) ?? .nan }
    }
}
