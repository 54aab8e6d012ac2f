import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Reads a message body in the D-Bus wire format, value by value, straight from its bytes:
/// the reading half of `DBusWriter`, for bodies of thousands of entries.
///
/// libdbus validated the whole body against its signature on receipt
/// (`_dbus_validate_body_with_reason`); the reader still checks every read against the
/// signature and every offset against the body's length, so a body of another shape is an
/// `InvalidArgs` error naming what was expected, never an out-of-bounds read.
public struct DBusReader: ~Copyable {
    private let bytes: UnsafeRawBufferPointer
    /// The sender's byte order: `B` in the message's first byte (specification, "Message Format").
    private let bigEndian: Bool
    private var offset = 0
    private let signature: UnsafeBufferPointer<UInt8>
    private let typeEnds: TypeEnds
    /// The next type code to read, and where the container being read ends (as in DBusWriter).
    private var position = 0
    private var end: Int
    /// Inside an array: its element type, and the offset where its elements end.
    private var element: Range<Int>?
    private var limit: Int

    private init(bytes: UnsafeRawBufferPointer, bigEndian: Bool, signature: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.bigEndian = bigEndian
        self.signature = signature
        self.typeEnds = TypeEnds(signature)
        self.end = signature.count
        self.limit = bytes.count
    }

    /// Reads `message`'s body. libdbus has no call that lends a body's bytes, so the message
    /// is marshalled into one buffer (dbus_message_marshal) and the body found after the
    /// header (specification, "Message Format": the header is padded to 8).
    static func readBody<T>(of message: DBusMessage, _ read: (inout DBusReader) throws(DBusError) -> T) throws(DBusError) -> T {
        let signatureText = dbus_message_get_signature(message.raw)
        let signature = signatureText.map {
            UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))
        } ?? UnsafeBufferPointer(start: nil, count: 0)
        return try withBody(of: message) { (body, bigEndian) throws(DBusError) in
            var reader = DBusReader(bytes: body, bigEndian: bigEndian, signature: signature)
            return try read(&reader)
        }
    }

    /// Reads values already decoded, through a message body of them: the codecs then need
    /// one reader per format, whichever way the values arrived.
    public static func read<T>(_ values: [DBusValue], _ read: (inout DBusReader) throws(DBusError) -> T) throws(DBusError) -> T {
        guard let raw = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN) else { throw .noMemory("creating a message") }
        let message = DBusMessage(owning: raw)
        try message.append(values)
        return try readBody(of: message, read)
    }

    /// Lends the body's bytes and whether the sender is big-endian. libdbus has no call that
    /// lends a body, so the message is marshalled into one buffer (dbus_message_marshal) and
    /// the body found after the header (specification, "Message Format": padded to 8).
    static func withBody<T>(
        of message: DBusMessage, _ body: (UnsafeRawBufferPointer, Bool) throws(DBusError) -> T
    ) throws(DBusError) -> T {
        var pointer: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &pointer, &length) != 0, let pointer else {
            throw .noMemory("reading a message")
        }
        defer { dbus_free(pointer) }
        let whole = UnsafeRawBufferPointer(start: pointer, count: Int(length))
        guard whole.count >= 16 else { throw malformed }
        let bigEndian = whole[0] == UInt8(ascii: "B")
        func word(_ at: Int) -> Int {
            let raw = whole.loadUnaligned(fromByteOffset: at, as: UInt32.self)
            return Int(bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
        }
        let bodyLength = word(4), fieldsLength = word(12)
        let bodyStart = (16 + fieldsLength + 7) & ~7
        guard bodyStart <= whole.count, whole.count - bodyStart == bodyLength else { throw malformed }
        return try body(UnsafeRawBufferPointer(rebasing: whole[bodyStart...]), bigEndian)
    }

    /// True when nothing is left at this level (the body, a structure, or an array's elements).
    public var isAtEnd: Bool {
        element != nil ? offset >= limit : position >= end
    }

    // MARK: basic values

    public mutating func bool() throws(DBusError) -> Bool {
        try expect("b", "a boolean")
        return try load(UInt32.self) != 0
    }
    public mutating func byte() throws(DBusError) -> UInt8 { try expect("y", "a byte"); return try load(UInt8.self) }
    public mutating func int32() throws(DBusError) -> Int32 { try expect("i", "an int32"); return Int32(bitPattern: try load(UInt32.self)) }
    public mutating func uint32() throws(DBusError) -> UInt32 { try expect("u", "a uint32"); return try load(UInt32.self) }
    public mutating func int64() throws(DBusError) -> Int64 { try expect("x", "an int64"); return Int64(bitPattern: try load(UInt64.self)) }
    public mutating func uint64() throws(DBusError) -> UInt64 { try expect("t", "a uint64"); return try load(UInt64.self) }
    public mutating func double() throws(DBusError) -> Double { try expect("d", "a double"); return Double(bitPattern: try load(UInt64.self)) }

    public mutating func string() throws(DBusError) -> String {
        try expect("s", "a string")
        return try loadString()
    }

    /// The value inside a variant (`v`).
    public mutating func variant() throws(DBusError) -> DBusValue {
        try expect("v", "a variant")
        let value = try decodeVariant(depth: 0)
        step()
        return value
    }

    /// The next complete value, whatever its type: the general path, for the odd value a
    /// fast reader meets.
    public mutating func value() throws(DBusError) -> DBusValue {
        guard position < end else { throw Self.missing("a value") }
        var at = position
        let value = try decode(signature, &at, depth: 0)
        position = at - 1  // `step` moves past the type's last code
        step()
        return value
    }

    // MARK: containers

    /// A structure or a dictionary entry: `body` reads its fields, all of them.
    public mutating func structure<T>(_ body: (inout DBusReader) throws(DBusError) -> T) throws(DBusError) -> T {
        guard position < end, signature[position] == UInt8(ascii: "(") || signature[position] == UInt8(ascii: "{") else {
            throw mismatch("a structure")
        }
        guard let after = typeEnds[position], after <= end else { throw Self.malformed }
        try align(8)
        let saved = (end, element, limit)
        (position, end, element) = (position + 1, after - 1, nil)
        let value = try body(&self)
        guard position == after - 1 else { throw .invalidArgs("a structure has more fields than were read") }
        (end, element, limit) = saved
        position = after - 1
        step()
        return value
    }

    /// An array (dictionaries included): `element` runs once per element and reads exactly
    /// that element. Returns the number of elements.
    @discardableResult
    public mutating func array(_ each: (inout DBusReader) throws(DBusError) -> Void) throws(DBusError) -> Int {
        try expect("a", "an array")
        let elementStart = position + 1
        guard let elementEnd = typeEnds[elementStart], elementEnd <= end else {
            throw Self.malformed
        }
        let length = Int(try load(UInt32.self, advancing: false))
        try align(WireFormat.alignment(of: signature[elementStart]))
        guard length <= limit - offset else { throw Self.malformed }
        let saved = (end, element, limit)
        (position, end, element, limit) = (elementStart, elementEnd, elementStart..<elementEnd, offset + length)
        var count = 0
        while offset < limit {
            let before = offset
            try each(&self)
            guard position == elementStart, offset > before else {
                throw .failed("an element of the array \(text(elementStart - 1, elementEnd)) was not read whole")
            }
            count += 1
        }
        guard offset == limit else { throw Self.malformed }
        (end, element, limit) = saved
        position = elementEnd - 1
        step()
        return count
    }

    // MARK: internals

    private static let malformed = DBusError.invalidArgs("the message body does not match its signature")

    private func expect(_ code: Unicode.Scalar, _ name: String) throws(DBusError) {
        guard position < end, signature[position] == UInt8(code.value) else { throw mismatch(name) }
    }

    /// Past the type code at `position`; after a whole element of an array, the next one starts over.
    private mutating func step() {
        position += 1
        if let element, position == element.upperBound { position = element.lowerBound }
    }

    private mutating func align(_ alignment: Int) throws(DBusError) {
        let aligned = (offset + alignment - 1) & ~(alignment - 1)
        guard aligned <= limit else { throw Self.malformed }
        offset = aligned
    }

    /// A fixed-size value at the next aligned offset; `advancing` steps the signature too.
    private mutating func load<T: FixedWidthInteger>(_: T.Type, advancing: Bool = true) throws(DBusError) -> T {
        try align(MemoryLayout<T>.size)
        guard MemoryLayout<T>.size <= limit - offset else { throw Self.malformed }
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
        if advancing { step() }
        return bigEndian ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    /// A string or object path: length, bytes, NUL. Steps the signature.
    private mutating func loadString() throws(DBusError) -> String {
        let length = Int(try load(UInt32.self, advancing: false))
        guard length < limit - offset, bytes[offset + length] == 0 else { throw Self.malformed }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        offset += length + 1
        step()
        return text
    }

    /// A signature value (`g`): one length byte, the codes, NUL. Does not step.
    private mutating func loadSignature() throws(DBusError) -> [UInt8] {
        guard offset < limit else { throw Self.malformed }
        let length = Int(bytes[offset])
        guard length < limit - offset - 1, bytes[offset + 1 + length] == 0 else { throw Self.malformed }
        let codes = Array(bytes[(offset + 1)..<(offset + 1 + length)])
        offset += length + 2
        return codes
    }

    /// A variant's content: its signature, then one value of exactly that type. Does not step.
    private mutating func decodeVariant(depth: Int) throws(DBusError) -> DBusValue {
        let inner = try loadSignature()
        // String.withUTF8-style rethrowing closures lose typed errors; carry them out.
        var result: Result<DBusValue, DBusError> = .failure(Self.malformed)
        inner.withUnsafeBufferPointer { codes in
            result = Result { () throws(DBusError) in
                var at = 0
                let value = try decode(codes, &at, depth: depth + 1)
                guard at == codes.count else { throw Self.malformed }
                return value
            }
        }
        return try result.get()
    }

    /// Any value of the complete type at `at` in `codes` (the body's signature or a
    /// variant's), leaving `at` after it. Does not step the reader's own signature.
    private mutating func decode(_ codes: UnsafeBufferPointer<UInt8>, _ at: inout Int, depth: Int) throws(DBusError) -> DBusValue {
        // libdbus bounds a message's nesting at 64 containers; a body it accepted never gets here.
        guard depth <= DBusValue.maximumTotalDepth, at < codes.count else { throw Self.malformed }
        let code = codes[at]
        let saved = (position, end, element)
        defer { (position, end, element) = saved }
        // Each scalar is read with the machinery above, pointed at a one-code signature.
        func scalar<T: FixedWidthInteger>(_: T.Type) throws(DBusError) -> T {
            at += 1
            return try load(T.self, advancing: false)
        }
        switch code {
        case UInt8(ascii: "y"): return .byte(try scalar(UInt8.self))
        case UInt8(ascii: "b"): return .boolean(try scalar(UInt32.self) != 0)
        case UInt8(ascii: "n"): return .int16(Int16(bitPattern: try scalar(UInt16.self)))
        case UInt8(ascii: "q"): return .uint16(try scalar(UInt16.self))
        case UInt8(ascii: "i"): return .int32(Int32(bitPattern: try scalar(UInt32.self)))
        case UInt8(ascii: "u"): return .uint32(try scalar(UInt32.self))
        case UInt8(ascii: "x"): return .int64(Int64(bitPattern: try scalar(UInt64.self)))
        case UInt8(ascii: "t"): return .uint64(try scalar(UInt64.self))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try scalar(UInt64.self)))
        case UInt8(ascii: "s"), UInt8(ascii: "o"):
            at += 1
            let text = try loadString()
            return code == UInt8(ascii: "s") ? .string(text) : .objectPath(text)
        case UInt8(ascii: "g"):
            at += 1
            return .signature(String(decoding: try loadSignature(), as: UTF8.self))
        case UInt8(ascii: "v"):
            at += 1
            return .variant(try decodeVariant(depth: depth))
        case UInt8(ascii: "("):
            try align(8)
            var fields: [DBusValue] = []
            at += 1
            while at < codes.count, codes[at] != UInt8(ascii: ")") {
                fields.append(try decode(codes, &at, depth: depth + 1))
            }
            guard at < codes.count else { throw Self.malformed }
            at += 1
            return .structure(fields)
        case UInt8(ascii: "a"):
            let elementStart = at + 1
            guard let elementEnd = DBusSignature.completeTypeEnd(codes, elementStart) else { throw Self.malformed }
            let length = Int(try load(UInt32.self, advancing: false))
            try align(WireFormat.alignment(of: codes[elementStart]))
            guard length <= limit - offset else { throw Self.malformed }
            let arrayEnd = offset + length
            let savedLimit = limit
            limit = arrayEnd
            defer { limit = savedLimit }
            let elementText = String(decoding: UnsafeBufferPointer(rebasing: codes[elementStart..<elementEnd]), as: UTF8.self)
            at = elementEnd
            if codes[elementStart] == UInt8(ascii: "{") {
                guard elementEnd - elementStart >= 4 else { throw Self.malformed }
                var entries: [(key: DBusValue, value: DBusValue)] = []
                while offset < arrayEnd {
                    try align(8)
                    var inner = elementStart + 1
                    let key = try decode(codes, &inner, depth: depth + 2)
                    entries.append((key, try decode(codes, &inner, depth: depth + 2)))
                }
                guard offset == arrayEnd else { throw Self.malformed }
                let key = String(UnicodeScalar(codes[elementStart + 1]))
                let valueType = String(decoding: UnsafeBufferPointer(rebasing: codes[(elementStart + 2)..<(elementEnd - 1)]), as: UTF8.self)
                return .dictionary(keySignature: key, valueSignature: valueType, entries)
            }
            var items: [DBusValue] = []
            while offset < arrayEnd {
                var inner = elementStart
                items.append(try decode(codes, &inner, depth: depth + 1))
            }
            guard offset == arrayEnd else { throw Self.malformed }
            return .array(elementSignature: elementText, items)
        default:
            // `h` (unix fd): see DBusValue for why FitBus does not support it.
            throw .invalidArgs("unsupported D-Bus type code \(code)")
        }
    }

    private func mismatch(_ expected: String) -> DBusError {
        position < end
            ? .invalidArgs("expected \(expected), found type \(text(position, position + 1)) in \(text(0, signature.count))")
            : Self.missing(expected)
    }

    private static func missing(_ expected: String) -> DBusError {
        .invalidArgs("expected \(expected), but the arguments end here")
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: signature[start..<end]), as: UTF8.self)
    }
}
