extension DBusValue {
    /// The heap memory a value holds beyond its own `MemoryLayout<DBusValue>.stride`: the storage
    /// of its strings and arrays and of what they hold, for byte-bounded caches of decoded or
    /// encoded values. A model of Swift's layouts on 64-bit Linux, not a measurement: a native
    /// string longer than 15 UTF-8 bytes and every non-empty array are a heap object of a
    /// 32-byte header and their elements, and glibc's malloc adds 8 bytes and rounds to 16
    /// (malloc(3)); an indirect case is a boxed payload. Storage shared by copies is counted
    /// once per copy, so this is an upper bound on what the value adds. Checked against
    /// mallinfo2 by FitServiceTests' LayoutCacheCostTests.
    public var heapBytes: Int {
        switch self {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return 0
        case .string(let text), .objectPath(let text), .signature(let text):
            return Self.heapBytes(text)
        case .array(let elementSignature, let values):
            return Self.heapBytes(elementSignature) + Self.heapBytes(values)
        case .structure(let values):
            return Self.heapBytes(values)
        case .dictionary(let keySignature, let valueSignature, let entries):
            guard !entries.isEmpty else { return Self.heapBytes(keySignature) + Self.heapBytes(valueSignature) }
            let storage = Self.mallocBytes(32 + entries.count * 2 * MemoryLayout<DBusValue>.stride)
            return Self.heapBytes(keySignature) + Self.heapBytes(valueSignature) + storage
                + entries.reduce(0) { $0 + $1.key.heapBytes + $1.value.heapBytes }
        case .variant(let value):
            return Self.mallocBytes(16 + MemoryLayout<DBusValue>.stride) + value.heapBytes
        }
    }

    /// The heap storage of `values` as an array, elements included.
    public static func heapBytes(_ values: [DBusValue]) -> Int {
        guard !values.isEmpty else { return 0 }
        return mallocBytes(32 + values.count * MemoryLayout<DBusValue>.stride) + values.reduce(0) { $0 + $1.heapBytes }
    }

    /// The heap storage of a native string: none up to 15 UTF-8 bytes (stored inline), else a
    /// 32-byte header, the bytes and a terminating NUL.
    public static func heapBytes(_ text: String) -> Int {
        let count = text.utf8.count
        return count <= 15 ? 0 : mallocBytes(32 + count + 1)
    }

    /// What glibc's malloc takes for a request of `bytes`: 8 bytes of header, rounded up to 16.
    static func mallocBytes(_ bytes: Int) -> Int { max(32, (bytes + 8 + 15) & ~15) }
}
