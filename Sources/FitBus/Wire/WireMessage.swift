import CDBus

/// Messages assembled from a body already in the wire format (DBusWriter): the header is
/// written here and libdbus takes the whole message with `dbus_message_demarshal`, which
/// validates header and body as it would a message from a socket. The result is copied once
/// (`dbus_message_copy`), because a copy's serial is 0 and unlocked, so the connection gives
/// it its next serial when it is sent, as for any other message.
extension DBusMessage {
    /// Header field codes (specification, "Header Fields").
    private enum Field: UInt8 {
        case path = 1, interface = 2, member = 3, replySerial = 5, destination = 6, signature = 8
    }

    static func methodCall(
        destination: String?, path: String, interface: String?, member: String, signature: String, body: [UInt8]
    ) throws(DBusError) -> DBusMessage {
        if let destination { try DBusNames.requireBusName(destination) }
        try DBusNames.requireObjectPath(path)
        if let interface { try DBusNames.requireInterface(interface) }
        try DBusNames.requireMember(member)
        var fields: [(Field, DBusValue)] = [(.path, .objectPath(path))]
        if let interface { fields.append((.interface, .string(interface))) }
        fields.append((.member, .string(member)))
        if let destination { fields.append((.destination, .string(destination))) }
        return try assemble(kind: .methodCall, fields: fields, signature: signature, body: body)
    }

    static func methodReturn(
        to serial: UInt32, destination: String?, signature: String, body: [UInt8]
    ) throws(DBusError) -> DBusMessage {
        var fields: [(Field, DBusValue)] = [(.replySerial, .uint32(serial))]
        if let destination, DBusNames.isValidBusName(destination) { fields.append((.destination, .string(destination))) }
        return try assemble(kind: .methodReturn, fields: fields, signature: signature, body: body)
    }

    private static func assemble(
        kind: Kind, fields: [(Field, DBusValue)], signature: String, body: [UInt8]
    ) throws(DBusError) -> DBusMessage {
        guard let length = UInt32(exactly: body.count) else { throw DBusError(.limitsExceeded, "a body of \(body.count) bytes") }
        let allFields = signature.isEmpty ? fields : fields + [(.signature, .signature(signature))]
        // Fixed part: byte order, type, flags, version, body length, serial (any non-zero
        // value: the copy below resets it). The fields follow at offset 12, so they are
        // written after those 12 bytes to get their alignment right.
        var prefix: [UInt8] = [UInt8(ascii: "l"), UInt8(kind.rawValue), 0, 1]
        withUnsafeBytes(of: length.littleEndian) { prefix.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(1).littleEndian) { prefix.append(contentsOf: $0) }
        var message = try DBusWriter.body(prefix: prefix, signature: "a(yv)") { (writer) throws(DBusError) in
            try writer.array { (entries) throws(DBusError) in
                for (code, value) in allFields {
                    try entries.structure { (field) throws(DBusError) in
                        try field.append(code.rawValue)
                        try field.append(DBusValue.variant(value))
                    }
                }
            }
        }
        message.append(contentsOf: repeatElement(0, count: (8 - message.count % 8) % 8))
        message.append(contentsOf: body)
        guard message.count <= Int(Int32.max) else { throw DBusError(.limitsExceeded, "a message of \(message.count) bytes") }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let parsed = message.withUnsafeBytes { raw in
            dbus_message_demarshal(raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), &error)
        }
        guard let parsed else {
            let reason = error.message.map { String(cString: $0) } ?? "no memory"
            throw .failed("libdbus refused a message fitd assembled: \(reason)")
        }
        defer { dbus_message_unref(parsed) }
        guard let copy = dbus_message_copy(parsed) else { throw .noMemory("copying a message") }
        let assembled = DBusMessage(owning: copy)
        assembled.knownBodyBytes = body.count
        return assembled
    }
}
