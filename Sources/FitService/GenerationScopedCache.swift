import FitText
import Synchronization

/// A byte-bounded cache whose entries belong to the generation they were made under: an
/// entry of one generation is never found under another (even one computed while the
/// generation moved), and the first call under a newer generation empties the cache, so stale
/// entries do not wait for eviction to give their memory back. A late call of an older
/// generation does not empty it again.
final class GenerationScopedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    struct Scoped: Hashable, Sendable {
        var generation: UInt64
        var key: Key
    }

    private let cache: ByteBoundedCache<Scoped, Value>
    /// The newest generation seen.
    private let newest = Atomic<UInt64>(0)

    /// One shard: these caches (replies, laid-out documents) are asked once per call, not per
    /// text, and the reply caches on the bus's loop thread alone; a shard hint would hash a
    /// request's bytes twice on the cached round trip.
    init(name: String, byteLimit: Int) {
        cache = ByteBoundedCache(name: name, byteLimit: byteLimit, maxShards: 1)
    }

    var statistics: CacheStatistics { cache.statistics }

    func value(for key: Key, generation: UInt64) -> Value? {
        emptyIfNewer(generation)
        return cache.value(for: Scoped(generation: generation, key: key))
    }

    func insert(_ value: Value, for key: Key, generation: UInt64, bytes: Int) {
        emptyIfNewer(generation)
        cache.insert(value, for: Scoped(generation: generation, key: key), bytes: bytes)
    }

    /// Empties the cache and gives its tables' memory back (an idle daemon, FitService.releaseIdleMemory).
    func release() { cache.removeAll(keepingCapacity: false) }

    private func emptyIfNewer(_ generation: UInt64) {
        var seen = newest.load(ordering: .relaxed)
        while seen < generation {
            let (exchanged, original) = newest.compareExchange(expected: seen, desired: generation, ordering: .relaxed)
            if exchanged {
                cache.removeAll()
                return
            }
            seen = original
        }
    }
}
