import FitScale
import FitText
import FitThreads

/// The daemon's limits, from the [limits] section of $XDG_CONFIG_HOME/fitd/fitd.conf, or
/// the defaults. They can lower the engine's own bounds (TextLimits), never raise them.
///
///     [limits]
///     max_text_bytes = 262144
///     max_batch = 10000
///     cache_bytes = 100663296
///     idle_release_seconds = 60
///     workers = 2
///     persist_results = true
public struct ServiceLimits: Sendable, Equatable {
    public var maxTextBytes = TextLimits.maxTextBytes
    public var maxBatchRequests = 10_000
    /// Budget of every cache of the daemon together, split as ``CacheBudget`` says. 96 MiB:
    /// with RSS ≤ 1.3 × the caches' bytes + about 26 MB idle, the daemon stays
    /// under 256 MB whatever it is asked (Tests/EndToEnd/memory.sh measures it).
    public var cacheBytes = 96 << 20
    /// After this many seconds without a request the daemon empties its caches and gives the
    /// memory back (idle RSS returns within 1.5 × of its start after a load); 0 never.
    /// A minute: an app that is being used asks far more often, and refilling what it asks
    /// next costs milliseconds.
    public var idleReleaseSeconds = 60
    /// How many cores one MeasureBatch, or the texts of one Layout, may use at once: the cores
    /// this process may run on, unless fitd.conf asks for fewer (1: every call on one core).
    public var workers = ParallelChunks.availableCores
    /// Whether measured results are saved under $XDG_CACHE_HOME/fitd when the daemon stops or
    /// goes idle, for the next start to answer them at once (docs/caching.md, "A warm start").
    public var persistResults = true

    /// The budget of each cache, shares of ``cacheBytes``: of every 96 parts, 76 go to the
    /// text engine (results 26, shaped runs 26, paragraphs 6.5, fonts 13, styles 3.3,
    /// descriptions and features 0.8: TextEngine.Configuration.divide), 4 to Measure replies,
    /// 8 to laid-out documents and 8 to Layout replies.
    public struct CacheBudget: Sendable {
        public var engine: TextEngine.Configuration
        public var measureReplies: Int
        public var layouts: Int
        public var layoutReplies: Int
    }

    public var cacheBudget: CacheBudget {
        func share(_ parts: Int) -> Int { Int(Int64(cacheBytes) * Int64(parts) / 96) }
        var engine = TextEngine.Configuration()
        engine.divide(total: share(76))
        return CacheBudget(engine: engine, measureReplies: share(4), layouts: share(8), layoutReplies: share(8))
    }

    public init() {}

    public static let maxCacheBytes = 4 << 30

    /// Reads the [limits] section; a bad value is an error naming the key and the range, and
    /// the caller keeps the defaults (the daemon logs it and serves on).
    public init(config: ConfigFile) throws(ServiceConfigError) {
        self.init()
        maxTextBytes = try Self.integer(config, "max_text_bytes", in: 1...TextLimits.maxTextBytes) ?? maxTextBytes
        maxBatchRequests = try Self.integer(config, "max_batch", in: 1...1_000_000) ?? maxBatchRequests
        cacheBytes = try Self.integer(config, "cache_bytes", in: 0...Self.maxCacheBytes) ?? cacheBytes
        idleReleaseSeconds = try Self.integer(config, "idle_release_seconds", in: 0...86_400) ?? idleReleaseSeconds
        workers = try Self.integer(config, "workers", in: 1...256) ?? workers
        persistResults = try Self.boolean(config, "persist_results") ?? persistResults
        let known: Set<String> = ["max_text_bytes", "max_batch", "cache_bytes", "idle_release_seconds", "workers", "persist_results"]
        for section in config.sections where section.name == "limits" {
            if let unknown = section.entries.first(where: { !known.contains($0.key) }) {
                throw ServiceConfigError(message: "[limits] \(unknown.key) is not a known setting; known: \(known.sorted().joined(separator: ", "))")
            }
        }
    }

    private static func boolean(_ config: ConfigFile, _ key: String) throws(ServiceConfigError) -> Bool? {
        guard let text = config.value(section: "limits", key: key) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ServiceConfigError(message: "[limits] \(key) = \(text) must be true or false")
        }
    }

    private static func integer(_ config: ConfigFile, _ key: String, in range: ClosedRange<Int>) throws(ServiceConfigError) -> Int? {
        guard let text = config.value(section: "limits", key: key) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ServiceConfigError(message: "[limits] \(key) = \(text) must be a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}

public struct ServiceConfigError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
