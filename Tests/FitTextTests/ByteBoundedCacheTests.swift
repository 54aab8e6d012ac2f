import Synchronization
import Testing

@testable import FitText

@Suite struct ByteBoundedCacheTests {
    private func cache(limit: Int = 100) -> ByteBoundedCache<String, Int> {
        ByteBoundedCache(name: "test", byteLimit: limit, entryOverhead: 0)
    }

    @Test func evictsTheLeastRecentlyUsedEntryWhenOverTheByteLimit() {
        let c = cache()
        c.insert(1, for: "a", bytes: 40)
        c.insert(2, for: "b", bytes: 40)
        c.insert(3, for: "c", bytes: 40)  // 120 > 100: "a", the oldest, goes
        #expect(c.value(for: "a") == nil)
        #expect(c.value(for: "b") == 2)
        #expect(c.value(for: "c") == 3)
        #expect(c.statistics.bytes == 80)
        #expect(c.statistics.entries == 2)
    }

    /// Counts its instances, so a test sees when the cache lets go of one.
    final class Tracked: Sendable {
        static let alive = Mutex(0)
        init() { Self.alive.withLock { $0 += 1 } }
        deinit { Self.alive.withLock { $0 -= 1 } }
    }

    @Test func anEvictedValueIsReleasedAtOnceNotWhenItsSlotIsReused() {
        let c = ByteBoundedCache<String, Tracked>(name: "tracked", byteLimit: 100, entryOverhead: 0)
        let before = Tracked.alive.withLock { $0 }
        c.insert(Tracked(), for: "a", bytes: 60)
        c.insert(Tracked(), for: "b", bytes: 60)  // "a" is evicted; its slot stays free
        #expect(Tracked.alive.withLock { $0 } == before + 1)
        c.removeAll(keepingCapacity: false)
        #expect(Tracked.alive.withLock { $0 } == before)
        #expect(c.statistics.entries == 0 && c.statistics.bytes == 0)
    }

    @Test func aLookupMakesAnEntryRecent() {
        let c = cache()
        c.insert(1, for: "a", bytes: 40)
        c.insert(2, for: "b", bytes: 40)
        #expect(c.value(for: "a") == 1)  // now "b" is the oldest
        c.insert(3, for: "c", bytes: 40)
        #expect(c.value(for: "b") == nil)
        #expect(c.value(for: "a") == 1)
        #expect(c.value(for: "c") == 3)
    }

    @Test func evictsAsManyOldEntriesAsTheNewOneNeeds() {
        let c = cache()
        for (i, key) in ["a", "b", "c", "d", "e"].enumerated() { c.insert(i, for: key, bytes: 20) }
        c.insert(9, for: "big", bytes: 70)  // 170 bytes: a, b, c, d must go (100 → 30 + 70)
        #expect(["a", "b", "c", "d"].map { c.value(for: $0) } == [nil, nil, nil, nil])
        #expect(c.value(for: "e") == 4)
        #expect(c.value(for: "big") == 9)
        #expect(c.statistics.evictions == 4)
        #expect(c.statistics.bytes == 90)
    }

    @Test func countsHitsMissesAndEvictions() {
        let c = cache()
        #expect(c.value(for: "x") == nil)  // miss 1
        c.insert(1, for: "a", bytes: 60)
        #expect(c.value(for: "a") == 1)  // hit 1
        #expect(c.value(for: "a") == 1)  // hit 2
        c.insert(2, for: "b", bytes: 60)  // eviction 1 ("a")
        #expect(c.value(for: "a") == nil)  // miss 2
        let s = c.statistics
        #expect(s.name == "test")
        #expect(s.byteLimit == 100)
        #expect(s.hits == 2)
        #expect(s.misses == 2)
        #expect(s.evictions == 1)
        #expect(s.entries == 1)
        #expect(s.bytes == 60)
    }

    @Test func anEntryLargerThanTheWholeBudgetIsNotStored() {
        let c = cache()
        c.insert(1, for: "a", bytes: 30)
        c.insert(2, for: "huge", bytes: 101)
        #expect(c.value(for: "huge") == nil)
        #expect(c.value(for: "a") == 1)  // nothing was evicted to make room
        #expect(c.statistics.evictions == 0)
        #expect(c.statistics.entries == 1)
        #expect(c.statistics.bytes == 30)
        // Exactly the budget fits (and pushes everything else out).
        c.insert(3, for: "full", bytes: 100)
        #expect(c.value(for: "full") == 3)
        #expect(c.statistics.entries == 1)
    }

    @Test func reinsertingAKeyReplacesItsValueAndSize() {
        let c = cache()
        c.insert(1, for: "a", bytes: 30)
        c.insert(2, for: "b", bytes: 30)
        c.insert(10, for: "a", bytes: 50)  // also makes "a" the most recent
        #expect(c.statistics.entries == 2)
        #expect(c.statistics.bytes == 80)
        c.insert(3, for: "c", bytes: 30)  // 110: "b" is the oldest now
        #expect(c.value(for: "b") == nil)
        #expect(c.value(for: "a") == 10)
    }

    @Test func anEntryCostsAtLeastOneByte() {
        let c = cache(limit: 2)
        c.insert(1, for: "a", bytes: 0)
        c.insert(2, for: "b", bytes: -5)
        c.insert(3, for: "c", bytes: 0)
        #expect(c.statistics.bytes == 2)
        #expect(c.statistics.entries == 2)
        #expect(c.value(for: "a") == nil)
    }

    @Test func aZeroBudgetStoresNothing() {
        let c = cache(limit: 0)
        c.insert(1, for: "a", bytes: 1)
        #expect(c.value(for: "a") == nil)
        #expect(ByteBoundedCache<String, Int>(name: "n", byteLimit: -10).byteLimit == 0)
    }

    @Test func removeAllEmptiesTheCacheButKeepsTheCounters() {
        let c = cache()
        c.insert(1, for: "a", bytes: 60)
        _ = c.value(for: "a")
        _ = c.value(for: "zz")
        c.insert(2, for: "b", bytes: 60)
        c.removeAll()
        var s = c.statistics
        #expect(s.entries == 0)
        #expect(s.bytes == 0)
        #expect(s.hits == 1)
        #expect(s.misses == 1)
        #expect(s.evictions == 1)
        #expect(c.value(for: "b") == nil)
        // Still usable afterwards, with the full budget.
        c.insert(3, for: "c", bytes: 100)
        #expect(c.value(for: "c") == 3)
        s = c.statistics
        #expect(s.hits == 2)
        #expect(s.misses == 2)
    }

    @Test func slotsFreedByEvictionAreReusedInRecencyOrder() {
        let c = cache()
        for round in 0..<50 {
            c.insert(round, for: "k\(round)", bytes: 25)
        }
        // Only the four most recent survive, however often slots were recycled.
        #expect(c.statistics.entries == 4)
        #expect((0..<46).allSatisfy { c.value(for: "k\($0)") == nil })
        #expect((46..<50).map { c.value(for: "k\($0)") } == [46, 47, 48, 49])
        #expect(c.statistics.evictions == 46)
    }

    @Test func concurrentUseKeepsTheBudgetAndTheCounts() async {
        let c = ByteBoundedCache<Int, Int>(name: "shared", byteLimit: 1000, entryOverhead: 0)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for i in 0..<500 {
                        let key = (task * 31 + i) % 200
                        if c.value(for: key) == nil { c.insert(key * 2, for: key, bytes: 10) }
                    }
                }
            }
        }
        let s = c.statistics
        #expect(s.hits + s.misses == 4000)
        #expect(s.bytes <= 1000)
        #expect(s.bytes == s.entries * 10)
        for key in 0..<200 {
            if let value = c.value(for: key) { #expect(value == key * 2) }
        }
    }

    @Test func aLargeCacheIsShardedAndStillKeepsItsBudgetAndCounts() async {
        let unit = ByteBoundedCache<Int, Int>.shardBytes
        #expect(ByteBoundedCache<Int, Int>(name: "small", byteLimit: 2 * unit - 1).shardCount == 1)
        #expect(ByteBoundedCache<Int, Int>(name: "two", byteLimit: 2 * unit).shardCount == 2)
        #expect(ByteBoundedCache<Int, Int>(name: "big", byteLimit: 1 << 40).shardCount == ByteBoundedCache<Int, Int>.maxShards)
        #expect(ByteBoundedCache<Int, Int>(name: "one", byteLimit: 1 << 40, maxShards: 1).shardCount == 1)

        let c = ByteBoundedCache<Int, Int>(name: "sharded", byteLimit: 8 * unit, entryOverhead: 0)
        #expect(c.shardCount == 8)
        // 4,000 entries of 64 KiB = 250 MiB through a 32 MiB cache, from 4 tasks at once.
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for i in 0..<1_000 {
                        let key = task * 1_000 + i
                        if c.value(for: key) == nil { c.insert(key + 1, for: key, bytes: 64 << 10) }
                    }
                }
            }
        }
        let s = c.statistics
        #expect(s.hits + s.misses == 4_000)
        #expect(s.bytes <= 8 * unit && s.bytes == s.entries * (64 << 10))
        #expect(s.entries + Int(s.evictions) == 4_000)
        // 512 entries fit, and nearly that many stay.
        #expect(s.entries > 400)
        for key in 0..<4_000 {
            if let value = c.value(for: key) { #expect(value == key + 1) }
        }
        // The budget is the whole cache's: an entry of 3/4 of it, far over one shard's eighth,
        // is kept, and the other shards give their entries for it.
        c.insert(0, for: -1, bytes: 6 * unit)
        #expect(c.peek(-1) == 0)
        #expect(c.statistics.bytes <= 8 * unit && c.statistics.bytes >= 6 * unit)
        c.removeAll()
        #expect(c.statistics.entries == 0 && c.statistics.bytes == 0)
    }

    @Test func aShardedCacheListsEveryEntryNewestFirstFromEachShard() {
        let c = ByteBoundedCache<Int, Int>(name: "sharded", byteLimit: 8 * ByteBoundedCache<Int, Int>.shardBytes, entryOverhead: 0)
        #expect(c.shardCount == 8)
        for key in 0..<1_000 { c.insert(key, for: key, bytes: 10) }
        _ = c.value(for: 3)  // now the newest of its shard
        let listed = c.entries()
        #expect(listed.count == 1_000 && Set(listed.map(\.key)).count == 1_000)
        #expect(listed.allSatisfy { $0.key == $0.value })
        // The first eight are each shard's newest: 3 among them, and 0, the oldest, not.
        #expect(listed.prefix(8).contains { $0.key == 3 })
        #expect(!listed.prefix(8).contains { $0.key == 0 })
    }

    @Test func peekFindsWhatIsStoredAndCountsNoMiss() {
        let c = cache()
        c.insert(1, for: "a", bytes: 10)
        #expect(c.peek("a") == 1)
        #expect(c.peek("b") == nil)
        #expect(c.statistics.hits == 1)
        #expect(c.statistics.misses == 0)
    }
}

@Suite struct ByteBoundedCacheOverheadTests {
    /// The tables' share is counted: a cache of many tiny entries reports more than their
    /// stated bytes, and its limit bounds the total.
    @Test func eachEntryCountsItsTableShare() {
        let c = ByteBoundedCache<Int, Int>(name: "tiny", byteLimit: 10_000)
        #expect(c.entryOverhead == ByteBoundedCache<Int, Int>.tableBytesPerEntry)
        #expect(c.entryOverhead >= 40)
        for i in 0..<1000 { c.insert(i, for: i, bytes: 1) }
        let s = c.statistics
        #expect(s.bytes == s.entries * (1 + c.entryOverhead))
        #expect(s.bytes <= 10_000)
        #expect(s.entries < 1000)
    }
}
