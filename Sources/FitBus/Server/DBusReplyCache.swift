import CDBus
import Synchronization

/// A method's replies kept by the exact bytes of the call's arguments, so that the same call
/// again is answered on the connection's loop thread with a copy of the earlier reply:
/// nothing decoded, nothing computed, nothing encoded (a cached Layout of 50 nodes spent
/// most of its round trip decoding the document only to find it in a cache).
///
/// Only for methods whose reply depends on nothing but the arguments and state that changes
/// `epoch` (fitd: the generation, bumped when fonts or the text scale change). The store
/// itself (size bound, eviction, statistics) is the service's.
public protocol DBusReplyCache: Sendable {
    /// Changes whenever kept replies go stale; a reply is kept under the epoch its call
    /// arrived in, so one computed across a change is never served after it.
    var epoch: UInt64 { get }
    func reply(for key: DBusRequestKey, epoch: UInt64) -> DBusCachedReply?
    func keep(_ reply: DBusCachedReply, for key: DBusRequestKey, epoch: UInt64)
}

/// A call's arguments exactly: byte order, signature and body bytes.
public struct DBusRequestKey: Hashable, Sendable {
    let bytes: [UInt8]

    /// What the key holds, for a store's byte budget.
    public var size: Int { bytes.count }

    public func hash(into hasher: inout Hasher) {
        // In one piece: Array's own hashing feeds the hasher a byte at a time.
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// The key of a call whose body is at most `limit` bytes, else nil (the call then takes
    /// the ordinary path: copying a large body on the loop thread would hold up other callers).
    static func of(_ message: DBusMessage, limit: Int) -> DBusRequestKey? {
        guard message.bodySize(atMost: limit) != nil else { return nil }
        return try? DBusReader.withBody(of: message) { (body, bigEndian) in
            var bytes: [UInt8] = [bigEndian ? UInt8(ascii: "B") : UInt8(ascii: "l")]
            if let signature = dbus_message_get_signature(message.raw) {
                var cursor = signature
                while cursor.pointee != 0 {
                    bytes.append(UInt8(bitPattern: cursor.pointee))
                    cursor += 1
                }
            }
            bytes.append(0)
            bytes.append(contentsOf: body)
            return DBusRequestKey(bytes: bytes)
        }
    }
}

/// A reply kept for answering the same call again: a copy of the message first sent, copied
/// once more for each later call (dbus_message_copy gives serial 0, unlocked), with that
/// call's serial and sender filled in. The lock is what makes sharing one libdbus message
/// between threads safe: libdbus messages are not thread-safe, and only copies leave it.
public final class DBusCachedReply: Sendable {
    private let template: Mutex<DBusMessage>
    /// The reply's body and header bytes, for a store's byte budget.
    public let size: Int

    /// The body's length, given to each copy (libdbus's copy does not carry Swift's note of it).
    private let bodyBytes: Int?

    init?(copying reply: DBusMessage) {
        guard let copy = dbus_message_copy(reply.raw) else { return nil }
        // Sized without marshalling: the body as fitd built it, the header from its fields.
        let body = reply.bodySize(atMost: .max) ?? 0
        self.bodyBytes = reply.knownBodyBytes
        self.size = body + reply.headerBytes
        // A fresh copy that nothing else references (the checker cannot see through the C pointer).
        nonisolated(unsafe) let owned = DBusMessage(owning: copy)
        self.template = Mutex(owned)
    }

    /// The reply to one call.
    func reply(to serial: UInt32, destination: String?) -> DBusMessage? {
        let raw: OpaquePointer? = template.withLock { dbus_message_copy($0.raw) }
        guard let raw else { return nil }
        let message = DBusMessage(owning: raw)
        message.knownBodyBytes = bodyBytes
        guard dbus_message_set_reply_serial(raw, serial) != 0 else { return nil }
        if let destination, DBusNames.isValidBusName(destination) {
            guard destination.withCString({ dbus_message_set_destination(raw, $0) }) != 0 else { return nil }
        }
        return message
    }
}

/// What the loop thread hands the call's task when a cached method missed: where to keep
/// the reply once it exists.
struct ReplyCacheTicket: Sendable {
    let cache: any DBusReplyCache
    let key: DBusRequestKey
    let epoch: UInt64

    func keep(_ reply: DBusMessage) {
        guard let kept = DBusCachedReply(copying: reply) else { return }
        cache.keep(kept, for: key, epoch: epoch)
    }
}
