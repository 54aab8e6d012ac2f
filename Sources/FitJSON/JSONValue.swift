/// A parsed JSON value. Objects keep their members in document order (duplicates are refused
/// by the reader, so a name finds at most one member).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// The value and its spelling in the text (so an integer beyond Double's 2^53 is echoed exactly).
    case number(Double, text: String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The kind's name for messages: "a string", "an array"…
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// An object's members in document order.
public struct JSONObject: Equatable, Sendable {
    public var members: [(name: String, value: JSONValue)]

    public init(_ members: [(name: String, value: JSONValue)] = []) { self.members = members }

    /// The member's value; nil when there is none. A linear scan: request objects have a
    /// handful of members, fewer than a hash table would pay for. Names compare by their
    /// UTF-8 bytes, as RFC 8259 §8.3 compares them: "\u00e9" and "e\u0301" are two names,
    /// though Swift's `==` calls them equal.
    public subscript(name: String) -> JSONValue? {
        for member in members where Self.sameBytes(member.name, name) { return member.value }
        return nil
    }

    /// Whether two names are the same UTF-8 bytes: their contiguous storage compared directly
    /// (UTF8View.elementsEqual, byte by byte through the view, was 1.6 % of a whole
    /// `fitctl measure --batch` run).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a
        var b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    public var names: [String] { members.map(\.name) }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { sameBytes($0.name, $1.name) && $0.value == $1.value }
    }
}

extension JSONWriter {
    /// Writes a parsed value back: objects in their order; a number whose spelling is an
    /// integer as spelt (exact beyond 2^53), any other as its Double (`1e2` → 100, `2.50` →
    /// 2.5, as JSONSerialization echoed them).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number, let text):
            if text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }) {
                rawNumber(text)
            } else {
                self.number(number)
            }
        case .string(let text): string(text)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let object):
            beginObject()
            for member in object.members {
                key(member.name)
                self.value(member.value)
            }
            endObject()
        }
    }
}
