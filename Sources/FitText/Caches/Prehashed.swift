/// A key with its hash computed once: a measurement looks the result cache up and, on a
/// miss, inserts — each a dictionary operation that would otherwise hash the whole text again.
public struct Prehashed<Key: Hashable & Sendable>: Hashable, Sendable {
    public let key: Key
    private let hash: Int

    public init(_ key: Key) {
        self.key = key
        self.hash = key.hashValue
    }

    /// The hash computed once, for a cache's shard choice (ByteBoundedCache).
    public var storedHash: Int { hash }

    public static func == (a: Prehashed, b: Prehashed) -> Bool { a.hash == b.hash && a.key == b.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
