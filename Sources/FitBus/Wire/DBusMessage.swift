import CDBus

/// A libdbus message. Owns exactly one reference (`dbus_message_ref`/`dbus_message_unref`,
/// libdbus "DBusMessage" docs) and releases it in `deinit`.
///
/// Not Sendable: libdbus messages are not safe to mutate from two threads, so a message
/// lives on one thread. `BusConnection` builds and reads messages only on its loop thread
/// and hands Swift values (`[DBusValue]`, `DBusSignal`, …) to other threads instead.
public final class DBusMessage {
    let raw: OpaquePointer
    /// The body's length in bytes when fitd built the message and knows it (a reply written
    /// by DBusWriter, or values appended to a new reply: DBusValue+WireLength); nil for a
    /// message from the socket.
    var knownBodyBytes: Int?

    /// Takes over the reference a `dbus_message_new*` or `dbus_pending_call_steal_reply`
    /// returned to the caller.
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to a pointer lent by libdbus (a filter function's argument, which
    /// libdbus unreferences after the filter returns).
    init(borrowing raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    /// `DBUS_MESSAGE_TYPE_*` (specification, "Message Types").
    public enum Kind: Int32, Sendable {
        case invalid = 0, methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    /// A method call (`dbus_message_new_method_call`). Names are checked first because
    /// libdbus aborts on an invalid one.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String
    ) throws(DBusError) -> DBusMessage {
        if let destination { try DBusNames.requireBusName(destination) }
        try DBusNames.requireObjectPath(path)
        if let interface { try DBusNames.requireInterface(interface) }
        try DBusNames.requireMember(member)
        let raw = withOptionalCString(destination) { dest in
            path.withCString { p in
                withOptionalCString(interface) { i in
                    member.withCString { m in dbus_message_new_method_call(dest, p, i, m) }
                }
            }
        }
        guard let raw else { throw .noMemory("creating a method call") }
        return DBusMessage(owning: raw)
    }

    /// A signal (`dbus_message_new_signal`); a signal always names its interface.
    public static func signal(path: String, interface: String, member: String) throws(DBusError) -> DBusMessage {
        try DBusNames.requireObjectPath(path)
        try DBusNames.requireInterface(interface)
        try DBusNames.requireMember(member)
        let raw = path.withCString { p in
            interface.withCString { i in member.withCString { m in dbus_message_new_signal(p, i, m) } }
        }
        guard let raw else { throw .noMemory("creating a signal") }
        return DBusMessage(owning: raw)
    }

    /// A method return or error for a call known only by its serial and sender, so the
    /// original message need not outlive the loop iteration that decoded it.
    static func reply(
        to serial: UInt32, destination: String?, error: DBusError? = nil
    ) throws(DBusError) -> DBusMessage {
        let kind = error == nil ? DBUS_MESSAGE_TYPE_METHOD_RETURN : DBUS_MESSAGE_TYPE_ERROR
        guard let raw = dbus_message_new(kind) else { throw .noMemory("creating a reply") }
        let message = DBusMessage(owning: raw)
        message.knownBodyBytes = 0
        guard dbus_message_set_reply_serial(raw, serial) != 0 else { throw .noMemory("setting a reply serial") }
        if let destination, DBusNames.isValidBusName(destination) {
            guard destination.withCString({ dbus_message_set_destination(raw, $0) }) != 0 else {
                throw .noMemory("setting a destination")
            }
        }
        if let error {
            // A handler may throw any name; an invalid one would abort libdbus, so it
            // becomes Failed with the original name kept in the message.
            let valid = DBusNames.isValidErrorName(error.name.rawValue)
            let name = valid ? error.name.rawValue : DBusError.Name.failed.rawValue
            let text = valid ? error.message : "\(error.name.rawValue): \(error.message)"
            guard name.withCString({ dbus_message_set_error_name(raw, $0) }) != 0 else {
                throw .noMemory("setting an error name")
            }
            try message.append([.string(text.replacingNULs())])
        }
        return message
    }

    public var kind: Kind { Kind(rawValue: dbus_message_get_type(raw)) ?? .invalid }
    public var path: String? { string(dbus_message_get_path(raw)) }
    public var interface: String? { string(dbus_message_get_interface(raw)) }
    public var member: String? { string(dbus_message_get_member(raw)) }
    public var sender: String? { string(dbus_message_get_sender(raw)) }
    public var destination: String? { string(dbus_message_get_destination(raw)) }
    public var errorName: String? { string(dbus_message_get_error_name(raw)) }
    /// The body signature; libdbus returns "" for an empty body.
    public var signature: String { string(dbus_message_get_signature(raw)) ?? "" }
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    /// NO_REPLY_EXPECTED (specification, "Message Format", flags): the caller wants no reply.
    public var noReplyExpected: Bool {
        get { dbus_message_get_no_reply(raw) != 0 }
        set { dbus_message_set_no_reply(raw, newValue ? 1 : 0) }
    }

    /// The error this message carries, when it is an error reply.
    var asError: DBusError? {
        guard kind == .error else { return nil }
        let text: String
        if let arguments = try? arguments(), case .string(let first)? = arguments.first {
            text = first
        } else {
            text = ""
        }
        return DBusError(.init(rawValue: errorName ?? DBusError.Name.failed.rawValue), text)
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(validatingCString: pointer)
    }
}

func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

extension String {
    /// D-Bus strings cannot hold NUL (specification, "Basic types": STRING).
    func replacingNULs() -> String {
        utf8.contains(0) ? String(decoding: utf8.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self) : self
    }
}
