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

/// A method's reply body, in the wire format (DBusWriter), written before the reply itself
/// exists: the dispatcher assembles the method return around it with the call's serial and
/// sender.
public struct DBusReplyBody: Sendable {
    let signature: String
    let bytes: [UInt8]

    /// Writes a body of `signature` (the method's declared out-signature) with `body`.
    public init(signature: String, _ body: (inout DBusWriter) throws(DBusError) -> Void) throws(DBusError) {
        self.bytes = try DBusWriter.body(signature: signature, body)
        self.signature = signature
    }

    /// The reply to a call: the method return carrying this body.
    func reply(to serial: UInt32, destination: String?) throws(DBusError) -> DBusMessage {
        try DBusMessage.methodReturn(to: serial, destination: destination, signature: signature, body: bytes)
    }
}
