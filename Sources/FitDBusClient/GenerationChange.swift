/// One GenerationChanged signal: the new generation and why (fonts, fontconfig, text-scale,
/// config, desktop).
public struct GenerationChange: Sendable, Hashable {
    public var generation: UInt64
    public var reasons: [String]

    public init(generation: UInt64, reasons: [String]) {
        self.generation = generation
        self.reasons = reasons
    }
}
