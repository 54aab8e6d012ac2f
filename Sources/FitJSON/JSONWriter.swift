/// A JSON text written straight into bytes, for fitctl's output: keys come out in the order
/// they are written (each command documents its order), so nothing is sorted and no
/// dictionary is built per result. Not Foundation's `JSONSerialization`: with `.sortedKeys`
/// it compares keys with an ICU collator, 71 % of `fitctl measure --batch`'s time.
///
/// What it writes is RFC 8259 text: strings are UTF-8 with `"`, `\` and the control
/// characters U+0000…U+001F escaped (§7; `\b \f \n \r \t` short, the rest `\u00XX`), `/`
/// not escaped; a Swift `String` holds only Unicode scalars, so no lone surrogate can reach
/// it. Numbers: a whole `Double` as an integer ("12", not "12.0"), as `JSONSerialization`
/// wrote them; any other finite one in the shortest form that reads back to the same
/// `Double` (Swift's `description`, e.g. "0.1", "1e-07", "1e+16" — valid JSON numbers); a
/// non-finite one, which JSON cannot spell, as `null`.
///
/// Commas and colons are the writer's business: call `key` before each member's value, and
/// the values, `beginObject`/`endObject`, `beginArray`/`endArray` in document order.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// Whether the next value or key follows a sibling (so needs a comma first).
    private var afterValue = false

    public init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the text, keeping the storage (one writer serves a whole batch).
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        afterValue = false
    }

    /// Appends a newline and starts a new top-level value (JSON Lines).
    public mutating func newline() {
        bytes.append(0x0A)
        afterValue = false
    }

    /// The text as a String (for the commands that print one object).
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    @inline(__always) private mutating func separate() {
        if afterValue { bytes.append(UInt8(ascii: ",")) }
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        afterValue = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        afterValue = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        afterValue = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        afterValue = true
    }

    /// A member's name; its value comes next.
    public mutating func key(_ name: String) {
        separate()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        afterValue = false
    }

    public mutating func string(_ value: String) {
        separate()
        appendQuoted(value)
        afterValue = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        appendLiteral(value ? "true" : "false")
        afterValue = true
    }

    public mutating func null() {
        separate()
        appendLiteral("null")
        afterValue = true
    }

    /// A member name written once, quoted and escaped with its colon, for names a writer
    /// repeats: `fitctl measure --batch` writes nine a result, and quoting each again cost
    /// a tenth of its JSON output (callgrind).
    public struct Key: Sendable {
        let encoded: [UInt8]

        public init(_ name: String) {
            var writer = JSONWriter(reservingCapacity: name.utf8.count + 3)
            writer.key(name)
            encoded = writer.bytes
        }
    }

    /// A member's name made beforehand; its value comes next.
    public mutating func key(_ key: Key) {
        separate()
        bytes.append(contentsOf: key.encoded)
        afterValue = false
    }

    public mutating func number(_ value: Int) {
        separate()
        appendInteger(Int64(value))
        afterValue = true
    }

    public mutating func number(_ value: UInt64) {
        separate()
        if value <= UInt64(Int64.max) {
            appendInteger(Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
        afterValue = true
    }

    public mutating func number(_ value: Double) {
        separate()
        appendDouble(value)
        afterValue = true
    }

    /// Already valid JSON number text (a parsed number's own spelling), written as it is.
    mutating func rawNumber(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        afterValue = true
    }

    public mutating func strings(_ values: [String]) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    // Convenience for members: key, then value.
    public mutating func member(_ name: String, _ value: String) { key(name); string(value) }
    public mutating func member(_ name: String, _ value: Bool) { key(name); bool(value) }
    public mutating func member(_ name: String, _ value: Int) { key(name); number(value) }
    public mutating func member(_ name: String, _ value: UInt64) { key(name); number(value) }
    public mutating func member(_ name: String, _ value: Double) { key(name); number(value) }
    public mutating func member(_ name: String, _ value: [String]) { key(name); strings(value) }
    public mutating func member(_ name: Key, _ value: String) { key(name); string(value) }
    public mutating func member(_ name: Key, _ value: Bool) { key(name); bool(value) }
    public mutating func member(_ name: Key, _ value: Int) { key(name); number(value) }
    public mutating func member(_ name: Key, _ value: Double) { key(name); number(value) }
    public mutating func member(_ name: Key, _ value: [String]) { key(name); strings(value) }

    // MARK: - Text

    /// 2^53: below it every whole Double is exactly an Int64 and prints as one.
    private static let exactIntegerLimit = 9_007_199_254_740_992.0

    private mutating func appendDouble(_ value: Double) {
        guard value.isFinite else {
            appendLiteral("null")
            return
        }
        if value == value.rounded(.towardZero), abs(value) < Self.exactIntegerLimit {
            appendInteger(Int64(value))  // -0.0 becomes "0", as JSONSerialization wrote it
        } else if appendPangoUnits(value) {
            return
        } else {
            // Whole values from 2^53 to 1e16 come as "9007199254740992.0": no ".0" either.
            let text = value.description
            bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
        }
    }

    /// A value in whole Pango units (1/1024 px: every width and height fitd measures) written
    /// as its exact decimal expansion, `value.description`'s digits without its cost (1.6 K
    /// instructions a number, a quarter of `fitctl measure --batch`'s JSON output). The
    /// expansion of n/1024 has at most 10 decimals (1/1024 = 0.0009765625); with at most 15
    /// significant digits it is the shortest decimal that reads back as this Double (any other
    /// decimal that short is a whole unit of its last digit away, far beyond half a Double's
    /// ulp), which is what `description` prints. False, having written nothing, for any other
    /// value.
    private mutating func appendPangoUnits(_ value: Double) -> Bool {
        let scaled = value * 1024  // exact: a power of two
        guard scaled == scaled.rounded(.towardZero), abs(scaled) < Self.exactIntegerLimit else { return false }
        let units = Int64(scaled).magnitude
        let whole = units >> 10
        // The ten decimals of the fraction: (units mod 1024) / 1024 × 10^10, and 10^10 / 1024
        // is 9,765,625. Not zero: whole values took the integer path.
        var fraction = (units & 1023) &* 9_765_625
        var decimals = 10
        while fraction % 10 == 0 {
            fraction /= 10
            decimals -= 1
        }
        // Written backwards into one stack buffer, then appended at once: the fraction's
        // digits, the point, the whole part's digits, the sign (at most 1 + 16 + 1 + 10).
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer -> Int in
            var index = 32
            for _ in 0..<decimals {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(fraction % 10)
                fraction /= 10
            }
            // Leading zeros of the fraction are not significant (when the whole part is 0).
            var leadingZeros = 0
            while leadingZeros < decimals && buffer[index + leadingZeros] == UInt8(ascii: "0") { leadingZeros += 1 }
            index -= 1
            buffer[index] = UInt8(ascii: ".")
            var rest = whole
            var significant: Int
            if rest == 0 {
                significant = decimals - leadingZeros
                index -= 1
                buffer[index] = UInt8(ascii: "0")
            } else {
                significant = decimals
                while rest > 0 {
                    index -= 1
                    buffer[index] = UInt8(ascii: "0") &+ UInt8(rest % 10)
                    rest /= 10
                    significant += 1
                }
            }
            guard significant <= 15 else { return 0 }
            if value < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<32]))
            return 32 - index
        }
        return written > 0
    }

    private mutating func appendInteger(_ value: Int64) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(value))
            return
        }
        // Digits backwards into a small stack buffer: no String per number.
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var index = 20
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<20]))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendQuoted(_ text: String) {
        // A native or literal string's bytes are read in place; copying it into a `var` for
        // `withUTF8` retained and released it (each key and string of a batch result).
        if text.utf8.withContiguousStorageIfAvailable({ appendQuoted(utf8: $0) }) == nil {
            var text = text
            text.withUTF8 { appendQuoted(utf8: $0) }
        }
    }

    private mutating func appendLiteral(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func appendQuoted(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: one copy.
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        // Copy runs of bytes that need no escape in one append.
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
            }
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        bytes.append(UInt8(ascii: "\""))
    }
}
