/// A method handler: the decoded arguments (already checked against the declared
/// in-signature) and the call's context; returns the out arguments or throws the error
/// reply to send.
public typealias DBusMethodHandler =
    @Sendable ([DBusValue], MessageContext) async throws(DBusError) -> [DBusValue]

/// A method's synchronous fast path, run on the connection's loop thread as the call
/// arrives: it answers cheap work it can do without blocking (a cache hit), or hands the
/// call on to the method's handler on a task with what it worked out. It saves a cached
/// call the two thread hops (loop thread → task → loop thread) that were most of its latency.
public typealias DBusImmediateHandler =
    @Sendable ([DBusValue], MessageContext) throws(DBusError) -> DBusImmediateOutcome

/// What a fast path (DBusImmediateHandler) did with a call.
public enum DBusImmediateOutcome: Sendable {
    /// The out arguments, sent from the loop thread.
    case reply([DBusValue])
    /// The reply's body already in the wire format (a streaming method's), sent from the loop thread.
    case body(DBusReplyBody)
    /// Not answered here: the handler runs on a task with the arguments already decoded and
    /// `work` (nil for none) as its context's ``MessageContext/handedOver``, so that nothing
    /// the fast path did is done twice (a miss decoded, checked and keyed the request).
    case handOver(_ work: (any Sendable)?)
}

public struct DBusMethod: Sendable {
    public var name: String
    public var inSignature: DBusSignature
    public var outSignature: DBusSignature
    /// Argument names for introspection, in order; missing names are left out.
    public var inNames: [String]
    public var outNames: [String]
    /// Emitted as an `org.gtk.GDBus.DocString` annotation in the introspection.
    public var doc: String?
    /// What answers a call: a handler of decoded values, or a streaming one.
    enum Implementation: Sendable {
        case values(DBusMethodHandler)
        case streaming(DBusStreamingHandler)
    }
    var implementation: Implementation
    /// Optional; see DBusImmediateHandler. It must never block: every other caller of the
    /// connection waits while it runs.
    public var immediate: DBusImmediateHandler?
    /// Optional; see DBusReplyCache. Only for a method whose reply depends on nothing but
    /// its arguments and the cache's epoch.
    public var replyCache: (any DBusReplyCache)?

    public init(
        _ name: String, in inSignature: String = "", out outSignature: String = "",
        inNames: [String] = [], outNames: [String] = [], doc: String? = nil,
        immediate: DBusImmediateHandler? = nil, replyCache: (any DBusReplyCache)? = nil,
        handler: @escaping DBusMethodHandler
    ) throws(DBusError) {
        try DBusNames.requireMember(name)
        self.name = name
        self.inSignature = try DBusSignature(inSignature)
        self.outSignature = try DBusSignature(outSignature)
        self.inNames = inNames
        self.outNames = outNames
        self.doc = doc
        self.implementation = .values(handler)
        self.immediate = immediate
        self.replyCache = replyCache
    }

    /// A method answered by a streaming handler (DBusStreamingHandler): it reads its
    /// arguments and writes its reply body itself. A fast path and a reply cache work as
    /// for any method; the fast path's hand-over reaches the handler's context.
    public init(
        _ name: String, in inSignature: String = "", out outSignature: String = "",
        inNames: [String] = [], outNames: [String] = [], doc: String? = nil,
        immediate: DBusImmediateHandler?, replyCache: (any DBusReplyCache)?,
        streaming handler: @escaping DBusStreamingHandler
    ) throws(DBusError) {
        try self.init(
            name, in: inSignature, out: outSignature, inNames: inNames, outNames: outNames, doc: doc, immediate: immediate,
            replyCache: replyCache
        ) { _, _ in [] }
        self.implementation = .streaming(handler)
    }

    /// A streaming method without a fast path or reply cache.
    public init(
        _ name: String, in inSignature: String = "", out outSignature: String = "",
        inNames: [String] = [], outNames: [String] = [], doc: String? = nil,
        streaming handler: @escaping DBusStreamingHandler
    ) throws(DBusError) {
        try self.init(
            name, in: inSignature, out: outSignature, inNames: inNames, outNames: outNames, doc: doc, immediate: nil,
            replyCache: nil, streaming: handler)
    }
}

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

/// An object to export at a path. Introspectable, Peer and Properties are added by the
/// dispatcher; interfaces here must not use those names.
public struct ExportedObject: Sendable {
    public var path: String
    public var interfaces: [DBusInterface]

    public init(path: String, interfaces: [DBusInterface]) throws(DBusError) {
        try DBusNames.requireObjectPath(path)
        if let clash = interfaces.first(where: { StandardInterface.names.contains($0.name) }) {
            throw .invalidArgs("\(clash.name) is provided by FitBus itself")
        }
        self.path = path
        self.interfaces = interfaces
    }

    func interface(_ name: String) -> DBusInterface? { interfaces.first { $0.name == name } }
}

enum StandardInterface {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let peer = "org.freedesktop.DBus.Peer"
    static let properties = "org.freedesktop.DBus.Properties"
    static let names: Set<String> = [introspectable, peer, properties]
}
