/// One D-Bus value of any type (D-Bus specification, "Type system").
///
/// Containers carry their element signatures so that an empty array or dictionary still
/// has a type on the wire. Unix file descriptors (`h`) are not supported: passing them
/// needs descriptor ownership rules and SCM_RIGHTS negotiation that nothing in fitd uses;
/// a message carrying one is refused with InvalidArgs instead.
///
/// Only `variant` is `indirect`: marking the whole enum boxed every scalar in its own heap
/// allocation, a few per batch entry. Containers already hold children in an array buffer.
public enum DBusValue: Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// An array of values of one complete type, `elementSignature`.
    case array(elementSignature: String, [DBusValue])
    /// `a{kv}`: the key is a basic type. Order is kept as received.
    case dictionary(keySignature: String, valueSignature: String, [(key: DBusValue, value: DBusValue)])
    case structure([DBusValue])
    indirect case variant(DBusValue)

    /// The signature of this value, e.g. `a{sv}` for a dictionary of variants.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// The signature of a list of values, as a message body or a method's arguments.
    public static func signature(of values: [DBusValue]) -> String {
        values.map(\.signature).joined()
    }

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }
}

extension DBusValue: Equatable {
    public static func == (lhs: DBusValue, rhs: DBusValue) -> Bool {
        switch (lhs, rhs) {
        case (.byte(let a), .byte(let b)): a == b
        case (.boolean(let a), .boolean(let b)): a == b
        case (.int16(let a), .int16(let b)): a == b
        case (.uint16(let a), .uint16(let b)): a == b
        case (.int32(let a), .int32(let b)): a == b
        case (.uint32(let a), .uint32(let b)): a == b
        case (.int64(let a), .int64(let b)): a == b
        case (.uint64(let a), .uint64(let b)): a == b
        // Bit equality, so NaN round-trips compare equal.
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a == b
        case (.objectPath(let a), .objectPath(let b)): a == b
        case (.signature(let a), .signature(let b)): a == b
        case (.array(let sa, let a), .array(let sb, let b)): sa == sb && a == b
        case (.dictionary(let ka, let va, let a), .dictionary(let kb, let vb, let b)):
            ka == kb && va == vb && a.count == b.count
                && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.structure(let a), .structure(let b)): a == b
        case (.variant(let a), .variant(let b)): a == b
        default: false
        }
    }
}

extension DBusValue {
    /// Specification, "Valid Signatures": a message body nests at most 32 arrays and 32
    /// structures; variants add to the total container depth, which libdbus bounds at 64
    /// (`DBUS_MAXIMUM_TYPE_RECURSION_DEPTH` per kind, checked while marshalling).
    static let maximumTotalDepth = 64

    /// Checks everything libdbus would otherwise check with an aborting assertion:
    /// element types match their declared signature, strings hold no NUL, object paths
    /// and signatures are valid, nesting stays within the specification's limits.
    public func validate() throws(DBusError) {
        // The type-level limits hold even for an empty array, whose elements are never visited.
        _ = try DBusSignature(signature)
        try validate(depth: 0, arrays: 0, structs: 0)
    }

    private func validate(depth: Int, arrays: Int, structs: Int) throws(DBusError) {
        guard depth <= Self.maximumTotalDepth else {
            throw .invalidArgs("value nests more than \(Self.maximumTotalDepth) containers")
        }
        switch self {
        case .string(let text):
            guard !text.utf8.contains(0) else { throw .invalidArgs("a D-Bus string cannot contain NUL") }
        case .objectPath(let path):
            guard DBusNames.isValidObjectPath(path) else { throw .invalidArgs("invalid object path \"\(path)\"") }
        case .signature(let text):
            _ = try DBusSignature(text)
        case .array(let element, let items):
            guard arrays < DBusSignature.maximumArrayDepth else {
                throw .invalidArgs("value nests more than 32 arrays")
            }
            // An item that matches `element` exactly proves it one complete type, so the
            // signature is parsed only for an empty array (DBusValue+Conformance).
            if items.isEmpty { try Self.requireSingle(element) }
            var elementText = element
            let stray = elementText.withUTF8 { bytes in items.first { $0.matchEnd(bytes, 0) != bytes.count } }
            if let stray {
                throw .invalidArgs("array of \(element) holds a value of type \(stray.signature)")
            }
            for item in items {
                try item.validate(depth: depth + 1, arrays: arrays + 1, structs: structs)
            }
        case .dictionary(let key, let value, let entries):
            guard arrays < DBusSignature.maximumArrayDepth, structs < DBusSignature.maximumStructDepth else {
                throw .invalidArgs("value nests more than 32 arrays or structures")
            }
            guard key.utf8.count == 1, let code = key.utf8.first, DBusSignature.basicCodes.contains(code) else {
                throw .invalidArgs("dictionary key type \(key) is not a basic type")
            }
            if entries.isEmpty { try Self.requireSingle(value) }
            for entry in entries {
                guard entry.key.conforms(to: key), entry.value.conforms(to: value) else {
                    throw .invalidArgs("dictionary a{\(key)\(value)} holds an entry of other types")
                }
                try entry.key.validate(depth: depth + 2, arrays: arrays + 1, structs: structs + 1)
                try entry.value.validate(depth: depth + 2, arrays: arrays + 1, structs: structs + 1)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgs("a D-Bus structure cannot be empty") }
            guard structs < DBusSignature.maximumStructDepth else {
                throw .invalidArgs("value nests more than 32 structures")
            }
            for field in fields {
                try field.validate(depth: depth + 1, arrays: arrays, structs: structs + 1)
            }
        case .variant(let inner):
            // A variant's signature is one of its own, so it has the 255-byte limit too:
            // libdbus aborts on a longer one (dbus_message_iter_open_container checks it).
            guard inner.signature.utf8.count <= DBusSignature.maximumLength else {
                throw .invalidArgs("a variant's content has a signature longer than \(DBusSignature.maximumLength) bytes")
            }
            try inner.validate(depth: depth + 1, arrays: arrays, structs: structs)
        default:
            break
        }
    }

    private static func requireSingle(_ text: String) throws(DBusError) {
        let parsed = try DBusSignature(text)
        guard parsed.isSingleCompleteType else {
            throw .invalidArgs("\"\(text)\" is not a single complete type")
        }
    }
}
