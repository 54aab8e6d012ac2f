/// Calls to the bus itself (specification, "Message Bus Messages"), made as ordinary
/// async calls so the loop thread never blocks on them (unlike libdbus's
/// dbus_bus_request_name / dbus_bus_add_match, which block the calling thread).
extension BusConnection {
    /// DBUS_NAME_FLAG_* (specification, "org.freedesktop.DBus.RequestName").
    public struct RequestNameFlags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// DBUS_NAME_FLAG_ALLOW_REPLACEMENT: a later requester with replaceExisting takes it.
        public static let allowReplacement = RequestNameFlags(rawValue: 0x1)
        /// DBUS_NAME_FLAG_REPLACE_EXISTING: take the name if its owner allowed replacement.
        public static let replaceExisting = RequestNameFlags(rawValue: 0x2)
        /// DBUS_NAME_FLAG_DO_NOT_QUEUE: fail rather than wait in the queue.
        public static let doNotQueue = RequestNameFlags(rawValue: 0x4)
    }

    /// DBUS_REQUEST_NAME_REPLY_*.
    public enum RequestNameReply: UInt32, Sendable {
        case primaryOwner = 1, inQueue = 2, exists = 3, alreadyOwner = 4
    }

    static let bus = (name: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")

    public func requestName(_ name: String, flags: RequestNameFlags = [.doNotQueue]) async throws(DBusError) -> RequestNameReply {
        try DBusNames.requireBusName(name)
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags.rawValue)])
        guard case .uint32(let code)? = reply.first, let result = RequestNameReply(rawValue: code) else {
            throw .failed("RequestName returned \(DBusValue.signature(of: reply)), expected u")
        }
        return result
    }

    /// Returns DBUS_RELEASE_NAME_REPLY_* (1 released, 2 non-existent, 3 not owner).
    @discardableResult
    public func releaseName(_ name: String) async throws(DBusError) -> UInt32 {
        try DBusNames.requireBusName(name)
        guard case .uint32(let code)? = try await callBus("ReleaseName", [.string(name)]).first else {
            throw .failed("ReleaseName returned no code")
        }
        return code
    }

    /// Subscribes to signals. The local subscription exists before AddMatch returns, so
    /// no signal the bus routes after that is lost. The stream keeps the newest 1024
    /// signals if the reader falls behind, so memory stays bounded; ending the iteration
    /// removes the match.
    public func signals(matching match: SignalMatch) async throws(DBusError) -> AsyncStream<DBusSignal> {
        let rule = try match.rule()
        let (stream, continuation) = AsyncStream.makeStream(of: DBusSignal.self, bufferingPolicy: .bufferingNewest(1024))
        let id = subscriptions.add(match, continuation)
        if isBus {
            do {
                _ = try await callBus("AddMatch", [.string(rule)])
            } catch {
                subscriptions.remove(id)
                continuation.finish()
                throw error
            }
        }
        let isBus = self.isBus
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.subscriptions.remove(id)
            if isBus { Task { _ = try? await self.callBus("RemoveMatch", [.string(rule)]) } }
        }
        return stream
    }

    /// Asks the bus for NameOwnerChanged of every name that loses its owner, so that the
    /// calls of a client that disconnects are dropped or cancelled (CallScheduling) instead
    /// of being worked on for no one.
    public func trackClientDisconnects() async throws(DBusError) {
        guard isBus else { return }
        _ = try await callBus("AddMatch", [.string(
            "type='signal',sender='\(Self.bus.name)',path='\(Self.bus.path)',interface='\(Self.bus.name)',member='NameOwnerChanged',arg2=''")])
    }

    func callBus(_ member: String, _ arguments: [DBusValue]) async throws(DBusError) -> [DBusValue] {
        try await call(
            destination: Self.bus.name, path: Self.bus.path, interface: Self.bus.name, member: member,
            arguments: arguments)
    }
}
