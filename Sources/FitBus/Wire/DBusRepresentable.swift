/// A Swift type with a fixed D-Bus type, convertible both ways. Decoding throws
/// InvalidArgs on a value of another type, since values come from other processes.
public protocol DBusRepresentable: Sendable {
    static var dbusSignature: String { get }
    var dbusValue: DBusValue { get }
    init(dbusValue: DBusValue) throws(DBusError)
}

extension DBusRepresentable {
    static func mismatch(_ value: DBusValue) -> DBusError {
        .invalidArgs("expected \(dbusSignature), got \(value.signature)")
    }
}

extension String: DBusRepresentable {
    public static var dbusSignature: String { "s" }
    public var dbusValue: DBusValue { .string(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .string(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Bool: DBusRepresentable {
    public static var dbusSignature: String { "b" }
    public var dbusValue: DBusValue { .boolean(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .boolean(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension UInt8: DBusRepresentable {
    public static var dbusSignature: String { "y" }
    public var dbusValue: DBusValue { .byte(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .byte(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Int16: DBusRepresentable {
    public static var dbusSignature: String { "n" }
    public var dbusValue: DBusValue { .int16(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int16(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension UInt16: DBusRepresentable {
    public static var dbusSignature: String { "q" }
    public var dbusValue: DBusValue { .uint16(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint16(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Int32: DBusRepresentable {
    public static var dbusSignature: String { "i" }
    public var dbusValue: DBusValue { .int32(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int32(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension UInt32: DBusRepresentable {
    public static var dbusSignature: String { "u" }
    public var dbusValue: DBusValue { .uint32(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint32(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Int64: DBusRepresentable {
    public static var dbusSignature: String { "x" }
    public var dbusValue: DBusValue { .int64(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int64(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension UInt64: DBusRepresentable {
    public static var dbusSignature: String { "t" }
    public var dbusValue: DBusValue { .uint64(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint64(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Double: DBusRepresentable {
    public static var dbusSignature: String { "d" }
    public var dbusValue: DBusValue { .double(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .double(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

/// `v`: a DBusValue stands for "any value", so it travels as a variant; this makes
/// `[String: DBusValue]` the usual `a{sv}`.
extension DBusValue: DBusRepresentable {
    public static var dbusSignature: String { "v" }
    public var dbusValue: DBusValue { .variant(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .variant(let inner) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = inner
    }
}

extension Array: DBusRepresentable where Element: DBusRepresentable {
    public static var dbusSignature: String { "a" + Element.dbusSignature }
    public var dbusValue: DBusValue { .array(elementSignature: Element.dbusSignature, map(\.dbusValue)) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .array(let element, let items) = dbusValue, element == Element.dbusSignature else {
            throw Self.mismatch(dbusValue)
        }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items { result.append(try Element(dbusValue: item)) }
        self = result
    }
}

/// `a{kv}`. String keys are sorted so the common `a{sv}` encodes deterministically
/// (Dictionary's order is random per process); a duplicate key on the wire keeps the last
/// value, as GDBus does.
extension Dictionary: DBusRepresentable where Key: DBusRepresentable, Value: DBusRepresentable {
    public static var dbusSignature: String { "a{" + Key.dbusSignature + Value.dbusSignature + "}" }
    public var dbusValue: DBusValue {
        var entries = map { (key: $0.key.dbusValue, value: $0.value.dbusValue) }
        if Key.self == String.self {
            entries.sort { a, b in
                if case .string(let x) = a.key, case .string(let y) = b.key { return x < y }
                return false
            }
        }
        return .dictionary(keySignature: Key.dbusSignature, valueSignature: Value.dbusSignature, entries)
    }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .dictionary(let k, let v, let entries) = dbusValue,
            k == Key.dbusSignature, v == Value.dbusSignature
        else { throw Self.mismatch(dbusValue) }
        var result: [Key: Value] = [:]
        for entry in entries { result[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value) }
        self = result
    }
}

extension DBusValue {
    /// Converts to a Swift type, throwing InvalidArgs on a mismatch.
    public func decode<T: DBusRepresentable>(as type: T.Type = T.self) throws(DBusError) -> T {
        try T(dbusValue: self)
    }
}
