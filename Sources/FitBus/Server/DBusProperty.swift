public struct DBusProperty: Sendable {
    public enum Access: String, Sendable {
        case read
        case readwrite
    }

    public var name: String
    public var signature: DBusSignature
    public var access: Access
    public var doc: String?
    /// When true, the property announces its changes with PropertiesChanged, and a successful
    /// Set emits it with the new value (unless `setterAnnounces`).
    public var emitsChanged: Bool
    /// The value never changes while the object exists (a build's version): introspected as
    /// EmitsChangedSignal "const", which tells clients such as GDBus proxies that they may
    /// cache it for good (specification, "org.freedesktop.DBus.Properties"). Implies no
    /// PropertiesChanged.
    public var constant: Bool
    /// The setter emits PropertiesChanged itself (with whatever else changed with the value),
    /// so Set does not emit a second, partial one.
    public var setterAnnounces: Bool
    public var get: @Sendable () async throws(DBusError) -> DBusValue
    public var set: (@Sendable (DBusValue) async throws(DBusError) -> Void)?

    /// A property; it is read-write exactly when a setter is given.
    public init(
        _ name: String, signature: String, doc: String? = nil, emitsChanged: Bool = true, constant: Bool = false,
        setterAnnounces: Bool = false, get: @escaping @Sendable () async throws(DBusError) -> DBusValue,
        set: (@Sendable (DBusValue) async throws(DBusError) -> Void)? = nil
    ) throws(DBusError) {
        try DBusNames.requireMember(name)
        let parsed = try DBusSignature(signature)
        guard parsed.isSingleCompleteType else {
            throw .invalidArgs("property \(name): \"\(signature)\" is not a single complete type")
        }
        self.name = name
        self.signature = parsed
        self.access = set == nil ? .read : .readwrite
        self.doc = doc
        self.emitsChanged = emitsChanged && !constant
        self.constant = constant
        self.setterAnnounces = setterAnnounces
        self.get = get
        self.set = set
    }
}
