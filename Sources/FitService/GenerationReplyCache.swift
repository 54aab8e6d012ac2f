import FitBus
import FitText
import Synchronization

/// The service's generation: bumped when fonts, their configuration or the text scale
/// change, which makes every cached answer stale.
public final class GenerationCounter: Sendable {
    private let value = Atomic<UInt64>(1)
    public var current: UInt64 { value.load(ordering: .relaxed) }
    func bump() -> UInt64 { value.add(1, ordering: .relaxed).newValue }
}

/// Requests served, counted wherever they are answered (GetStats, requests_served).
public final class RequestCounter: Sendable {
    private let value = Atomic<UInt64>(0)
    public var current: UInt64 { value.load(ordering: .relaxed) }
    func add(_ count: UInt64) { value.add(count, ordering: .relaxed) }
}

/// Replies kept by the exact bytes of their calls (FitBus's DBusReplyCache), per generation:
/// an entry kept under one generation is never found under another, even when it was
/// computed while the generation moved. Bounded by bytes like the engine's caches.
public final class GenerationReplyCache: DBusReplyCache {
    struct Key: Hashable, Sendable {
        var generation: UInt64
        var request: DBusRequestKey
    }

    private let cache: ByteBoundedCache<Key, DBusCachedReply>
    private let generations: GenerationCounter
    /// A kept reply serves a request like any other.
    private let served: RequestCounter
    /// The generation entries were last kept under; on a change the store is emptied, so
    /// stale replies do not wait for eviction to give their memory back.
    private let keptGeneration = Atomic<UInt64>(0)

    init(name: String, byteLimit: Int, generations: GenerationCounter, served: RequestCounter) {
        self.cache = ByteBoundedCache(name: name, byteLimit: byteLimit)
        self.generations = generations
        self.served = served
    }

    public var statistics: CacheStatistics { cache.statistics }
    public var epoch: UInt64 { generations.current }

    public func reply(for key: DBusRequestKey, epoch: UInt64) -> DBusCachedReply? {
        emptyIfStale(epoch)
        guard let kept = cache.value(for: Key(generation: epoch, request: key)) else { return nil }
        served.add(1)
        return kept
    }

    public func keep(_ reply: DBusCachedReply, for key: DBusRequestKey, epoch: UInt64) {
        guard epoch == generations.current else { return }
        emptyIfStale(epoch)
        // The key's bytes, the reply's, and the two objects around them.
        cache.insert(reply, for: Key(generation: epoch, request: key), bytes: key.size + reply.size + 128)
    }

    /// Empties the store the first time a newer generation is seen (a late call of an older
    /// one does not count).
    private func emptyIfStale(_ epoch: UInt64) {
        var seen = keptGeneration.load(ordering: .relaxed)
        while seen < epoch {
            let (exchanged, original) = keptGeneration.compareExchange(expected: seen, desired: epoch, ordering: .relaxed)
            if exchanged {
                cache.removeAll()
                return
            }
            seen = original
        }
    }
}
