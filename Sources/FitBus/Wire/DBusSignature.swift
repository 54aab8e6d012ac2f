/// A validated D-Bus type signature: zero or more complete types.
///
/// The rules are the D-Bus specification's "Signatures" and "Valid Signatures": at most
/// 255 bytes, at most 32 nested arrays and 32 nested structures/dict entries (so at most 64
/// containers in all), dict entries only directly inside an array with a basic-type key
/// and exactly one value, no empty structures. libdbus checks the same rules with
/// `_dbus_validate_signature_with_reason`; checking them here first means a bad signature
/// becomes a Swift error instead of a libdbus check failure (which aborts the process by
/// default).
public struct DBusSignature: Sendable, Hashable, CustomStringConvertible {
    /// The signature text, e.g. `a{sv}`.
    public let rawValue: String
    /// The complete types, in order: `"sa{sv}"` → `["s", "a{sv}"]`.
    public let completeTypes: [String]

    /// Specification, "Valid Signatures": "The maximum length of a signature is 255".
    public static let maximumLength = 255
    /// Specification, "Valid Signatures": "The maximum depth of container type nesting is
    /// 32 array type codes and 32 open parentheses".
    public static let maximumArrayDepth = 32
    public static let maximumStructDepth = 32

    public static let empty = DBusSignature(validated: "", types: [])

    public init(_ text: String) throws(DBusError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw Self.invalid(text, "longer than \(Self.maximumLength) bytes")
        }
        var parser = Parser(bytes: bytes, text: text)
        var types: [String] = []
        while parser.index < bytes.count {
            let start = parser.index
            try parser.completeType(arrays: 0, structs: 0)
            types.append(String(decoding: bytes[start..<parser.index], as: UTF8.self))
        }
        self.init(validated: text, types: types)
    }

    private init(validated: String, types: [String]) {
        rawValue = validated
        completeTypes = types
    }

    public var description: String { rawValue }
    public var isEmpty: Bool { rawValue.isEmpty }
    /// True for exactly one complete type, which a variant, an array element and a
    /// property value must be.
    public var isSingleCompleteType: Bool { completeTypes.count == 1 }

    /// The basic type codes (specification, "Basic types"), allowed as dict-entry keys.
    static let basicCodes = Set("ybnqiuxtdsogh".utf8)

    static func invalid(_ text: String, _ reason: String) -> DBusError {
        DBusError(.invalidSignature, "invalid D-Bus signature \"\(text)\": \(reason)")
    }

    private struct Parser {
        let bytes: [UInt8]
        let text: String
        var index = 0

        mutating func completeType(arrays: Int, structs: Int) throws(DBusError) {
            guard index < bytes.count else {
                throw DBusSignature.invalid(text, "ends inside a container")
            }
            let code = bytes[index]
            index += 1
            switch code {
            case _ where DBusSignature.basicCodes.contains(code), UInt8(ascii: "v"):
                return
            case UInt8(ascii: "a"):
                guard arrays < DBusSignature.maximumArrayDepth else {
                    throw DBusSignature.invalid(text, "more than 32 nested arrays")
                }
                if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                    try dictEntry(arrays: arrays + 1, structs: structs)
                } else {
                    try completeType(arrays: arrays + 1, structs: structs)
                }
            case UInt8(ascii: "("):
                guard structs < DBusSignature.maximumStructDepth else {
                    throw DBusSignature.invalid(text, "more than 32 nested structures")
                }
                guard index < bytes.count, bytes[index] != UInt8(ascii: ")") else {
                    throw DBusSignature.invalid(text, "empty or unterminated structure")
                }
                while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                    try completeType(arrays: arrays, structs: structs + 1)
                }
                guard index < bytes.count else {
                    throw DBusSignature.invalid(text, "unterminated structure")
                }
                index += 1
            default:
                throw DBusSignature.invalid(
                    text, "unexpected '\(Character(Unicode.Scalar(code)))' at byte \(index - 1)")
            }
        }

        /// `{kv}` directly after `a`: the key is a basic type, then exactly one value.
        mutating func dictEntry(arrays: Int, structs: Int) throws(DBusError) {
            guard structs < DBusSignature.maximumStructDepth else {
                throw DBusSignature.invalid(text, "more than 32 nested structures")
            }
            index += 1
            guard index < bytes.count, DBusSignature.basicCodes.contains(bytes[index]) else {
                throw DBusSignature.invalid(text, "a dict entry key must be a basic type")
            }
            index += 1
            try completeType(arrays: arrays, structs: structs + 1)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                throw DBusSignature.invalid(text, "a dict entry holds exactly a key and a value")
            }
            index += 1
        }
    }
}

extension DBusSignature {
    /// The index just after the complete type starting at `start` in a signature's bytes, or
    /// nil when the bytes end inside it (specification, "Valid Signatures").
    static func completeTypeEnd(_ signature: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int? {
        guard start < signature.count else { return nil }
        switch signature[start] {
        case UInt8(ascii: "a"):
            return completeTypeEnd(signature, start + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = signature[start] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var index = start + 1
            while index < signature.count, signature[index] != close {
                guard let next = completeTypeEnd(signature, index) else { return nil }
                index = next
            }
            return index < signature.count ? index + 1 : nil
        default:
            return start + 1
        }
    }
}

/// The end of the complete type starting at each position of one signature, computed once
/// per message: readers and writers look one up per container, and scanning the signature
/// each time was the client's largest cost in a batch of 1,000 results after libdbus itself.
struct TypeEnds {
    private let ends: [Int]

    init(_ signature: UnsafeBufferPointer<UInt8>) {
        ends = (0..<signature.count).map { DBusSignature.completeTypeEnd(signature, $0) ?? -1 }
    }

    /// The index just after the complete type at `position`, or nil when the signature ends inside it.
    subscript(_ position: Int) -> Int? {
        guard position >= 0, position < ends.count, ends[position] >= 0 else { return nil }
        return ends[position]
    }
}
