extension MethodDispatcher {
    /// How much a fast path may decode on the loop thread: values plus string bytes. A call
    /// bigger than that (a peer may send 128 MiB) is decoded on its task as before, so it
    /// cannot hold up the connection's other callers.
    static let immediateBudget = 16 * 1024

    /// Runs the called method's fast path (DBusMethod.immediate) on the loop thread; nil
    /// when there is none, it declines, or anything is off (unknown target, wrong signature,
    /// a body over budget or undecodable): the task path then answers with its named errors.
    static func immediate(
        _ message: DBusMessage, path: String, member: String, on connection: BusConnection
    ) -> Reply? {
        guard let object = connection.registry.object(at: path) else { return nil }
        let interfaceName = message.interface ?? defaultInterface(for: member, in: object)
        guard let interfaceName, let exported = object.interface(interfaceName), let method = exported.method(member),
            let fast = method.immediate
        else { return nil }
        let signature = message.signature
        guard signature == method.inSignature.rawValue,
            let arguments = try? MessageDecoder.arguments(of: message.raw, budget: immediateBudget)
        else { return nil }
        let context = MessageContext(
            sender: message.sender, path: path, interface: message.interface, member: member,
            signature: signature, connection: connection)
        do throws(DBusError) {
            guard let out = try fast(arguments, context) else { return nil }
            try checkOut(DBusValue.signature(of: out), of: method, in: interfaceName)
            return .success(out)
        } catch {
            return .failure(error)
        }
    }
}
