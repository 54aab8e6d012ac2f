import FitTypes

/// A measurement and the generation it was computed under (compare with
/// ``FitDBusClient/generationChanges()`` to tell a stale result).
public struct TextMeasurement: Sendable, Equatable {
    public var metrics: TextMetrics
    public var generation: UInt64

    public init(metrics: TextMetrics, generation: UInt64) {
        self.metrics = metrics
        self.generation = generation
    }
}
