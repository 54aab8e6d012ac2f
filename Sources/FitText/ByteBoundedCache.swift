import Synchronization

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

/// A least-recently-used cache bounded by the bytes its entries hold (each entry states its
/// size), safe to share between threads. Lookups and inserts are O(1): a dictionary from key
/// to slot, and a doubly linked recency list threaded through an array of slots.
public final class ByteBoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Slot {
        /// nil once evicted: a free slot keeps nothing alive (a key may hold a 1 MiB text, a
        /// value a font's HarfBuzz objects) until it is reused.
        var key: Key?
        var value: Value?
        var bytes: Int
        var newer: Int  // towards most recent; -1 = none
        var older: Int  // towards least recent; -1 = none
    }

    private struct Storage {
        var index: [Key: Int] = [:]
        var slots: [Slot] = []
        var free: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0
        var hits: UInt64 = 0
        var misses: UInt64 = 0
        var evictions: UInt64 = 0
    }

    public let name: String
    public let byteLimit: Int
    private let storage: Mutex<Storage> = Mutex(Storage())

    /// What each entry costs the cache's own tables, added to what its inserter states: its
    /// slot (key, value, links) and its place in the index — a Swift dictionary is at most
    /// 3/4 full and doubles when it grows, so about two buckets of key and slot number per
    /// entry. Without it a cache of small entries undercounted by half (FontCacheTests).
    public let entryOverhead: Int

    public static var tableBytesPerEntry: Int {
        MemoryLayout<Slot>.stride + 2 * (MemoryLayout<Key>.stride + MemoryLayout<Int>.stride)
    }

    public init(name: String, byteLimit: Int, entryOverhead: Int = ByteBoundedCache.tableBytesPerEntry) {
        self.name = name
        self.byteLimit = max(0, byteLimit)
        self.entryOverhead = max(0, entryOverhead)
    }

    /// The value for `key`, counted as a hit or a miss.
    public func value(for key: Key) -> Value? { lookup(key, countingMiss: true) }

    /// The value for `key` if present; a miss is not counted, for a caller that will look
    /// again the ordinary way (the daemon's fast path, then its measurement).
    public func peek(_ key: Key) -> Value? { lookup(key, countingMiss: false) }

    private func lookup(_ key: Key, countingMiss: Bool) -> Value? {
        storage.withLock { s in
            guard let slot = s.index[key] else {
                if countingMiss { s.misses += 1 }
                return nil
            }
            s.hits += 1
            Self.moveToFront(slot, in: &s)
            return s.slots[slot].value
        }
    }

    /// Stores `value`; an entry larger than the whole budget is not stored.
    public func insert(_ value: Value, for key: Key, bytes: Int) {
        let cost = max(1, bytes) + entryOverhead
        guard cost <= byteLimit else { return }
        storage.withLock { s in
            // One hash lookup for "is it there?" and "put it there" (the in-place subscript).
            let position = s.free.last ?? s.slots.count
            var existing = -1
            Self.upsert(&s.index[key, default: -1], new: position, existing: &existing)
            if existing >= 0 {
                s.bytes += cost - s.slots[existing].bytes
                s.slots[existing].value = value
                s.slots[existing].bytes = cost
                Self.moveToFront(existing, in: &s)
            } else {
                // The slot is built where it is stored: a slot built first and then stored is
                // copied once more (every reference in the key and the value retained and
                // released again; a result's key and value hold about ten).
                if position < s.slots.count {
                    s.free.removeLast()
                    s.slots[position] = Slot(key: key, value: value, bytes: cost, newer: -1, older: -1)
                } else {
                    s.slots.append(Slot(key: key, value: value, bytes: cost, newer: -1, older: -1))
                }
                s.bytes += cost
                Self.linkAtFront(position, in: &s)
            }
            while s.bytes > byteLimit, s.oldest >= 0 {
                let victim = s.oldest
                Self.unlink(victim, in: &s)
                if let key = s.slots[victim].key { s.index[key] = nil }
                s.slots[victim].key = nil
                s.slots[victim].value = nil
                s.bytes -= s.slots[victim].bytes
                s.free.append(victim)
                s.evictions += 1
            }
        }
    }

    /// Empties the cache. By default its tables keep their capacity: a cache that filled once
    /// will fill again, and growing the tables anew cost more than the entries' own inserts.
    /// An idle daemon gives the capacity back too (`keepingCapacity: false`).
    public func removeAll(keepingCapacity: Bool = true) {
        storage.withLock { s in
            s.index.removeAll(keepingCapacity: keepingCapacity)
            s.slots.removeAll(keepingCapacity: keepingCapacity)
            s.free.removeAll(keepingCapacity: keepingCapacity)
            s.newest = -1
            s.oldest = -1
            s.bytes = 0
        }
    }

    /// Every entry, most recently used first (what a save keeps when it cannot keep all).
    public func entries() -> [(key: Key, value: Value)] {
        storage.withLock { s in
            var out: [(key: Key, value: Value)] = []
            out.reserveCapacity(s.index.count)
            var slot = s.newest
            while slot >= 0 {
                if let key = s.slots[slot].key, let value = s.slots[slot].value { out.append((key, value)) }
                slot = s.slots[slot].older
            }
            return out
        }
    }

    private static func upsert(_ slot: inout Int, new: Int, existing: inout Int) {
        if slot >= 0 { existing = slot } else { slot = new }
    }

    public var statistics: CacheStatistics {
        storage.withLock { s in
            CacheStatistics(
                name: name, entries: s.index.count, bytes: s.bytes, byteLimit: byteLimit,
                hits: s.hits, misses: s.misses, evictions: s.evictions)
        }
    }

    private static func unlink(_ slot: Int, in s: inout Storage) {
        let newer = s.slots[slot].newer
        let older = s.slots[slot].older
        if newer >= 0 { s.slots[newer].older = older } else { s.newest = older }
        if older >= 0 { s.slots[older].newer = newer } else { s.oldest = newer }
        s.slots[slot].newer = -1
        s.slots[slot].older = -1
    }

    private static func linkAtFront(_ slot: Int, in s: inout Storage) {
        s.slots[slot].older = s.newest
        s.slots[slot].newer = -1
        if s.newest >= 0 { s.slots[s.newest].newer = slot }
        s.newest = slot
        if s.oldest < 0 { s.oldest = slot }
    }

    private static func moveToFront(_ slot: Int, in s: inout Storage) {
        guard s.newest != slot else { return }
        unlink(slot, in: &s)
        linkAtFront(slot, in: &s)
    }
}
