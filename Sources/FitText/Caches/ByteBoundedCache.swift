import Synchronization

/// A least-recently-used cache bounded by the bytes its entries hold (each entry states its
/// size), safe to share between threads. Lookups and inserts are O(1): a dictionary from key
/// to slot, and a doubly linked recency list threaded through an array of slots.
///
/// A large cache is cut into shards by key hash, each with its own lock and recency list, so
/// that a batch spread over every core does not queue on one lock: with one lock, two threads
/// measuring a batch spent a fifth of their time waiting for it (perf:
/// `_MutexHandle._lockSlow` and the kernel's `rt_mutex_slowlock` under
/// ByteBoundedCache.lookup/insert). The byte budget stays the whole cache's, counted in one
/// atomic total: an insert evicts its own shard's oldest entries first, then, while the total
/// is still over, the other shards' in turn (one lock at a time), so an entry as large as the
/// whole budget is still kept (a 1 MiB text's shaped runs). Each insert ends with the total
/// within budget; inserts under way at once can overshoot it by their own entries for that
/// moment. Recency is per shard, an approximation of the whole cache's that a cache of
/// thousands of entries does not notice; a cache under 2 × ``shardBytes`` stays one shard,
/// exact (the tests' small budgets).
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
    /// The shards' locks and tables, allocated once and never moved (a Mutex must stay where
    /// it is); `shardCount` of them, a power of two.
    nonisolated(unsafe) private let shards: UnsafeMutablePointer<Mutex<Storage>>
    private let shardMask: Int
    /// The bytes every shard holds together (each shard's own count is under its lock).
    private let total = Atomic<Int>(0)

    /// A cache is cut in at most `byteLimit / shardBytes` shards (and at most ``maxShards``):
    /// shards of a small cache would evict each other's entries more than they save.
    public static var shardBytes: Int { 4 << 20 }
    /// Enough that two to eight threads rarely meet on one lock.
    public static var maxShards: Int { 8 }

    /// What each entry costs the cache's own tables, added to what its inserter states: its
    /// slot (key, value, links) and its place in the index — a Swift dictionary is at most
    /// 3/4 full and doubles when it grows, so about two buckets of key and slot number per
    /// entry. Without it a cache of small entries undercounted by half (FontCacheTests).
    public let entryOverhead: Int

    public static var tableBytesPerEntry: Int {
        MemoryLayout<Slot>.stride + 2 * (MemoryLayout<Key>.stride + MemoryLayout<Int>.stride)
    }

    /// Where a key goes among the shards; any Int (its low bits pick the shard).
    private let shardHint: @Sendable (Key) -> Int

    /// - Parameters:
    ///   - shardHint: a cheap, well-spread number from a key, for a large cache's shard
    ///     choice; by default its `hashValue` (a second hash of the key: give keys that carry
    ///     one theirs, ``Prehashed/storedHash``).
    ///   - maxShards: at most this many shards (1: one lock and exact recency, for a cache
    ///     one thread uses, where a shard hint would only cost).
    public init(
        name: String, byteLimit: Int, entryOverhead: Int = ByteBoundedCache.tableBytesPerEntry,
        maxShards: Int = ByteBoundedCache.maxShards, shardHint: @escaping @Sendable (Key) -> Int = { $0.hashValue }
    ) {
        self.shardHint = shardHint
        self.name = name
        self.byteLimit = max(0, byteLimit)
        self.entryOverhead = max(0, entryOverhead)
        var count = 1
        while count < min(maxShards, Self.maxShards) && count * 2 * Self.shardBytes <= self.byteLimit { count *= 2 }
        shards = .allocate(capacity: count)
        for index in 0..<count { (shards + index).initialize(to: Mutex(Storage())) }
        shardMask = count - 1
    }

    deinit {
        shards.deinitialize(count: shardMask + 1)
        shards.deallocate()
    }

    /// How many shards the cache has (1 for a small one).
    public var shardCount: Int { shardMask + 1 }

    @inline(__always) private func shard(for key: Key) -> Int {
        shardMask == 0 ? 0 : shardHint(key) & shardMask
    }

    /// The value for `key`, counted as a hit or a miss.
    public func value(for key: Key) -> Value? { lookup(key, countingMiss: true) }

    /// The value for `key` if present; a miss is not counted, for a caller that will look
    /// again the ordinary way (the daemon's fast path, then its measurement).
    public func peek(_ key: Key) -> Value? { lookup(key, countingMiss: false) }

    private func lookup(_ key: Key, countingMiss: Bool) -> Value? {
        shards[shard(for: key)].withLock { s in
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
        let home = shard(for: key)
        let limit = byteLimit
        shards[home].withLock { s in
            // One hash lookup for "is it there?" and "put it there" (the in-place subscript).
            let position = s.free.last ?? s.slots.count
            var existing = -1
            Self.upsert(&s.index[key, default: -1], new: position, existing: &existing)
            if existing >= 0 {
                let change = cost - s.slots[existing].bytes
                s.bytes += change
                self.total.add(change, ordering: .relaxed)
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
                self.total.add(cost, ordering: .relaxed)
                Self.linkAtFront(position, in: &s)
            }
            // Its own oldest first, never the entry just stored.
            evict(from: &s, whileOver: limit, sparing: 1)
        }
        // Still over (this shard had too little to give): the other shards' oldest, in turn.
        var next = home
        while shardMask > 0, total.load(ordering: .relaxed) > limit {
            next = (next + 1) & shardMask
            if next == home { break }
            shards[next].withLock { s in evict(from: &s, whileOver: limit, sparing: 0) }
        }
    }

    /// Evicts `s`'s least recent entries while the cache's total is over `limit`, keeping its
    /// `sparing` most recent.
    private func evict(from s: inout Storage, whileOver limit: Int, sparing: Int) {
        while total.load(ordering: .relaxed) > limit, s.oldest >= 0, s.index.count > sparing {
            let victim = s.oldest
            Self.unlink(victim, in: &s)
            if let key = s.slots[victim].key { s.index[key] = nil }
            s.slots[victim].key = nil
            s.slots[victim].value = nil
            s.bytes -= s.slots[victim].bytes
            total.subtract(s.slots[victim].bytes, ordering: .relaxed)
            s.free.append(victim)
            s.evictions += 1
        }
    }

    /// Empties the cache. By default its tables keep their capacity: a cache that filled once
    /// will fill again, and growing the tables anew cost more than the entries' own inserts.
    /// An idle daemon gives the capacity back too (`keepingCapacity: false`).
    public func removeAll(keepingCapacity: Bool = true) {
        for index in 0...shardMask {
            shards[index].withLock { s in
                total.subtract(s.bytes, ordering: .relaxed)
                s.index.removeAll(keepingCapacity: keepingCapacity)
                s.slots.removeAll(keepingCapacity: keepingCapacity)
                s.free.removeAll(keepingCapacity: keepingCapacity)
                s.newest = -1
                s.oldest = -1
                s.bytes = 0
            }
        }
    }

    /// Every entry, most recently used first (what a save keeps when it cannot keep all). A
    /// sharded cache keeps recency per shard: its shards' lists are interleaved, newest first
    /// from each in turn, an approximation of the whole cache's order.
    public func entries() -> [(key: Key, value: Value)] {
        var perShard: [[(key: Key, value: Value)]] = []
        for index in 0...shardMask {
            perShard.append(shards[index].withLock { s in
                var out: [(key: Key, value: Value)] = []
                out.reserveCapacity(s.index.count)
                var slot = s.newest
                while slot >= 0 {
                    if let key = s.slots[slot].key, let value = s.slots[slot].value { out.append((key, value)) }
                    slot = s.slots[slot].older
                }
                return out
            })
        }
        if perShard.count == 1 { return perShard[0] }
        let count = perShard.reduce(0) { $0 + $1.count }
        var out: [(key: Key, value: Value)] = []
        out.reserveCapacity(count)
        var position = 0
        while out.count < count {
            for list in perShard where position < list.count { out.append(list[position]) }
            position += 1
        }
        return out
    }

    private static func upsert(_ slot: inout Int, new: Int, existing: inout Int) {
        if slot >= 0 { existing = slot } else { slot = new }
    }

    public var statistics: CacheStatistics {
        var total = CacheStatistics(name: name, entries: 0, bytes: 0, byteLimit: byteLimit, hits: 0, misses: 0, evictions: 0)
        for index in 0...shardMask {
            shards[index].withLock { s in
                total.entries += s.index.count
                total.bytes += s.bytes
                total.hits += s.hits
                total.misses += s.misses
                total.evictions += s.evictions
            }
        }
        return total
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
