/// A received signal, decoded on the loop thread into Swift values.
public struct DBusSignal: Sendable, Equatable {
    public var sender: String?
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// Which signals a subscription receives; nil fields match anything. Turned into a bus
/// match rule (specification, "Match Rules") so the bus routes the signals to us, and
/// checked again locally because one connection may hold several subscriptions.
public struct SignalMatch: Sendable, Hashable {
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?

    public init(sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
    }

    /// Validating the names first also keeps quotes out of the rule, whose grammar has
    /// no escaping inside values except the awkward `'\''`.
    func rule() throws(DBusError) -> String {
        var parts = ["type='signal'"]
        if let sender { try DBusNames.requireBusName(sender); parts.append("sender='\(sender)'") }
        if let path { try DBusNames.requireObjectPath(path); parts.append("path='\(path)'") }
        if let interface { try DBusNames.requireInterface(interface); parts.append("interface='\(interface)'") }
        if let member { try DBusNames.requireMember(member); parts.append("member='\(member)'") }
        return parts.joined(separator: ",")
    }

    /// The sender field compares literally: the bus filters by well-known names, locally
    /// only a unique name (or nil) can match, so subscriptions by well-known name rely on
    /// the bus rule alone.
    func matches(_ signal: DBusSignal) -> Bool {
        if let sender, sender.hasPrefix(":"), sender != signal.sender { return false }
        if let path, path != signal.path { return false }
        if let interface, interface != signal.interface { return false }
        if let member, member != signal.member { return false }
        return true
    }
}
