/// A strict RFC 8259 parser for one JSON text (fitctl's batch request lines), with limits:
/// nesting at most `maxDepth` deep, the text at most `maxBytes`. Every refusal says what was
/// expected and at which byte (0-based), e.g. `expected ':' after a member name at byte 7`.
/// Refused besides malformed text: a member name twice in one object (RFC 8259 §4 leaves
/// the meaning to the reader; the old JSONSerialization took the last silently), a number
/// beyond Double's range. Strings are UTF-8; ill-formed UTF-8 is repaired to U+FFFD as
/// `readLine` did before this parser (a request's text is measured, never refused, for it);
/// `\u` escapes must pair surrogates (a lone one is refused: no Swift String can hold it).
public struct JSONReader {
    public struct Limits: Sendable {
        public var maxDepth: Int
        public var maxBytes: Int
        public init(maxDepth: Int = 64, maxBytes: Int = 64 << 20) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
        }
    }

    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var reason: String
        /// Where, in bytes from the start of the text.
        public var offset: Int
        public var description: String { "\(reason) at byte \(offset)" }
    }

    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits()) throws(Failure) -> JSONValue {
        guard bytes.count <= limits.maxBytes else {
            throw Failure(reason: "the text is \(bytes.count) bytes; the limit is \(limits.maxBytes)", offset: 0)
        }
        var parser = Parser(bytes: bytes, maxDepth: limits.maxDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else {
            throw Failure(reason: "unexpected \(parser.describeHere()) after the value", offset: parser.index)
        }
        return value
    }

    /// The members of a text that is one object, handed to `member` as they are read — each
    /// name as its bytes in the text, each value parsed — with no object, name strings or
    /// repeat check built (fitctl's request lines: building them cost 3.3 K instructions a
    /// line of 34 bytes, freeing them 1.8 K; callgrind). For what `parse` would return as an object
    /// whose names hold no escape: true once every member is handed over. False (some
    /// members perhaps handed over already) when the text is not an object, when a name
    /// holds an escape (`\`), or when `member` returns false; a failure `parse` would throw
    /// is thrown (its message may differ). A repeated name is `member`'s to refuse.
    public static func forEachMember(
        of bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits(),
        _ member: (_ name: UnsafeBufferPointer<UInt8>, _ value: JSONValue) -> Bool
    ) throws(Failure) -> Bool {
        guard bytes.count <= limits.maxBytes else {
            throw Failure(reason: "the text is \(bytes.count) bytes; the limit is \(limits.maxBytes)", offset: 0)
        }
        var parser = Parser(bytes: bytes, maxDepth: limits.maxDepth)
        parser.skipSpace()
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{"), limits.maxDepth >= 1 else { return false }
        parser.index += 1
        parser.skipSpace()
        if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "}") {
            parser.index += 1
        } else {
            while true {
                guard let name = try parser.plainName() else { return false }
                parser.skipSpace()
                guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: ":") else { throw parser.fail("':' after a member name") }
                parser.index += 1
                parser.skipSpace()
                guard member(name, try parser.value(depth: 1)) else { return false }
                parser.skipSpace()
                guard parser.index < bytes.count else { throw parser.fail("',' or '}'") }
                if bytes[parser.index] == UInt8(ascii: ",") {
                    parser.index += 1
                    parser.skipSpace()
                    continue
                }
                guard bytes[parser.index] == UInt8(ascii: "}") else { throw parser.fail("',' or '}'") }
                parser.index += 1
                break
            }
        }
        parser.skipSpace()
        guard parser.index == bytes.count else {
            throw Failure(reason: "unexpected \(parser.describeHere()) after the value", offset: parser.index)
        }
        return true
    }

    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(Failure) -> JSONValue {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in try parse(buffer, limits: limits) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(reason: "\(error)", offset: 0)  // not reached: parse throws only Failure
        }
    }

    public static func parse(_ text: String, limits: Limits = Limits()) throws(Failure) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    typealias Failure = JSONReader.Failure

    mutating func skipSpace() {
        // RFC 8259 §2: space, tab, line feed, carriage return; nothing else.
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func describeHere() -> String {
        guard index < bytes.count else { return "end of text" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func fail(_ expected: String) -> Failure {
        Failure(reason: "expected \(expected), found \(describeHere())", offset: index)
    }

    mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw fail("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("a value")
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let start = index
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Failure(reason: "expected \(word)", offset: start) }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw Failure(reason: "expected \(word)", offset: start)
        }
        index += count
    }

    mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maxDepth else { throw Failure(reason: "nested more than \(maxDepth) deep", offset: index) }
        index += 1  // {
        var object = JSONObject()
        var names = MemberNames()
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("a member name (a string)") }
            let nameOffset = index
            let name = try string()
            guard names.insert(name, among: object.members) else {
                throw Failure(reason: "member \"\(name)\" given twice", offset: nameOffset)
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("':' after a member name") }
            index += 1
            skipSpace()
            object.members.append((name, try value(depth: depth)))
            skipSpace()
            guard index < bytes.count else { throw fail("',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipSpace()
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw fail("',' or '}'") }
            index += 1
            return .object(object)
        }
    }

    mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maxDepth else { throw Failure(reason: "nested more than \(maxDepth) deep", offset: index) }
        index += 1  // [
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth))
            skipSpace()
            guard index < bytes.count else { throw fail("',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipSpace()
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw fail("',' or ']'") }
            index += 1
            return .array(items)
        }
    }

    /// RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    mutating func number() throws(Failure) -> JSONValue {
        let start = index
        func digits(_ parser: inout Parser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, parser.bytes[parser.index] &- UInt8(ascii: "0") < 10 { parser.index += 1 }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 else { throw fail("a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                throw Failure(reason: "a number with a leading zero", offset: start)
            }
        } else {
            _ = digits(&self)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("a digit after '.'") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            // Its first digits name it; a 6 MiB number would make a 6 MiB message.
            let shown = text.utf8.count <= 40 ? text : String(text.prefix(32)) + "… (\(text.utf8.count) characters)"
            throw Failure(reason: "the number \(shown) is out of range", offset: start)
        }
        return .number(value, text: text)
    }

    /// A member name's bytes between its quotes, when it holds no escape; nil (nothing read
    /// past the quote) when it does. Throws where ``string()`` would.
    mutating func plainName() throws(Failure) -> UnsafeBufferPointer<UInt8>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("a member name (a string)") }
        let start = index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return UnsafeBufferPointer(rebasing: bytes[start..<end])
            }
            if byte == UInt8(ascii: "\\") { return nil }
            guard byte >= 0x20 else { throw Failure(reason: "an unescaped control character (0x\(String(byte, radix: 16, uppercase: true))) in a string", offset: end) }
            end += 1
        }
        throw Failure(reason: "a string without its closing '\"'", offset: start - 1)
    }

    mutating func string() throws(Failure) -> String {
        index += 1  // "
        let start = index
        // The common case: no escape — one decode of the bytes between the quotes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw Failure(reason: "an unescaped control character (0x\(String(byte, radix: 16, uppercase: true))) in a string", offset: index) }
            index += 1
        }
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            guard byte >= 0x20 else { throw Failure(reason: "an unescaped control character (0x\(String(byte, radix: 16, uppercase: true))) in a string", offset: index) }
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                index += 1
                continue
            }
            let escapeOffset = index
            index += 1
            guard index < bytes.count else { break }
            let kind = bytes[index]
            index += 1
            switch kind {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(kind)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(escapeOffset)
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by \u and a low one (RFC 8259 §7).
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw Failure(reason: "a lone surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", offset: escapeOffset)
                    }
                    index += 2
                    let low = try hex4(escapeOffset)
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw Failure(reason: "a lone surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", offset: escapeOffset)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw Failure(reason: "a lone surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string", offset: escapeOffset)
                }
                // Valid by construction: not a surrogate, at most 0x10FFFF.
                utf8.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw Failure(reason: "an unknown escape \\\(Character(Unicode.Scalar(kind))) in a string", offset: escapeOffset)
            }
        }
        throw Failure(reason: "a string without its closing '\"'", offset: start - 1)
    }

    mutating func hex4(_ escapeOffset: Int) throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw Failure(reason: "a \\u escape without four hex digits", offset: escapeOffset) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure(reason: "a \\u escape without four hex digits", offset: escapeOffset)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

/// The names an object has so far, to refuse a second member of the same name. A linear scan
/// for the handful of members a request has; past `linearLimit` a hash set of their bytes, so a
/// hostile line of a million members costs linear time, not quadratic. Bytes, not `String ==`,
/// because RFC 8259 §8.3 compares names code unit by code unit.
struct MemberNames {
    static let linearLimit = 16
    private var set: Set<[UInt8]>? = nil

    /// False when `name` is already among `members` (whose names this has seen, in order).
    mutating func insert(_ name: String, among members: [(name: String, value: JSONValue)]) -> Bool {
        if set == nil {
            if members.count < Self.linearLimit {
                return !members.contains { JSONObject.sameBytes($0.name, name) }
            }
            set = Set(members.map { Array($0.name.utf8) })
        }
        return set?.insert(Array(name.utf8)).inserted ?? true
    }
}
