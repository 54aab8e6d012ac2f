#if canImport(Glibc)
import Glibc
#endif

/// Writes a message body in the D-Bus wire format, value by value, into a byte buffer
/// (specification, "Marshaling (Wire Format)"), little-endian. libdbus then takes the whole
/// message at once (`WireMessage`). Built for replies of thousands of entries: libdbus's
/// iterator API costs several calls per value, each re-deriving the type under the
/// iterator, and building `DBusValue` trees first costs allocations on top.
///
/// Every write is checked against the body's signature, so a writer that strays from it,
/// leaves a structure half written or writes a string holding NUL throws `Failed` or
/// `InvalidArgs`; libdbus validates the finished message once more before anything is sent.
///
/// Containers are written in closures that get the same writer back, positioned inside.
public struct DBusWriter: ~Copyable {
    private var bytes: [UInt8]
    private let signature: UnsafeBufferPointer<UInt8>
    private let typeEnds: TypeEnds
    /// The next type code to write.
    private var position = 0
    /// Where the types of the container being written end: the body's end, a structure's
    /// `)`, an entry's `}`, or an array's element's end.
    private var end: Int
    /// Inside an array, its element type; `position` wraps from its end to its start.
    private var element: Range<Int>?

    private init(prefix: [UInt8], signature: UnsafeBufferPointer<UInt8>) {
        self.bytes = prefix
        self.signature = signature
        self.typeEnds = TypeEnds(signature)
        self.end = signature.count
    }

    /// Writes a whole body of `signature` and returns its bytes, after `prefix`: alignment
    /// counts from the start of the prefix (a message header's fields start at offset 12).
    static func body(
        prefix: [UInt8] = [], signature text: String, _ write: (inout DBusWriter) throws(DBusError) -> Void
    ) throws(DBusError) -> [UInt8] {
        _ = try DBusSignature(text)  // valid, so every container it names can be written
        var text = text
        // String.withUTF8 rethrows untyped errors; the writer's comes out as a Result.
        let result = text.withUTF8 { signature -> Result<[UInt8], DBusError> in
            var writer = DBusWriter(prefix: prefix, signature: signature)
            do throws(DBusError) {
                try write(&writer)
            } catch {
                return .failure(error)
            }
            guard writer.position == signature.count else {
                return .failure(.failed("the body stops at type \(writer.position) of its signature \(writer.text(0, signature.count))"))
            }
            return .success(writer.bytes)
        }
        return try result.get()
    }

    /// Makes room for `count` more bytes at once, for a writer that knows roughly how long its
    /// body will be: a batch reply of 1,000 results otherwise grows its buffer a dozen times,
    /// each a copy of all it holds.
    public mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(bytes.count + max(0, count))
    }

    // MARK: basic values

    public mutating func append(_ value: Bool) throws(DBusError) {
        try expect("b")
        put(UInt32(value ? 1 : 0))
    }
    public mutating func append(_ value: UInt8) throws(DBusError) {
        try expect("y")
        bytes.append(value)
        position += 1
        advance()
    }
    public mutating func append(_ value: Int32) throws(DBusError) { try expect("i"); put(UInt32(bitPattern: value)) }
    public mutating func append(_ value: UInt32) throws(DBusError) { try expect("u"); put(value) }
    public mutating func append(_ value: Int64) throws(DBusError) { try expect("x"); put(UInt64(bitPattern: value)) }
    public mutating func append(_ value: UInt64) throws(DBusError) { try expect("t"); put(value) }
    public mutating func append(_ value: Double) throws(DBusError) { try expect("d"); put(value.bitPattern) }

    /// A string (`s`). D-Bus strings cannot hold NUL (specification, "Basic types").
    public mutating func append(_ value: String) throws(DBusError) {
        try expect("s")
        try putString(value)
        position += 1
        advance()
    }

    /// Any value whose type is the next complete type of the signature: the general path
    /// (validated as `DBusMessage.append` validates), for the odd value a fast writer meets.
    public mutating func append(_ value: DBusValue) throws(DBusError) {
        guard position < end, let next = value.matchEnd(signature, position), next <= end else {
            throw mismatch(value.signature)
        }
        try value.validate()
        try put(value)
        position = next
        advance()
    }

    // MARK: containers

    /// A structure (`(...)`): `body` writes its fields, all of them.
    public mutating func structure(_ body: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        try container(open: UInt8(ascii: "("), body)
    }

    /// One entry of a dictionary (`{kv}`, inside an array): `body` writes the key and the value.
    public mutating func dictionaryEntry(_ body: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        try container(open: UInt8(ascii: "{"), body)
    }

    /// An array (`a...`, dictionaries included): `body` writes any number of whole elements.
    public mutating func array(_ body: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        guard position < end, signature[position] == UInt8(ascii: "a") else { throw mismatch("an array") }
        let elementStart = position + 1
        guard let elementEnd = typeEnds[elementStart], elementEnd <= end else {
            throw mismatch("an array")
        }
        pad(to: 4)
        let lengthAt = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        // The padding to the first element is there even when the array is empty, and is
        // not part of the array's length (specification, "Marshaling: arrays").
        pad(to: WireFormat.alignment(of: signature[elementStart]))
        let start = bytes.count
        let saved = (end, element)
        (position, end, element) = (elementStart, elementEnd, elementStart..<elementEnd)
        try body(&self)
        guard position == elementStart else {
            throw .failed("an element of the array \(text(elementStart - 1, elementEnd)) was left half written")
        }
        try patchLength(at: lengthAt, bytes.count - start)
        (end, element) = saved
        position = elementEnd
        advance()
    }

    // MARK: internals

    private mutating func container(open: UInt8, _ body: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        guard position < end, signature[position] == open else {
            throw mismatch(open == UInt8(ascii: "(") ? "a structure" : "a dictionary entry")
        }
        guard let after = typeEnds[position], after <= end else { throw mismatch("a structure") }
        let (opening, closing) = (position, after - 1)
        pad(to: 8)
        let saved = (end, element)
        (position, end, element) = (position + 1, closing, nil)
        try body(&self)
        guard position == closing else {
            throw .failed("\(text(opening, after)) was closed before all its fields were written")
        }
        (end, element) = saved
        position = after
        advance()
    }

    private func expect(_ code: Unicode.Scalar) throws(DBusError) {
        guard position < end, signature[position] == UInt8(code.value) else { throw mismatch(String(code)) }
    }

    /// Past the type just written; after a whole element of an array, the next one starts over.
    private mutating func advance() {
        if let element, position == element.upperBound { position = element.lowerBound }
    }

    private mutating func put<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        position += 1
        advance()
    }

    private mutating func pad(to alignment: Int) {
        let remainder = bytes.count % alignment
        if remainder != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - remainder)) }
    }

    private mutating func putString(_ value: String) throws(DBusError) {
        var value = value
        let failure = value.withUTF8 { utf8 -> DBusError? in
            if let base = utf8.baseAddress, memchr(base, 0, utf8.count) != nil {
                return .invalidArgs("a D-Bus string cannot contain NUL")
            }
            guard let length = UInt32(exactly: utf8.count) else { return DBusError(.limitsExceeded, "a string of \(utf8.count) bytes") }
            pad(to: 4)
            withUnsafeBytes(of: length.littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: utf8)
            bytes.append(0)
            return nil
        }
        if let failure { throw failure }
    }

    private mutating func patchLength(at offset: Int, _ length: Int) throws(DBusError) {
        guard length <= WireFormat.maximumArrayBytes else {
            throw DBusError(.limitsExceeded, "an array of \(length) bytes; D-Bus allows \(WireFormat.maximumArrayBytes)")
        }
        withUnsafeBytes(of: UInt32(length).littleEndian) { raw in
            for i in 0..<4 { bytes[offset + i] = raw[i] }
        }
    }

    /// A validated `DBusValue`, recursively (its type was matched against the signature).
    private mutating func put(_ value: DBusValue) throws(DBusError) {
        func fixed<T: FixedWidthInteger>(_ v: T) {
            pad(to: MemoryLayout<T>.size)
            withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func signatureBytes(_ text: String) {
            bytes.append(UInt8(truncatingIfNeeded: text.utf8.count))
            bytes.append(contentsOf: text.utf8)
            bytes.append(0)
        }
        switch value {
        case .byte(let v): bytes.append(v)
        case .boolean(let v): fixed(UInt32(v ? 1 : 0))
        case .int16(let v): fixed(UInt16(bitPattern: v))
        case .uint16(let v): fixed(v)
        case .int32(let v): fixed(UInt32(bitPattern: v))
        case .uint32(let v): fixed(v)
        case .int64(let v): fixed(UInt64(bitPattern: v))
        case .uint64(let v): fixed(v)
        case .double(let v): fixed(v.bitPattern)
        case .string(let v), .objectPath(let v): try putString(v)
        case .signature(let v): signatureBytes(v)
        case .array(let elementSignature, let items):
            try putArray(elementSignature) { (writer) throws(DBusError) in for item in items { try writer.put(item) } }
        case .dictionary(let key, let valueType, let entries):
            try putArray("{" + key + valueType + "}") { (writer) throws(DBusError) in
                for entry in entries {
                    writer.pad(to: 8)
                    try writer.put(entry.key)
                    try writer.put(entry.value)
                }
            }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { try put(field) }
        case .variant(let inner):
            signatureBytes(inner.signature)
            try put(inner)
        }
    }

    private mutating func putArray(_ elementSignature: String, _ elements: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        pad(to: 4)
        let lengthAt = bytes.count
        bytes.append(contentsOf: [0, 0, 0, 0])
        pad(to: WireFormat.alignment(of: elementSignature.utf8.first ?? UInt8(ascii: "y")))
        let start = bytes.count
        try elements(&self)
        try patchLength(at: lengthAt, bytes.count - start)
    }

    private func mismatch(_ written: String) -> DBusError {
        let expected = position < end ? text(position, end) : "nothing more"
        return .failed("writing \(written) where the signature \(text(0, signature.count)) has \(expected)")
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: signature[start..<end]), as: UTF8.self)
    }
}

/// Constants of the wire format (specification, "Marshaling (Wire Format)").
enum WireFormat {
    /// Arrays hold at most 2^26 bytes (64 MiB), the specification's limit.
    static let maximumArrayBytes = 1 << 26

    /// The alignment of a type by its first code (specification, "Summary of types").
    static func alignment(of code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4  // b i u s o a h
        }
    }
}
