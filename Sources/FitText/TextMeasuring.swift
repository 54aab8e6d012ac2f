/// What every part of fitd measures text through: the daemon's handlers, the embedded
/// (in-process) client, the layout engine. ``TextEngine`` is the implementation.
public protocol TextMeasuring: Sendable {
    func measure(_ request: MeasureRequest) throws(FitTextError) -> TextMetrics
    func resolveFont(_ description: String, textScale: Double) throws(FitTextError) -> ResolvedFont
    var cacheStatistics: [CacheStatistics] { get }
    /// Drops every cached font, shaping and result (fonts or configuration changed).
    func invalidateCaches()
}

extension TextMeasuring {
    /// Measures every request; a bad one gets its own error and the others still run.
    public func measureBatch(_ requests: [MeasureRequest]) -> [Result<TextMetrics, FitTextError>] {
        requests.map { request in
            do throws(FitTextError) {
                return .success(try measure(request))
            } catch {
                return .failure(error)
            }
        }
    }
}
