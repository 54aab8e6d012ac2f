import FitBus

/// The fuzz input read front to back. Every read is total: past the end it yields zeros, so
/// any byte string decodes to something, and libFuzzer's mutations (flip, insert, erase,
/// splice) give nearby values rather than a parse error at the first byte.
public struct FuzzInput {
    public let bytes: [UInt8]
    public private(set) var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    public var isAtEnd: Bool { offset >= bytes.count }
    public var remaining: Int { max(0, bytes.count - offset) }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Little-endian, `width` bytes.
    public mutating func integer(_ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for shift in 0..<width { value |= UInt64(byte()) << (8 * shift) }
        return value
    }

    /// A string: one length byte (255 means two more bytes of length follow), then UTF-8,
    /// repaired where invalid; NUL becomes a space (D-Bus strings hold no NUL).
    public mutating func string() -> String {
        var length = Int(byte())
        if length == 255 { length = 255 + Int(integer(2)) }
        let end = min(bytes.count, offset + length)
        let slice = bytes[min(offset, end)..<end].map { $0 == 0 ? UInt8(ascii: " ") : $0 }
        offset = end
        return String(decoding: slice, as: UTF8.self)
    }

    /// All that is left, as text.
    public mutating func rest() -> String {
        defer { offset = bytes.count }
        return String(decoding: bytes[min(offset, bytes.count)...], as: UTF8.self)
    }

    /// Containers nest at most this deep, so one input cannot recurse without bound.
    public static let maximumDepth = 24

    /// One D-Bus value in the tagged form ``FuzzEncoder`` writes: a tag byte (`tag % 16`
    /// chooses the type), then the content.
    public mutating func value(depth: Int = 0) -> DBusValue {
        var tag = Tag(rawValue: byte() % 16) ?? .byte
        if depth >= Self.maximumDepth, tag.isContainer { tag = .string }
        switch tag {
        case .byte: return .byte(byte())
        case .boolean: return .boolean(byte() & 1 == 1)
        case .int16: return .int16(Int16(truncatingIfNeeded: integer(2)))
        case .uint16: return .uint16(UInt16(truncatingIfNeeded: integer(2)))
        case .int32: return .int32(Int32(truncatingIfNeeded: integer(4)))
        case .uint32: return .uint32(UInt32(truncatingIfNeeded: integer(4)))
        case .int64: return .int64(Int64(bitPattern: integer(8)))
        case .uint64: return .uint64(integer(8))
        case .double: return .double(Double(bitPattern: integer(8)))
        case .string: return .string(string())
        case .objectPath: return .objectPath(string())
        case .signature: return .signature(string())
        case .variant: return .variant(value(depth: depth + 1))
        case .array:
            // Elements of another type than the first are dropped: an array has one type.
            let count = Int(byte())
            var items: [DBusValue] = []
            for _ in 0..<count where !isAtEnd {
                let item = value(depth: depth + 1)
                if items.isEmpty || item.signature == items[0].signature { items.append(item) }
            }
            return .array(elementSignature: items.first?.signature ?? "s", items)
        case .dictionary:
            // a{sv}, the only dictionary fitd's protocol has.
            let count = Int(byte())
            var entries: [(key: DBusValue, value: DBusValue)] = []
            for _ in 0..<count where !isAtEnd {
                let key = string()
                entries.append((.string(key), .variant(value(depth: depth + 1))))
            }
            return .dictionary(keySignature: "s", valueSignature: "v", entries)
        case .structure:
            let count = Int(byte() % 16)
            var fields: [DBusValue] = []
            for _ in 0..<max(1, count) { fields.append(value(depth: depth + 1)) }
            return .structure(fields)
        }
    }

    /// Values until the input ends (at most `limit`).
    public mutating func values(limit: Int = 64) -> [DBusValue] {
        var list: [DBusValue] = []
        while !isAtEnd, list.count < limit { list.append(value()) }
        return list
    }

    public enum Tag: UInt8 {
        case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double, string, objectPath, signature
        case variant, array, dictionary, structure
        var isContainer: Bool { rawValue >= Tag.variant.rawValue }
    }
}

/// The inverse of ``FuzzInput/value(depth:)``: writes the seeds, real requests in the tagged form.
public struct FuzzEncoder {
    public private(set) var bytes: [UInt8] = []
    public init() {}

    public mutating func byte(_ value: UInt8) { bytes.append(value) }
    public mutating func integer(_ value: UInt64, _ width: Int) {
        for shift in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * shift))) }
    }
    public mutating func string(_ text: String) {
        let utf8 = Array(text.utf8)
        if utf8.count < 255 {
            byte(UInt8(utf8.count))
        } else {
            byte(255)
            integer(UInt64(min(utf8.count - 255, 0xFFFF)), 2)
        }
        bytes += utf8.prefix(255 + 0xFFFF)
    }
    public mutating func raw(_ data: [UInt8]) { bytes += data }

    public mutating func value(_ value: DBusValue) {
        func tag(_ tag: FuzzInput.Tag) { byte(tag.rawValue) }
        switch value {
        case .byte(let v): tag(.byte); byte(v)
        case .boolean(let v): tag(.boolean); byte(v ? 1 : 0)
        case .int16(let v): tag(.int16); integer(UInt64(UInt16(bitPattern: v)), 2)
        case .uint16(let v): tag(.uint16); integer(UInt64(v), 2)
        case .int32(let v): tag(.int32); integer(UInt64(UInt32(bitPattern: v)), 4)
        case .uint32(let v): tag(.uint32); integer(UInt64(v), 4)
        case .int64(let v): tag(.int64); integer(UInt64(bitPattern: v), 8)
        case .uint64(let v): tag(.uint64); integer(v, 8)
        case .double(let v): tag(.double); integer(v.bitPattern, 8)
        case .string(let v): tag(.string); string(v)
        case .objectPath(let v): tag(.objectPath); string(v)
        case .signature(let v): tag(.signature); string(v)
        case .variant(let inner): tag(.variant); self.value(inner)
        case .array(_, let items):
            tag(.array); byte(UInt8(min(items.count, 255)))
            for item in items.prefix(255) { self.value(item) }
        case .dictionary(_, _, let entries):
            tag(.dictionary); byte(UInt8(min(entries.count, 255)))
            for (key, inner) in entries.prefix(255) {
                if case .string(let name) = key { string(name) } else { string("") }
                if case .variant(let content) = inner { self.value(content) } else { self.value(inner) }
            }
        case .structure(let fields):
            tag(.structure); byte(UInt8(min(fields.count, 15)))
            for field in fields.prefix(15) { self.value(field) }
        }
    }
}
