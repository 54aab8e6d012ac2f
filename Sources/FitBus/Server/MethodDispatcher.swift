/// Routes an incoming method call to its handler, on a Swift task. The order of checks
/// follows what libdbus and GDBus answer: unknown object, unknown interface, unknown
/// method, then the argument signature, which is checked BEFORE any handler runs
/// (specification, "Method calls": a wrong signature is the caller's error, InvalidArgs).
enum MethodDispatcher {
    static func dispatch(_ call: IncomingCall, on connection: BusConnection) async {
        let reply = await route(call, on: connection)
        // NO_REPLY_EXPECTED (specification, "Message Format"): run the method, send nothing.
        guard !call.noReplyExpected else { return }
        connection.sendReply(to: call, reply)
    }

    /// What a method answered: values to encode, or a body its streaming handler wrote.
    enum Answer {
        case values([DBusValue])
        case body(DBusReplyBody)
    }

    private static func route(_ call: IncomingCall, on connection: BusConnection) async -> Result<Answer, DBusError> {
        let object = connection.registry.object(at: call.path)
        let context = MessageContext(
            sender: call.sender, path: call.path, interface: call.interface, member: call.member,
            signature: call.signature, connection: connection, handedOver: call.handedOver)
        let interface = call.interface ?? defaultInterface(for: call.member, in: object)

        if interface == StandardInterface.introspectable || interface == StandardInterface.peer {
            return standard(call, interface: interface ?? "", object: object, connection: connection).map(Answer.values)
        }
        guard let object else {
            return .failure(DBusError(.unknownObject, "No such object path '\(call.path)'"))
        }
        if interface == StandardInterface.properties {
            switch call.decodeArguments() {
            case .success(let arguments):
                return await PropertiesInterface.handle(call, arguments, object: object, context: context).map(Answer.values)
            case .failure(let error):
                return .failure(error)
            }
        }
        guard let interface, let exported = object.interface(interface) else {
            let name = call.interface ?? ""
            if call.interface == nil {
                return .failure(unknownMethod(call))
            }
            return .failure(DBusError(.unknownInterface, "No such interface '\(name)' at object path '\(call.path)'"))
        }
        guard let method = exported.method(call.member) else { return .failure(unknownMethod(call)) }
        guard call.signature == method.inSignature.rawValue else {
            return .failure(.invalidArgs(
                "expected signature \(method.inSignature.rawValue), got \(call.signature)"))
        }
        do {
            switch method.implementation {
            case .values(let handler):
                let out = try await handler(try call.decodeArguments().get(), context)
                // A handler returning the wrong types is the server's bug: Failed, not InvalidArgs.
                try checkOut(DBusValue.signature(of: out), of: method, in: interface)
                return .success(.values(out))
            case .streaming(let handler):
                let body = try await handler(DBusArguments(body: call.body), context)
                try checkOut(body.signature, of: method, in: interface)
                return .success(.body(body))
            }
        } catch {
            return .failure(error)
        }
    }

    static func checkOut(_ signature: String, of method: DBusMethod, in interface: String) throws(DBusError) {
        guard signature == method.outSignature.rawValue else {
            throw .failed("\(interface).\(method.name) returned signature \(signature), declared \(method.outSignature.rawValue)")
        }
    }

    /// A call without an interface field (allowed by the specification, "Message Format")
    /// goes to the first interface declaring that member.
    static func defaultInterface(for member: String, in object: ExportedObject?) -> String? {
        if let match = object?.interfaces.first(where: { $0.method(member) != nil }) { return match.name }
        switch member {
        case "Introspect": return StandardInterface.introspectable
        case "Ping", "GetMachineId": return StandardInterface.peer
        case "Get", "GetAll", "Set": return StandardInterface.properties
        default: return nil
        }
    }

    static func unknownMethod(_ call: IncomingCall) -> DBusError {
        DBusError(.unknownMethod, "No such method '\(call.member)' in interface '\(call.interface ?? "")' "
            + "at object path '\(call.path)' (signature '\(call.signature)')")
    }

    /// Introspectable and Peer (specification, "Standard Interfaces"). libdbus answers Peer
    /// itself before filters run, so the Peer branch is a fallback for calls it passes on.
    private static func standard(
        _ call: IncomingCall, interface: String, object: ExportedObject?, connection: BusConnection
    ) -> Result<[DBusValue], DBusError> {
        switch (interface, call.member) {
        case (StandardInterface.introspectable, "Introspect"):
            guard call.signature.isEmpty else { return .failure(.invalidArgs("expected signature , got \(call.signature)")) }
            let xml = Introspection.xml(for: object, children: connection.registry.children(of: call.path))
            return .success([.string(xml)])
        case (StandardInterface.peer, "Ping"):
            return .success([])
        case (StandardInterface.peer, "GetMachineId"):
            guard let id = MachineID.current else { return .failure(.failed("no machine id")) }
            return .success([.string(id)])
        default:
            return .failure(unknownMethod(call))
        }
    }
}
