/// Hit, miss and size figures of one cache, as `fitctl status` and the daemon's GetStats
/// report them.
public struct CacheStatistics: Sendable, Equatable, Codable {
    public var name: String
    public var entries: Int
    public var bytes: Int
    public var byteLimit: Int
    public var hits: UInt64
    public var misses: UInt64
    public var evictions: UInt64

    public init(name: String, entries: Int, bytes: Int, byteLimit: Int, hits: UInt64, misses: UInt64, evictions: UInt64) {
        self.name = name
        self.entries = entries
        self.bytes = bytes
        self.byteLimit = byteLimit
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
    }
}
