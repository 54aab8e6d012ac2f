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

/// Replies kept by the exact bytes of their calls (FitBus's DBusReplyCache), per generation
/// (GenerationScopedCache). Bounded by bytes like the engine's caches.
public final class GenerationReplyCache: DBusReplyCache {
    private let cache: GenerationScopedCache<DBusRequestKey, DBusCachedReply>
    private let generations: GenerationCounter
    /// A kept reply serves a request like any other.
    private let served: RequestCounter

    init(name: String, byteLimit: Int, generations: GenerationCounter, served: RequestCounter) {
        self.cache = GenerationScopedCache(name: name, byteLimit: byteLimit)
        self.generations = generations
        self.served = served
    }

    public var statistics: CacheStatistics { cache.statistics }

    /// Drops every kept reply and the tables' memory.
    func release() { cache.release() }
    public var epoch: UInt64 { generations.current }

    public func reply(for key: DBusRequestKey, epoch: UInt64) -> DBusCachedReply? {
        guard let kept = cache.value(for: key, generation: epoch) else { return nil }
        served.add(1)
        return kept
    }

    public func keep(_ reply: DBusCachedReply, for key: DBusRequestKey, epoch: UInt64) {
        guard epoch == generations.current else { return }
        // The key's bytes, the reply's, and what surrounds them: libdbus's struct DBusMessage
        // (its header's cached fields, two DBusStrings, counters: about 200 bytes,
        // dbus-message-private.h), its two buffers' malloc headers (dbus_message_copy
        // preallocates each to its length), the Swift objects and the key's array header.
        cache.insert(reply, for: key, generation: epoch, bytes: key.size + reply.size + 384)
    }
}
