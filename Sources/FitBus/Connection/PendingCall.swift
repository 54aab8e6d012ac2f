import CDBus
import Synchronization

/// Marks one outgoing call as cancelled. Shared by the awaiting task (whose cancellation
/// handler may run on any thread, even before the call was posted) and the loop thread.
final class CallCancellation: Sendable {
    private let cancelled = Mutex(false)
    var isCancelled: Bool { cancelled.withLock { $0 } }
    func cancel() { cancelled.withLock { $0 = true } }
}

/// One call awaiting its reply, owned by the loop thread. libdbus's DBusPendingCall
/// completes it with the reply, or with its own NoReply error at the timeout
/// (dbus_connection_send_with_reply docs); cancellation and shutdown complete it too.
/// `finish` runs exactly once because every path removes the call from
/// `LoopContext.pendingCalls` first or checks `done`.
final class PendingCall {
    /// The reply message, handed to the awaiting task to decode there.
    typealias Reply = Result<MessageHandOver, DBusError>
    let id: UInt64
    let raw: OpaquePointer
    private let continuation: CheckedContinuation<Reply, Never>
    private var done = false

    init(id: UInt64, raw: OpaquePointer, continuation: CheckedContinuation<Reply, Never>) {
        self.id = id
        self.raw = raw
        self.continuation = continuation
    }

    func finish(_ reply: Reply, in context: LoopContext) {
        guard !done else { return }
        done = true
        context.finishedPendingCalls.append(raw)
        continuation.resume(returning: reply)
    }
}

extension LoopContext {
    func startCall(
        id: UInt64, message build: () throws(DBusError) -> DBusMessage, timeoutMilliseconds: Int32,
        cancellation: CallCancellation, continuation: CheckedContinuation<PendingCall.Reply, Never>
    ) {
        guard !cancellation.isCancelled else {
            return continuation.resume(returning: .failure(DBusError(.cancelled, "the call was cancelled")))
        }
        guard isOpen else { return continuation.resume(returning: .failure(.closed)) }
        let message: DBusMessage
        do { message = try build() } catch { return continuation.resume(returning: .failure(error)) }
        var raw: OpaquePointer?
        guard dbus_connection_send_with_reply(connection, message.raw, &raw, timeoutMilliseconds) != 0 else {
            return continuation.resume(returning: .failure(.noMemory("sending a call")))
        }
        // libdbus returns no pending call when the connection is already disconnected.
        guard let raw else { return continuation.resume(returning: .failure(.closed)) }
        let call = PendingCall(id: id, raw: raw, continuation: continuation)
        pendingCalls[id] = call
        let box = Unmanaged.passRetained(PendingNotifyBox(call: call, context: self)).toOpaque()
        let installed = dbus_pending_call_set_notify(
            raw,
            { _, data in
                guard let data else { return }
                Unmanaged<PendingNotifyBox>.fromOpaque(data).takeUnretainedValue().complete()
            },
            box,
            { data in
                guard let data else { return }
                Unmanaged<PendingNotifyBox>.fromOpaque(data).release()
            })
        if installed == 0 {
            Unmanaged<PendingNotifyBox>.fromOpaque(box).release()
            pendingCalls.removeValue(forKey: id)
            dbus_pending_call_cancel(raw)
            call.finish(.failure(.noMemory("waiting for a reply")), in: self)
        }
    }

    func cancelCall(id: UInt64) {
        guard let call = pendingCalls.removeValue(forKey: id) else { return }
        dbus_pending_call_cancel(call.raw)
        call.finish(.failure(DBusError(.cancelled, "the call was cancelled")), in: self)
    }
}

/// libdbus's notify user data: weak to the context so a late notify after shutdown is
/// harmless.
private final class PendingNotifyBox {
    let call: PendingCall
    weak var context: LoopContext?

    init(call: PendingCall, context: LoopContext) {
        self.call = call
        self.context = context
    }

    func complete() {
        guard let context, context.pendingCalls.removeValue(forKey: call.id) != nil else { return }
        // dbus_pending_call_steal_reply transfers the reply's reference to us.
        guard let rawReply = dbus_pending_call_steal_reply(call.raw) else {
            return call.finish(.failure(DBusError(.noReply, "no reply")), in: context)
        }
        // The reply's only reference, now ours; libdbus never writes to a received message
        // again, so it may pass to the awaiting task (as LoopContext's filter reasons).
        nonisolated(unsafe) let reply = DBusMessage(owning: rawReply)
        if let error = reply.asError {
            call.finish(.failure(error), in: context)
        } else {
            call.finish(.success(MessageHandOver(handing: reply)), in: context)
        }
    }
}
