import CDBus

/// A method handler that reads its arguments straight from the call's message and writes its
/// reply straight into the reply's body (`DBusReader`, `DBusWriter`), for methods whose
/// arguments or results are large: no `DBusValue` tree is built on either side.
public typealias DBusStreamingHandler =
    @Sendable (DBusArguments, MessageContext) async throws(DBusError) -> DBusReplyBody

/// The arguments of a call to a streaming method (already checked against the declared
/// in-signature). The message passes to the handler's task; `read` reads it once.
public struct DBusArguments: Sendable {
    let body: MessageHandOver

    /// Reads the arguments with `reader`; a second call throws Failed.
    public func read<T>(_ reader: (inout DBusReader) throws(DBusError) -> T) throws(DBusError) -> T {
        guard let message = body.take() else { throw .failed("the call's arguments were already read") }
        return try DBusReader.readBody(of: message, reader)
    }
}

/// A method's reply body, written before the reply itself exists: a method return whose
/// serial and destination the dispatcher fills in. Sendable: the message inside is handed
/// over, never shared.
public struct DBusReplyBody: Sendable {
    let signature: String
    let message: MessageHandOver

    /// Writes a body of `signature` (the method's declared out-signature) with `body`.
    public init(signature: String, _ body: @Sendable (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        guard let raw = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN) else { throw .noMemory("creating a reply") }
        let message = DBusMessage(owning: raw)
        try DBusWriter.writeBody(of: message, signature: signature, body)
        self.signature = signature
        self.message = MessageHandOver(message)
    }

    /// The reply to a call: the body's message with the call's serial and sender.
    func reply(to serial: UInt32, destination: String?) throws(DBusError) -> DBusMessage {
        guard let message = message.take() else { throw .failed("the reply body was already sent") }
        guard dbus_message_set_reply_serial(message.raw, serial) != 0 else { throw .noMemory("setting a reply serial") }
        if let destination, DBusNames.isValidBusName(destination) {
            guard destination.withCString({ dbus_message_set_destination(message.raw, $0) }) != 0 else {
                throw .noMemory("setting a destination")
            }
        }
        return message
    }
}
