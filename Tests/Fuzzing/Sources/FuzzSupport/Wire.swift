import CDBus
#if canImport(Glibc)
import Glibc
#endif
@testable import FitBus

/// Messages as the daemon meets them. `@testable` (the package is built with -enable-testing)
/// for FitBus's internal message constructors: the fuzz targets start where the daemon's
/// own code starts, after libdbus has validated what came off the socket.
public enum Wire {
    public static let path = "/org/fitd/Fit1"
    public static let interface = "org.fitd.Fit1"

    /// A method call carrying `values`, built through libdbus's iterator API (MessageCoding).
    public static func call(_ member: String, _ values: [DBusValue]) throws(FitBus.DBusError) -> DBusMessage {
        let message = try DBusMessage.methodCall(destination: "org.fitd.Fit1", path: path, interface: interface, member: member)
        // FUZZ_VERBOSE=1 shows what a reproducer sends, before libdbus sees it.
        if getenv("FUZZ_VERBOSE") != nil { printError("\(member) \(DBusValue.signature(of: values)): \(values)\n") }
        try message.append(values)
        return message
    }

    /// A method call whose body is `body` as given, of `signature`: libdbus validates it as it
    /// would a message from the socket (dbus_message_demarshal), and refuses what it would refuse.
    public static func call(_ member: String, signature: String, body: [UInt8]) throws(FitBus.DBusError) -> DBusMessage {
        try DBusMessage.methodCall(destination: "org.fitd.Fit1", path: path, interface: interface, member: member, signature: signature, body: body)
    }

    /// The body of `values` written by DBusWriter (the streaming replies' path), not libdbus.
    public static func writerBody(_ values: [DBusValue]) throws(FitBus.DBusError) -> [UInt8] {
        try DBusWriter.body(signature: DBusValue.signature(of: values)) { (writer) throws(FitBus.DBusError) in
            for value in values { try writer.append(value) }
        }
    }

    /// The body bytes of a message (as DBusReader gets them).
    public static func body(of message: DBusMessage) throws(FitBus.DBusError) -> [UInt8] {
        try DBusReader.withBody(of: message) { (bytes, _) throws(FitBus.DBusError) in Array(bytes) }
    }

    /// A whole message in the wire format (dbus_message_marshal), as a socket carries it.
    public static func marshal(_ message: DBusMessage) -> [UInt8] {
        var pointer: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &pointer, &length) != 0, let pointer else { return [] }
        defer { dbus_free(pointer) }
        return Array(UnsafeRawBufferPointer(start: pointer, count: Int(length)))
    }

    /// A message from bytes off a socket (dbus_message_demarshal), nil when libdbus refuses them.
    public static func demarshal(_ bytes: UnsafeRawBufferPointer) -> DBusMessage? {
        guard bytes.count <= Int(Int32.max) else { return nil }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let raw = dbus_message_demarshal(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), &error) else {
            return nil
        }
        return DBusMessage(owning: raw)
    }

    /// The immediate path's bounded decode (MethodDispatcher+Immediate).
    public static func arguments(_ message: DBusMessage, atMost limit: Int) throws(FitBus.DBusError) -> [DBusValue] {
        try message.arguments(atMost: limit)
    }

    /// Reads the body with a reader, as StreamingMethod does.
    public static func read<T>(_ message: DBusMessage, _ body: (inout DBusReader) throws(FitBus.DBusError) -> T) throws(FitBus.DBusError) -> T {
        try DBusReader.readBody(of: message, body)
    }
}
