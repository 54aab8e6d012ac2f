import CDBus

/// The length of values in the wire format (specification, "Marshaling (Wire Format)"),
/// worked out from the values rather than from marshalled bytes: libdbus has no call that
/// gives a message's body length, and `dbus_message_marshal` copies the whole message to
/// tell. What fitd builds knows its body's length from this walk (DBusMessage.append) or
/// from DBusWriter's bytes, so a reply is sized for the bus's limit, a client's unread
/// bytes and a reply cache's budget without being copied.
extension DBusValue {
    /// Where a body of `values` ends when the first starts at `offset` (the body's start is
    /// aligned to 8, so offsets count from it).
    static func wireEnd(of values: [DBusValue], from offset: Int) -> Int {
        var end = offset
        for value in values { end = value.wireEnd(from: end) }
        return end
    }

    func wireEnd(from offset: Int) -> Int {
        switch self {
        case .byte: return offset + 1
        case .boolean, .int32, .uint32: return Self.aligned(offset, 4) + 4
        case .int16, .uint16: return Self.aligned(offset, 2) + 2
        case .int64, .uint64, .double: return Self.aligned(offset, 8) + 8
        case .string(let text), .objectPath(let text): return Self.aligned(offset, 4) + 4 + text.utf8.count + 1
        case .signature(let text): return offset + 1 + text.utf8.count + 1
        case .array(let element, let items):
            // The length, then padding to the element's alignment even when there are none.
            var end = Self.aligned(Self.aligned(offset, 4) + 4, Self.alignment(of: element))
            for item in items { end = item.wireEnd(from: end) }
            return end
        case .dictionary(_, _, let entries):
            var end = Self.aligned(Self.aligned(offset, 4) + 4, 8)
            for entry in entries { end = entry.value.wireEnd(from: entry.key.wireEnd(from: Self.aligned(end, 8))) }
            return end
        case .structure(let fields):
            return Self.wireEnd(of: fields, from: Self.aligned(offset, 8))
        case .variant(let inner):
            // The inner value's signature (a `g`), then the value at its own alignment.
            return inner.wireEnd(from: offset + 1 + inner.signature.utf8.count + 1)
        }
    }

    /// The alignment of a type by its first code (specification, "Summary of types").
    static func alignment(of signature: String) -> Int {
        switch signature.utf8.first {
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "a"),
            UInt8(ascii: "h"):
            4
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 1  // y, g, v
        }
    }

    static func aligned(_ offset: Int, _ alignment: Int) -> Int {
        (offset + alignment - 1) & ~(alignment - 1)
    }
}

extension DBusMessage {
    /// The header's length as fitd sends it: the fixed 16 bytes, then the fields it sets
    /// (path, interface, member, error name, reply serial, destination, signature), each an
    /// 8-aligned `(yv)`, padded to 8 (specification, "Message Format"). The bus adds its
    /// sender field on the way; that is not counted.
    var headerBytes: Int {
        var end = 16
        func field(_ value: DBusValue) {
            // The field code, then the variant: its one-letter signature, then the value.
            end = value.wireEnd(from: DBusValue.aligned(end, 8) + 1 + 3)
        }
        func string(_ text: UnsafePointer<CChar>?) { if let text { field(.string(String(cString: text))) } }
        if let path = dbus_message_get_path(raw) { field(.objectPath(String(cString: path))) }
        string(dbus_message_get_interface(raw))
        string(dbus_message_get_member(raw))
        string(dbus_message_get_error_name(raw))
        if dbus_message_get_reply_serial(raw) != 0 { field(.uint32(0)) }
        string(dbus_message_get_destination(raw))
        if let signature = dbus_message_get_signature(raw), signature.pointee != 0 { field(.signature(String(cString: signature))) }
        return DBusValue.aligned(end, 8)
    }
}
