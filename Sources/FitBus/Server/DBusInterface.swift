public struct DBusSignalDescription: Sendable {
    public var name: String
    public var signature: DBusSignature
    public var argumentNames: [String]
    public var doc: String?

    public init(_ name: String, signature: String = "", argumentNames: [String] = [], doc: String? = nil)
        throws(DBusError)
    {
        try DBusNames.requireMember(name)
        self.name = name
        self.signature = try DBusSignature(signature)
        self.argumentNames = argumentNames
        self.doc = doc
    }
}

public struct DBusInterface: Sendable {
    public var name: String
    public var methods: [DBusMethod]
    public var properties: [DBusProperty]
    public var signals: [DBusSignalDescription]
    public var doc: String?

    public init(
        _ name: String, methods: [DBusMethod] = [], properties: [DBusProperty] = [],
        signals: [DBusSignalDescription] = [], doc: String? = nil
    ) throws(DBusError) {
        try DBusNames.requireInterface(name)
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.doc = doc
    }

    func method(_ name: String) -> DBusMethod? { methods.first { $0.name == name } }
    func property(_ name: String) -> DBusProperty? { properties.first { $0.name == name } }
}
