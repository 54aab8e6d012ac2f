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
