extension MethodDispatcher {
    /// How much a fast path may decode on the loop thread, in bytes of the body. A call
    /// bigger than that (a peer may send 128 MiB) is decoded on its task as before, so it
    /// cannot hold up the connection's other callers.
    static let immediateBudget = 16 * 1024

    /// What the loop thread does with a call before any task runs.
    enum Immediate {
        /// The fast path answered (DBusMethod.immediate); with a ticket, the reply is kept.
        case reply(Result<Answer, DBusError>, ReplyCacheTicket?)
        /// The reply cache answered (DBusMethod.replyCache): the reply, ready to send.
        case kept(DBusMessage)
        /// The call goes to its task; with a ticket, the reply is kept when it exists. A fast
        /// path that ran hands on the decoded arguments and its work.
        case dispatch(ReplyCacheTicket?, decoded: [DBusValue]? = nil, handedOver: (any Sendable)? = nil)
    }

    /// Answers a call on the loop thread when its method's reply cache holds the reply or its
    /// fast path (DBusMethod.immediate) can; anything off (unknown target, wrong signature, a
    /// body over budget or undecodable) goes to the task path, which answers with its named errors.
    static func immediate(
        _ message: DBusMessage, path: String, member: String, on connection: BusConnection
    ) -> Immediate {
        guard let object = connection.registry.object(at: path) else { return .dispatch(nil) }
        let interfaceName = message.interface ?? defaultInterface(for: member, in: object)
        guard let interfaceName, let exported = object.interface(interfaceName), let method = exported.method(member) else {
            return .dispatch(nil)
        }
        let signature = message.signature
        guard signature == method.inSignature.rawValue else { return .dispatch(nil) }
        var ticket: ReplyCacheTicket? = nil
        if let cache = method.replyCache, let key = DBusRequestKey.of(message, limit: immediateBudget) {
            let epoch = cache.epoch
            if let kept = cache.reply(for: key, epoch: epoch), let reply = kept.reply(to: message.serial, destination: message.sender) {
                return .kept(reply)
            }
            ticket = ReplyCacheTicket(cache: cache, key: key, epoch: epoch)
        }
        guard let fast = method.immediate,
            let arguments = try? message.arguments(atMost: immediateBudget)
        else { return .dispatch(ticket) }
        let context = MessageContext(
            sender: message.sender, path: path, interface: message.interface, member: member,
            signature: signature, connection: connection)
        do throws(DBusError) {
            switch try fast(arguments, context) {
            case .reply(let out):
                try checkOut(DBusValue.signature(of: out), of: method, in: interfaceName)
                return .reply(.success(.values(out)), ticket)
            case .body(let body):
                try checkOut(body.signature, of: method, in: interfaceName)
                return .reply(.success(.body(body)), ticket)
            case .handOver(let work):
                return .dispatch(ticket, decoded: arguments, handedOver: work)
            }
        } catch {
            return .reply(.failure(error), nil)
        }
    }
}
