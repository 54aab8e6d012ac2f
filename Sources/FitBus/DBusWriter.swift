import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Writes a message body value by value, straight through libdbus's iterator, without
/// building `DBusValue` trees first: what a reply of thousands of entries needs (a
/// MeasureBatch reply of 1,000 results built as trees cost more than measuring them).
///
/// Every write is checked against the body's signature before libdbus sees it, because
/// libdbus aborts the process on an element of the wrong type (its "check failed"
/// warnings are fatal by default). A writer that strays from the signature, leaves a
/// structure half written or a string holding NUL throws `Failed` or `InvalidArgs` instead.
///
/// A writer covers one container: the body, a structure, a dictionary entry or an array,
/// whose element type repeats. Containers are written by nested writers in closures, which
/// is what libdbus's open/close pairs need.
public struct DBusWriter: ~Copyable {
    private var iter: DBusMessageIter
    private let signature: UnsafeBufferPointer<UInt8>
    /// The next type code to write.
    private var position: Int
    /// Where this writer's types end: the body's end, a structure's `)` or an entry's `}`.
    private let end: Int
    /// In an array's writer, the element type; `position` wraps from its end to its start.
    private let element: Range<Int>?
    /// Elements written so far (an array's writer).
    public private(set) var count = 0

    private init(iter: DBusMessageIter, signature: UnsafeBufferPointer<UInt8>, position: Int, end: Int, element: Range<Int>?) {
        self.iter = iter
        self.signature = signature
        self.position = position
        self.end = end
        self.element = element
    }

    /// Writes a whole body of `signature` into `message` (which must still be empty).
    static func writeBody(
        of message: DBusMessage, signature text: String, _ body: @Sendable (inout DBusWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        _ = try DBusSignature(text)  // a valid signature, so libdbus accepts every container of it
        var text = text
        // String.withUTF8 rethrows untyped errors; the writer's is carried out instead.
        let failure = text.withUTF8 { bytes -> DBusError? in
            var iter = DBusMessageIter()
            dbus_message_iter_init_append(message.raw, &iter)
            var writer = DBusWriter(iter: iter, signature: bytes, position: 0, end: bytes.count, element: nil)
            do throws(DBusError) {
                try body(&writer)
            } catch {
                return error
            }
            guard writer.position == bytes.count else {
                return .failed("the body ends after \(writer.position) of the \(bytes.count) type codes of its signature")
            }
            return nil
        }
        if let failure { throw failure }
    }

    // MARK: basic values

    public mutating func append(_ value: Bool) throws(DBusError) {
        try basic("b", fit_dbus_type_boolean, dbus_bool_t(value ? 1 : 0))
    }
    public mutating func append(_ value: UInt8) throws(DBusError) { try basic("y", fit_dbus_type_byte, value) }
    public mutating func append(_ value: Int32) throws(DBusError) { try basic("i", fit_dbus_type_int32, value) }
    public mutating func append(_ value: UInt32) throws(DBusError) { try basic("u", fit_dbus_type_uint32, value) }
    public mutating func append(_ value: Int64) throws(DBusError) { try basic("x", fit_dbus_type_int64, value) }
    public mutating func append(_ value: UInt64) throws(DBusError) { try basic("t", fit_dbus_type_uint64, value) }
    public mutating func append(_ value: Double) throws(DBusError) { try basic("d", fit_dbus_type_double, value) }

    /// A string (`s`). D-Bus strings cannot hold NUL (specification, "Basic types").
    public mutating func append(_ value: String) throws(DBusError) {
        try expect("s")
        var value = value
        let hasNUL = value.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
        guard !hasNUL else { throw .invalidArgs("a D-Bus string cannot contain NUL") }
        let ok = value.withCString { cString in
            var pointer: UnsafePointer<CChar>? = cString
            return dbus_message_iter_append_basic(&iter, fit_dbus_type_string, &pointer)
        }
        guard ok != 0 else { throw .noMemory("appending a string") }
        advance(by: 1)
    }

    /// Any value whose type is the next complete type of the signature; the general path
    /// (validated as `DBusMessage.append` validates), for the odd value a fast writer meets.
    public mutating func append(_ value: DBusValue) throws(DBusError) {
        guard position < end, let next = value.matchEnd(signature, position), next <= end else {
            throw mismatch(value.signature)
        }
        try value.validate()
        try DBusMessage.write(value, to: &iter)
        position = next
        advance()
    }

    // MARK: containers

    /// A structure (`(...)`): `body` writes its fields, all of them.
    public mutating func structure(_ body: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        try container(open: UInt8(ascii: "("), close: UInt8(ascii: ")"), type: fit_dbus_type_struct, body)
    }

    /// One entry of a dictionary (`{kv}`, inside an array): `body` writes the key and the value.
    public mutating func dictionaryEntry(_ body: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        try container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), type: fit_dbus_type_dict_entry, body)
    }

    /// An array (`a...`, dictionaries included): `body` writes any number of whole elements.
    public mutating func array(_ body: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        guard position < end, signature[position] == UInt8(ascii: "a") else { throw mismatch("an array") }
        let elementStart = position + 1
        let elementEnd = try Self.typeEnd(signature, elementStart)
        guard elementEnd <= end else { throw mismatch("an array") }
        var sub = DBusMessageIter()
        // libdbus wants the element signature as a C string: a NUL-terminated copy of the slice.
        let length = elementEnd - elementStart
        let opened = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            for i in 0..<length { buffer[i] = CChar(bitPattern: signature[elementStart + i]) }
            buffer[length] = 0
            return dbus_message_iter_open_container(&iter, fit_dbus_type_array, buffer.baseAddress, &sub)
        }
        guard opened != 0 else { throw .noMemory("opening an array") }
        var writer = DBusWriter(
            iter: sub, signature: signature, position: elementStart, end: elementEnd, element: elementStart..<elementEnd)
        do throws(DBusError) {
            try body(&writer)
            guard writer.position == elementStart else {
                throw DBusError.failed("an array element of \(text(elementStart, elementEnd)) was left half written")
            }
        } catch {
            dbus_message_iter_abandon_container(&iter, &writer.iter)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &writer.iter) != 0 else { throw .noMemory("closing an array") }
        position = elementEnd
        advance()
    }

    // MARK: internals

    private mutating func container(
        open: UInt8, close: UInt8, type: Int32, _ body: (inout DBusWriter) throws(DBusError) -> Void
    ) throws(DBusError) {
        guard position < end, signature[position] == open else { throw mismatch(open == UInt8(ascii: "(") ? "a structure" : "a dictionary entry") }
        let closing = try Self.typeEnd(signature, position) - 1
        var sub = DBusMessageIter()
        guard dbus_message_iter_open_container(&iter, type, nil, &sub) != 0 else { throw .noMemory("opening a container") }
        var writer = DBusWriter(iter: sub, signature: signature, position: position + 1, end: closing, element: nil)
        do throws(DBusError) {
            try body(&writer)
            guard writer.position == closing else {
                throw DBusError.failed("\(text(position, closing + 1)) was closed after \(writer.position - position - 1) of its fields")
            }
        } catch {
            dbus_message_iter_abandon_container(&iter, &writer.iter)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &writer.iter) != 0 else { throw .noMemory("closing a container") }
        position = closing + 1
        advance()
    }

    private mutating func basic<T: BitwiseCopyable>(_ code: Unicode.Scalar, _ type: Int32, _ value: T) throws(DBusError) {
        try expect(code)
        var copy = value
        guard dbus_message_iter_append_basic(&iter, type, &copy) != 0 else { throw .noMemory("appending a value") }
        advance(by: 1)
    }

    private func expect(_ code: Unicode.Scalar) throws(DBusError) {
        guard position < end, signature[position] == UInt8(code.value) else { throw mismatch(String(code)) }
    }

    /// Past the value just written; after a whole element of an array, the next one starts over.
    private mutating func advance(by codes: Int = 0) {
        position += codes
        if let element, position == element.upperBound {
            position = element.lowerBound
            count += 1
        }
    }

    private static func typeEnd(_ signature: UnsafeBufferPointer<UInt8>, _ start: Int) throws(DBusError) -> Int {
        guard let end = DBusSignature.completeTypeEnd(signature, start) else {
            throw .failed("the signature \(String(decoding: signature, as: UTF8.self)) ends inside a type")
        }
        return end
    }

    private func mismatch(_ written: String) -> DBusError {
        let expected = position < end ? "\(text(position, end))" : "nothing more"
        return .failed("writing \(written) where the signature \(text(0, signature.count)) has \(expected)")
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: signature[start..<end]), as: UTF8.self)
    }
}
