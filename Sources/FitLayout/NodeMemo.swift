/// One layout call's memo of answers (sizes, text measurements, group factors) by node,
/// proposal and scale factor, without hashing: each node answers a handful of distinct
/// proposals (see ``MemoKey``), so a node's entries are chained and compared in place.
/// As Dictionaries keyed by MemoKey, hashing and probing were a fifth of a warm 50-node
/// layout (callgrind: 620 lookups, 360 instructions each).
///
/// A node asked about more proposals than `chainLimit` — no document seen does that, but a
/// document comes from a peer — keeps the rest in a dictionary, so a lookup never scans more
/// than `chainLimit` entries.
struct NodeMemo<Value> {
    private struct Entry {
        var key: MemoKey
        var value: Value
        /// The node's next entry, or -1.
        var next: Int32
    }

    static var chainLimit: Int { 16 }

    /// Per node: its latest entry in `entries`, or -1; and how many it has in the chain.
    private var heads: [Int32]
    private var lengths: [UInt8]
    private var entries: [Entry] = []
    private var overflow: [MemoKey: Value] = [:]

    init(nodes count: Int) {
        heads = Array(filled: -1, count: count)
        lengths = Array(filled: 0, count: count)
    }

    func value(for key: MemoKey) -> Value? {
        let node = Int(key.node)
        // The overflow holds a full node's newest answers; the chain, newest first, the rest.
        if Int(lengths[node]) >= Self.chainLimit, let value = overflow[key] { return value }
        var index = heads[node]
        while index >= 0 {
            let entry = entries[Int(index)]
            if entry.key == key { return entry.value }
            index = entry.next
        }
        return nil
    }

    /// Stores an answer; a later answer for the same key wins, as in a dictionary.
    mutating func set(_ value: Value, for key: MemoKey) {
        let node = Int(key.node)
        guard Int(lengths[node]) < Self.chainLimit else {
            overflow[key] = value
            return
        }
        entries.append(Entry(key: key, value: value, next: heads[node]))
        heads[node] = Int32(entries.count - 1)
        lengths[node] += 1
    }
}
