import CDBus
import Synchronization

/// A connection to a message bus (or a peer), with its own event-loop thread.
///
/// Threading: every libdbus call on the connection runs on the loop thread (see
/// `LoopContext`); the public methods here are safe from any thread or task because they
/// only post jobs to `JobQueue`. Handlers of exported methods run on Swift tasks, so a
/// slow handler blocks neither the loop nor other callers; only a method's fast path
/// (`DBusImmediateHandler`: a cache hit) and its reply cache run on the loop thread.
///
/// Lifetime: `close()` or dropping the last reference stops the loop thread, fails
/// outstanding calls with `Disconnected` and ends signal streams.
public final class BusConnection: Sendable {
    let queue: JobQueue
    let registry = ObjectRegistry()
    let subscriptions = SignalSubscriptions()
    /// False for a peer-to-peer connection, which has no bus to send AddMatch to.
    let isBus: Bool
    private let unique = Mutex<String?>(nil)
    private let nextCallID = Atomic<UInt64>(0)
    /// Runs incoming method calls (CallScheduling); made on first use, replaced by `callScheduling`'s setter.
    private let schedulerBox = Mutex<CallScheduler?>(nil)

    /// The largest message the bus takes from us (``discoverMessageLimit()``); a reply
    /// longer than that is replaced by an error before it is sent.
    private let limit = Mutex(BusMessageLimit.dbusDaemonDefault)
    public internal(set) var messageLimit: BusMessageLimit {
        get { limit.withLock { $0 } }
        set { limit.withLock { $0 = newValue } }
    }

    /// What a reply's body may take: the message limit less room for its header (reply
    /// serial, destination, signature: well under 1 KiB; the sender field the bus adds is
    /// not counted against what it reads from us).
    public var maxReplyBodyBytes: Int { max(0, messageLimit.bytes - 4096) }

    /// libdbus's default method-call timeout is 25 s (DBUS_TIMEOUT_USE_DEFAULT docs).
    public static let defaultTimeout: Duration = .seconds(25)

    private init(queue: JobQueue, isBus: Bool) {
        self.queue = queue
        self.isBus = isBus
    }

    deinit { queue.close() }

    /// How incoming method calls are queued and run (see ``CallScheduling``). Set it before
    /// exporting objects; calls already queued finish under the policy they arrived with.
    public var callScheduling: CallScheduling {
        get { scheduler.policy }
        set { schedulerBox.withLock { $0 = makeScheduler(newValue) } }
    }

    var scheduler: CallScheduler {
        schedulerBox.withLock { box in
            if let box { return box }
            let made = makeScheduler(CallScheduling())
            box = made
            return made
        }
    }

    private func makeScheduler(_ policy: CallScheduling) -> CallScheduler {
        CallScheduler(policy: policy) { [weak self] call in
            guard let self else { return }
            await MethodDispatcher.dispatch(call, on: self)
        }
    }

    /// Calls queued and running in the scheduler, and the clients they come from.
    public var callLoad: (queued: Int, running: Int, clients: Int) { scheduler.load }

    /// The name the bus assigned (`:1.42`), nil on a peer-to-peer connection.
    public var uniqueName: String? { unique.withLock { $0 } }

    /// Connects to the session bus named by DBUS_SESSION_BUS_ADDRESS (`dbus_bus_get_private`).
    public static func session() async throws(DBusError) -> BusConnection {
        try await open(.session)
    }

    /// Connects to an address (`dbus_connection_open_private`); with `registerWithBus`,
    /// sends Hello (`dbus_bus_register`) as a bus client must before anything else.
    public static func connect(address: String, registerWithBus: Bool = true) async throws(DBusError) -> BusConnection {
        try await open(.address(address, register: registerWithBus))
    }

    /// Stops the loop thread after the work already queued.
    public func close() { queue.close() }

    private static func open(_ endpoint: LoopThread.Endpoint) async throws(DBusError) -> BusConnection {
        let isBus = if case .address(_, false) = endpoint { false } else { true }
        let connection = BusConnection(queue: try JobQueue(), isBus: isBus)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<String?, DBusError>, Never>) in
            LoopThread.start(endpoint: endpoint, owner: connection) { continuation.resume(returning: $0) }
        }
        let name = try result.get()
        connection.unique.withLock { $0 = name }
        return connection
    }

    /// Calls a method and awaits its reply. An error reply throws its name and message;
    /// no reply within `timeout` throws NoReply (`isTimeout`); cancelling the task
    /// cancels the pending call and throws `.cancelled`.
    public func call(
        destination: String?, path: String, interface: String?, member: String,
        arguments: [DBusValue] = [], timeout: Duration = BusConnection.defaultTimeout
    ) async throws(DBusError) -> [DBusValue] {
        let message = try DBusMessage.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        return try await send(MessageHandOver(message), timeout: timeout).arguments()
    }

    /// Calls a method whose arguments `write` writes (a body of `signature`) and whose reply
    /// `read` reads, without `DBusValue` trees on either side (DBusWriter, DBusReader): for
    /// calls of thousands of values. Errors, timeouts and cancellation as in the other `call`.
    public func call<Reply>(
        destination: String?, path: String, interface: String?, member: String, signature: String,
        timeout: Duration = BusConnection.defaultTimeout,
        write: @Sendable (inout DBusWriter) throws(DBusError) -> Void,
        read: @Sendable (inout DBusReader) throws(DBusError) -> Reply
    ) async throws(DBusError) -> Reply {
        let body = try DBusWriter.body(signature: signature, write)
        let message = try DBusMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member, signature: signature, body: body)
        let reply = try await send(MessageHandOver(message), timeout: timeout)
        return try DBusReader.readBody(of: reply, read)
    }

    /// Sends a call built on the caller's task (not the loop thread, so a large one holds up
    /// no other caller) and returns the reply, also decoded on the caller's task.
    private func send(_ call: MessageHandOver, timeout: Duration) async throws(DBusError) -> DBusMessage {
        let id = nextCallID.add(1, ordering: .relaxed).newValue
        let cancellation = CallCancellation()
        let milliseconds = Self.milliseconds(timeout)
        let queue = self.queue
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<PendingCall.Reply, Never>) in
                let posted = queue.post { context in
                    context.startCall(
                        id: id,
                        message: { () throws(DBusError) in
                            guard let message = call.take() else { throw .failed("the call was already sent") }
                            return message
                        },
                        timeoutMilliseconds: milliseconds, cancellation: cancellation, continuation: continuation)
                }
                if !posted { continuation.resume(returning: .failure(.closed)) }
            }
        } onCancel: {
            cancellation.cancel()
            queue.post { $0.cancelCall(id: id) }
        }
        guard let reply = try result.get().take() else { throw .failed("the reply was already read") }
        return reply
    }

    /// libdbus takes an `int` of milliseconds; INT_MAX means no timeout (DBUS_TIMEOUT_INFINITE).
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int32.max }
        return Int32(clamping: max(1, total.partialValue + attoseconds / 1_000_000_000_000_000))
    }

    /// Emits a signal. Names and values are checked here, so errors reach the caller;
    /// the message is built and sent on the loop thread.
    public func emitSignal(
        path: String, interface: String, member: String, arguments: [DBusValue] = [], destination: String? = nil
    ) throws(DBusError) {
        try DBusNames.requireObjectPath(path)
        try DBusNames.requireInterface(interface)
        try DBusNames.requireMember(member)
        if let destination { try DBusNames.requireBusName(destination) }
        for argument in arguments { try argument.validate() }
        let posted = queue.post { context in
            guard let message = try? DBusMessage.signal(path: path, interface: interface, member: member),
                (try? message.append(arguments)) != nil
            else { return }
            if let destination { _ = destination.withCString { dbus_message_set_destination(message.raw, $0) } }
            context.send(message)
        }
        guard posted else { throw .closed }
    }

    /// Sends the reply to an incoming call from any thread.
    func sendReply(to call: IncomingCall, _ result: Result<MethodDispatcher.Answer, DBusError>) {
        // Encoded here, on the handler's task, not on the loop thread: encoding a large reply
        // (10,000 batch results: tens of ms) there would hold up every other caller.
        let message = Self.replyMessage(serial: call.serial, destination: call.sender, answer: result)
        let sendable = message.map { oversized($0, for: call) ?? $0 }
        if let ticket = call.cacheTicket, let message = sendable, message.kind == .methodReturn { ticket.keep(message) }
        let handOver = MessageHandOver(sendable)
        queue.post { context in
            if let reply = handOver.take() { context.sendReply(reply, to: call.sender) }
        }
    }

    /// Asks `client` whether it has read the replies sent so far (CallScheduler.replySent):
    /// a Peer.Ping that it answers only after reading every message before it. Asked again
    /// while the answer leaves bytes unconfirmed or does not come (a client that stopped
    /// reading); ends when the client leaves the bus.
    func probeReplies(of client: String) {
        let scheduler = self.scheduler
        Task { [weak self] in
            var again = true
            while again, let connection = self {
                let read: Bool
                do throws(DBusError) {
                    _ = try await connection.call(
                        destination: client, path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping",
                        timeout: Self.defaultTimeout)
                    read = true
                } catch {
                    // Any answer, an error too, comes after what was sent before the probe;
                    // no answer at all is the one that says nothing was read.
                    if error.name == .serviceUnknown || error.name == .disconnected { return }
                    read = !error.isTimeout
                }
                again = scheduler.probeAnswered(client, read: read)
            }
        }
    }

    /// An error reply in place of `message` when it is longer than the bus takes: sent, it
    /// would make the bus drop this connection, and every other client with it.
    private func oversized(_ message: DBusMessage, for call: IncomingCall) -> DBusMessage? {
        let limit = maxReplyBodyBytes
        guard message.bodySize(atMost: limit) == nil else { return nil }
        let bus = messageLimit
        return try? DBusMessage.reply(
            to: call.serial, destination: call.sender,
            error: DBusError(.limitsExceeded,
                "the reply to \(call.member) would be over the bus's limit of \(bus.bytes >> 20) MiB for one message "
                    + "(\(bus.source)); ask for less in one call"))
    }

    /// The method return or error reply for a method's answer: values to encode or a body
    /// written already.
    static func replyMessage(
        serial: UInt32, destination: String?, answer: Result<MethodDispatcher.Answer, DBusError>
    ) -> DBusMessage? {
        switch answer {
        case .success(.values(let values)):
            return replyMessage(serial: serial, destination: destination, .success(values))
        case .success(.body(let body)):
            do throws(DBusError) {
                return try body.reply(to: serial, destination: destination)
            } catch {
                return replyMessage(serial: serial, destination: destination, .failure(error))
            }
        case .failure(let error):
            return replyMessage(serial: serial, destination: destination, .failure(error))
        }
    }

    /// The method return or error reply for a call; an unencodable result becomes Failed.
    static func replyMessage(
        serial: UInt32, destination: String?, _ result: Result<[DBusValue], DBusError>
    ) -> DBusMessage? {
        switch result {
        case .success(let values):
            do throws(DBusError) {
                let message = try DBusMessage.reply(to: serial, destination: destination)
                try message.append(values)
                return message
            } catch {
                return try? DBusMessage.reply(
                    to: serial, destination: destination,
                    error: .failed("the method's reply could not be encoded: \(error.message)"))
            }
        case .failure(let error):
            return try? DBusMessage.reply(to: serial, destination: destination, error: error)
        }
    }
}
