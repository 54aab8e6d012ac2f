import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Reads a message body value by value, straight from libdbus's iterator, without building
/// `DBusValue` trees first: the reading half of `DBusWriter`, for bodies of thousands of
/// entries.
///
/// Every read checks the iterator's type first, so a body of another shape is an
/// `InvalidArgs` error naming what was expected, never an out-of-bounds read. (libdbus
/// validated the body against its signature on receipt, `_dbus_validate_body_with_reason`.)
public struct DBusReader: ~Copyable {
    private var iter: DBusMessageIter
    /// Complete values read at this level; an array checks that each element read one.
    private var consumed = 0

    private init(iter: DBusMessageIter) { self.iter = iter }

    /// Reads `message`'s body from its first argument.
    static func readBody<T>(of message: DBusMessage, _ body: (inout DBusReader) throws(DBusError) -> T) throws(DBusError) -> T {
        var iter = DBusMessageIter()
        dbus_message_iter_init(message.raw, &iter)  // false for an empty body: the iterator is then at its end
        var reader = DBusReader(iter: iter)
        return try body(&reader)
    }

    /// True when nothing is left at this level (the body, or the container being read).
    public var isAtEnd: Bool {
        mutating get { dbus_message_iter_get_arg_type(&iter) == fit_dbus_type_invalid }
    }

    // MARK: basic values

    public mutating func bool() throws(DBusError) -> Bool {
        try basic(fit_dbus_type_boolean, "b").bool_val != 0
    }
    public mutating func byte() throws(DBusError) -> UInt8 { try basic(fit_dbus_type_byte, "y").byt }
    public mutating func int32() throws(DBusError) -> Int32 { try basic(fit_dbus_type_int32, "i").i32 }
    public mutating func uint32() throws(DBusError) -> UInt32 { try basic(fit_dbus_type_uint32, "u").u32 }
    public mutating func int64() throws(DBusError) -> Int64 { Int64(try basic(fit_dbus_type_int64, "x").i64) }
    public mutating func uint64() throws(DBusError) -> UInt64 { UInt64(try basic(fit_dbus_type_uint64, "t").u64) }
    public mutating func double() throws(DBusError) -> Double { try basic(fit_dbus_type_double, "d").dbl }

    public mutating func string() throws(DBusError) -> String {
        let value = try basic(fit_dbus_type_string, "s")
        guard let pointer = value.str, let text = String(validatingCString: pointer) else {
            throw .invalidArgs("a string argument is not valid UTF-8")
        }
        return text
    }

    /// The value inside a variant (`v`).
    public mutating func variant() throws(DBusError) -> DBusValue {
        try expect(fit_dbus_type_variant, "v")
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var decoder = MessageDecoder(signature: UnsafeBufferPointer(start: nil, count: 0))
        let value = try decoder.readVariantContent(&sub)
        step()
        return value
    }

    /// The next complete value, whatever its type: the general path, for the odd value a
    /// fast reader meets.
    public mutating func value() throws(DBusError) -> DBusValue {
        guard dbus_message_iter_get_arg_type(&iter) != fit_dbus_type_invalid else { throw Self.missing("a value") }
        // dbus_message_iter_get_signature returns memory the caller frees with dbus_free.
        guard let text = dbus_message_iter_get_signature(&iter) else { throw .noMemory("reading a signature") }
        defer { dbus_free(text) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
        var decoder = MessageDecoder(signature: bytes)
        var position = 0
        let value = try decoder.read(&iter, at: &position)
        step()
        return value
    }

    // MARK: containers

    /// A structure or a dictionary entry: `body` reads its fields, all of them.
    public mutating func structure<T>(_ body: (inout DBusReader) throws(DBusError) -> T) throws(DBusError) -> T {
        let type = dbus_message_iter_get_arg_type(&iter)
        guard type == fit_dbus_type_struct || type == fit_dbus_type_dict_entry else { throw mismatch("a structure", type) }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var reader = DBusReader(iter: sub)
        let value = try body(&reader)
        guard reader.isAtEnd else { throw .invalidArgs("a structure has more fields than expected") }
        step()
        return value
    }

    /// An array (dictionaries included): `element` runs once per element and reads exactly
    /// that element. Returns the number of elements.
    @discardableResult
    public mutating func array(_ element: (inout DBusReader) throws(DBusError) -> Void) throws(DBusError) -> Int {
        try expect(fit_dbus_type_array, "an array")
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var reader = DBusReader(iter: sub)
        while !reader.isAtEnd {
            let before = reader.consumed
            try element(&reader)
            guard reader.consumed == before + 1 else {
                throw .failed("an array element was read as \(reader.consumed - before) values")
            }
        }
        step()
        return reader.consumed
    }

    // MARK: internals

    private mutating func basic(_ type: Int32, _ name: String) throws(DBusError) -> DBusBasicValue {
        try expect(type, name)
        var value = DBusBasicValue()
        dbus_message_iter_get_basic(&iter, &value)
        step()
        return value
    }

    private mutating func expect(_ type: Int32, _ name: String) throws(DBusError) {
        let actual = dbus_message_iter_get_arg_type(&iter)
        guard actual == type else { throw mismatch(name, actual) }
    }

    private mutating func step() {
        dbus_message_iter_next(&iter)
        consumed += 1
    }

    private func mismatch(_ expected: String, _ actual: Int32) -> DBusError {
        actual == fit_dbus_type_invalid
            ? Self.missing(expected)
            : .invalidArgs("expected \(expected), found type '\(Unicode.Scalar(UInt8(truncatingIfNeeded: actual)))'")
    }

    private static func missing(_ expected: String) -> DBusError {
        .invalidArgs("expected \(expected), but the arguments end here")
    }
}
