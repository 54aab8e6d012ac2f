extension TextEngine {
    /// Measures every request in turn; a bad one gets its own error and the others still run
    /// (the in-process form of MeasureBatch, without the daemon's fan-out over cores).
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
