import FitBus
import FitText

extension DBusValue {
    /// The heap memory a value holds beyond its own `MemoryLayout<DBusValue>.stride`: the storage
    /// of its strings and arrays and of what they hold (``HeapBytes``), for the Layout replies
    /// the `layouts` cache keeps. An indirect case is a boxed payload. Storage shared by copies
    /// is counted once per copy, so this is an upper bound on what the value adds.
    var heapBytes: Int {
        switch self {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return 0
        case .string(let text), .objectPath(let text), .signature(let text):
            return HeapBytes.string(text)
        case .array(let elementSignature, let values):
            return HeapBytes.string(elementSignature) + Self.heapBytes(values)
        case .structure(let values):
            return Self.heapBytes(values)
        case .dictionary(let keySignature, let valueSignature, let entries):
            return HeapBytes.string(keySignature) + HeapBytes.string(valueSignature)
                + HeapBytes.array(count: entries.count, stride: 2 * MemoryLayout<DBusValue>.stride)
                + entries.reduce(0) { $0 + $1.key.heapBytes + $1.value.heapBytes }
        case .variant(let value):
            return HeapBytes.malloc(16 + MemoryLayout<DBusValue>.stride) + value.heapBytes
        }
    }

    /// The heap storage of `values` as an array, elements included.
    static func heapBytes(_ values: [DBusValue]) -> Int {
        HeapBytes.array(count: values.count, stride: MemoryLayout<DBusValue>.stride) + values.reduce(0) { $0 + $1.heapBytes }
    }
}
