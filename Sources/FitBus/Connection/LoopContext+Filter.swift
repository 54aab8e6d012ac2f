import CDBus

extension LoopContext {
    /// libdbus's filter (dbus_connection_add_filter), run by dbus_connection_dispatch on
    /// the loop thread. Replies to our own calls never get here: libdbus completes pending
    /// calls before running filters. Peer.Ping and GetMachineId are answered by libdbus
    /// itself before filters too (dbus-connection.c, builtin filters).
    /// `message` is `sending` (a fresh reference, nobody else's) so that a method call can
    /// hand it to the task that decodes it.
    func filter(_ message: sending DBusMessage) -> DBusHandlerResult {
        switch message.kind {
        case .signal:
            guard let path = message.path, let interface = message.interface, let member = message.member else {
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }
            // libdbus's synthetic message for a lost connection (DBUS_INTERFACE_LOCAL).
            if interface == "org.freedesktop.DBus.Local", member == "Disconnected" {
                disconnected = true
                return DBUS_HANDLER_RESULT_HANDLED
            }
            // A signal we cannot decode (an fd) is nobody's business here; drop it.
            if let arguments = try? message.arguments() {
                // A client left the bus (trackClientDisconnects): its calls are not worth finishing.
                if member == "NameOwnerChanged", interface == BusConnection.bus.name, message.sender == BusConnection.bus.name,
                    arguments.count == 3, case .string(let name) = arguments[0], case .string("") = arguments[2]
                {
                    owner?.scheduler.clientGone(name)
                }
                subscriptions.deliver(DBusSignal(
                    sender: message.sender, path: path, interface: interface, member: member, arguments: arguments))
            }
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .methodCall:
            // Without an owner nothing is exported; libdbus then answers UnknownMethod.
            guard let owner, let path = message.path, let member = message.member else {
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }
            // A kept reply or a method's fast path may answer here (MethodDispatcher+Immediate),
            // unless the caller has too many replies unread: then the scheduler refuses it.
            var ticket: ReplyCacheTicket? = nil
            var decoded: [DBusValue]? = nil
            var handedOver: (any Sendable)? = nil
            if !owner.scheduler.isOverUnreadLimit(message.sender) {
                switch MethodDispatcher.immediate(message, path: path, member: member, on: owner) {
                case .reply(let reply, let ticket):
                    if !message.noReplyExpected,
                        let sent = BusConnection.replyMessage(serial: message.serial, destination: message.sender, answer: reply)
                    {
                        if let ticket, sent.kind == .methodReturn { ticket.keep(sent) }
                        sendReply(sent, to: message.sender)
                    }
                    return DBUS_HANDLER_RESULT_HANDLED
                case .kept(let reply):
                    if !message.noReplyExpected { sendReply(reply, to: message.sender) }
                    return DBUS_HANDLER_RESULT_HANDLED
                case .dispatch(let kept, let arguments, let work):
                    (ticket, decoded, handedOver) = (kept, arguments, work)
                }
            }
            // Before the message passes to the call: what it weighs (CallScheduling).
            let bytes = message.bodySize(atMost: CallScheduling.largestMessage) ?? CallScheduling.largestMessage
            let call = IncomingCall(
                serial: message.serial, sender: message.sender, path: path, interface: message.interface,
                member: member, signature: message.signature, noReplyExpected: message.noReplyExpected,
                cacheTicket: ticket, decoded: decoded, handedOver: handedOver, body: MessageHandOver(message))
            // Handlers run on Swift tasks, never on this thread, so a slow handler cannot
            // hold up other callers; the reply comes back through the job queue. The
            // scheduler decides when and where (CallScheduling): heavy calls on its workers,
            // small ones on the cooperative pool, fairly between clients.
            let scheduler = owner.scheduler
            let (serial, sender, noReply) = (call.serial, call.sender, call.noReplyExpected)
            if let refusal = scheduler.submit(call, bytes: bytes, heavy: bytes >= scheduler.policy.heavyBodyBytes),
                !noReply,
                let reply = BusConnection.replyMessage(serial: serial, destination: sender, .failure(refusal))
            {
                sendReply(reply, to: sender)
            }
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    /// Sends a reply and counts it against what its client has left unread
    /// (CallScheduling.unreadReplyBytesPerClient); asks the client, with a Peer.Ping, whether
    /// it has read what was sent when enough has been.
    func sendReply(_ reply: DBusMessage, to client: String?) {
        send(reply)
        guard let owner, let client else { return }
        let bytes = reply.bodySize(atMost: CallScheduling.largestMessage) ?? CallScheduling.largestMessage
        if owner.scheduler.replySent(to: client, bytes: bytes) { owner.probeReplies(of: client) }
    }

    /// Queues a message for sending; libdbus writes it when the socket's write watch
    /// fires. A closed connection drops it, as dbus_connection_send does.
    func send(_ message: DBusMessage) {
        guard isOpen else { return }
        _ = dbus_connection_send(connection, message.raw, nil)
    }
}
