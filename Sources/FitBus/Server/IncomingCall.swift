import Synchronization

/// What a method handler knows about the call it serves.
public struct MessageContext: Sendable {
    /// The caller's unique name; nil on a peer-to-peer connection.
    public var sender: String?
    public var path: String
    public var interface: String?
    public var member: String
    public var signature: String
    /// The connection the call came in on, e.g. to emit signals from a handler.
    public var connection: BusConnection
    /// What the method's fast path worked out before handing the call on
    /// (DBusImmediateOutcome.handOver); nil when it did not run or handed nothing.
    public var handedOver: (any Sendable)? = nil
}

/// A method call as the loop thread hands it to a dispatching task.
struct IncomingCall: Sendable {
    var serial: UInt32
    var sender: String?
    var path: String
    var interface: String?
    var member: String
    var signature: String
    var noReplyExpected: Bool
    /// Where to keep the reply, when the method has a reply cache that missed.
    var cacheTicket: ReplyCacheTicket?
    /// The arguments, when the loop thread decoded them already (a fast path ran), and what
    /// the fast path handed on.
    var decoded: [DBusValue]? = nil
    var handedOver: (any Sendable)? = nil
    /// The message itself, decoded by the dispatching task (``decodeArguments()``): decoding
    /// a large body on the loop thread (a batch of 100,000 entries: hundreds of ms) would
    /// hold up every other caller of the connection for as long.
    var body: MessageHandOver

    /// The arguments; a failure (an unsupported type) is answered with its error and no
    /// handler runs.
    func decodeArguments() -> Result<[DBusValue], DBusError> {
        if let decoded { return .success(decoded) }
        guard let message = body.take() else { return .failure(.failed("the call's arguments were already decoded")) }
        return Result { () throws(DBusError) in try message.arguments() }
    }
}

/// Hands one message from one thread to another. A `DBusMessage` must be used by one thread
/// at a time; the lock makes the hand-over explicit, and `take()` leaves nothing behind, so
/// after it only the taker holds the message. libdbus no longer touches a message once
/// it was received (it is locked) or before it is sent.
final class MessageHandOver: Sendable {
    private let message: Mutex<DBusMessage?>

    init(_ message: consuming sending DBusMessage?) { self.message = Mutex(message) }

    convenience init(handing message: consuming sending DBusMessage) { self.init(Optional(message)) }

    func take() -> DBusMessage? { message.withLock { $0.take() } }
}
