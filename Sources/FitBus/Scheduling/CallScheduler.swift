import Synchronization

/// Queues and starts a connection's incoming method calls as ``CallScheduling`` describes:
/// per-client queues, two lanes, round-robin between clients for the heavy lane, limits per
/// client, cancellation when a client leaves. Called from the loop thread (submit, client
/// gone) and from the tasks that finish calls.
final class CallScheduler: Sendable {
    /// One call, waiting or running.
    struct Job: Sendable {
        let id: UInt64
        let call: IncomingCall
        let bytes: Int
        let heavy: Bool
    }

    /// What the scheduler holds for one sender.
    private struct Client {
        var light = FIFO<Job>()
        var heavy = FIFO<Job>()
        var lightRunning = 0
        var heavyRunning = 0
        /// Queued and running, both lanes.
        var calls = 0
        var bytes = 0
        /// Running calls by job id; the task once it exists (see ``started(_:task:)``).
        var tasks: [UInt64: Task<Void, Never>?] = [:]
        var gone = false
    }

    /// Reply bytes sent to one client and not yet known to be read (``CallScheduling/unreadReplyBytesPerClient``).
    struct ReplyFlow {
        var unread = 0
        /// Of `unread`, the bytes sent before the probe in flight; nil without one.
        var probed: Int? = nil
    }

    private struct State {
        var clients: [String: Client] = [:]
        /// By client, while it has unread replies or a probe in flight.
        var flows: [String: ReplyFlow] = [:]
        /// Senders with heavy calls waiting, each once, in the order they get a worker.
        var heavyTurns = FIFO<String>()
        var heavyRunning = 0
        var nextID: UInt64 = 0
        /// Bytes of every client's queued and running calls.
        var bytes = 0
    }

    let policy: CallScheduling
    private let state = Mutex(State())
    let workers: WorkerExecutor
    /// Runs a call to its reply (MethodDispatcher.dispatch on the connection).
    private let run: @Sendable (IncomingCall) async -> Void

    init(policy: CallScheduling, run: @escaping @Sendable (IncomingCall) async -> Void) {
        // A lane with no room would never start a call: at least one of each.
        var policy = policy
        policy.workerThreads = max(1, policy.workerThreads)
        policy.lightCallsPerClient = max(1, policy.lightCallsPerClient)
        policy.callsPerClient = max(1, policy.callsPerClient)
        policy.spareWorkerThreads = max(0, policy.spareWorkerThreads)
        self.policy = policy
        self.run = run
        self.workers = WorkerExecutor(
            threads: policy.workerThreads, growingTo: policy.workerThreads + policy.spareWorkerThreads, nice: policy.workerNice)
    }

    /// A sender's key: its unique name, or "" on a peer-to-peer connection (one client).
    private static func key(_ call: IncomingCall) -> String { call.sender ?? "" }

    /// Queues a call; returns the error to answer at once when the client is over its limits.
    func submit(_ call: IncomingCall, bytes: Int, heavy: Bool) -> DBusError? {
        let key = Self.key(call)
        let outcome: Result<[Job], DBusError> = state.withLock { state in
            if let unread = Self.unreadOverLimit(state, key, policy: policy) {
                return .failure(DBusError(.limitsExceeded,
                    "this client (\(key.isEmpty ? "peer" : key)) has \(unread >> 20) MiB of replies it has not read; "
                        + "read them before calling again"))
            }
            var client = state.clients[key] ?? Client()
            if client.calls + 1 > policy.callsPerClient {
                return .failure(Self.limit(key, "already has \(client.calls) calls waiting or running"))
            }
            if client.calls > 0, client.bytes + bytes > policy.bytesPerClient {
                return .failure(Self.limit(key, "already has \(client.bytes >> 20) MiB of calls waiting or running"))
            }
            if client.calls > 0, state.bytes + bytes > policy.bytesTotal {
                return .failure(Self.limit(key, "has calls waiting while the daemon holds \(state.bytes >> 20) MiB of calls from all its clients"))
            }
            state.nextID += 1
            let job = Job(id: state.nextID, call: call, bytes: bytes, heavy: heavy)
            client.calls += 1
            client.bytes += bytes
            state.bytes += bytes
            if heavy {
                if client.heavy.isEmpty { state.heavyTurns.append(key) }
                client.heavy.append(job)
            } else {
                client.light.append(job)
            }
            state.clients[key] = client
            return .success(Self.startable(&state, policy: policy, lightOf: key))
        }
        switch outcome {
        case .failure(let error): return error
        case .success(let jobs): start(jobs)
        }
        return nil
    }

    private static func limit(_ client: String, _ what: String) -> DBusError {
        DBusError(.limitsExceeded,
            "this client (\(client.isEmpty ? "peer" : client)) \(what); wait for their replies before sending more")
    }

    /// The jobs that may start now: `key`'s small calls up to its limit, and heavy calls in
    /// round-robin order while workers are free. Marks them running.
    private static func startable(_ state: inout State, policy: CallScheduling, lightOf key: String?) -> [Job] {
        var jobs: [Job] = []
        if let key, unreadOverLimit(state, key, policy: policy) == nil, var client = state.clients[key] {
            while client.lightRunning < policy.lightCallsPerClient, let job = client.light.popFirst() {
                client.lightRunning += 1
                client.tasks[job.id] = .some(nil)
                jobs.append(job)
            }
            state.clients[key] = client
        }
        // Each client waiting for a turn is looked at once: one whose call cannot start now
        // keeps its turn (unread replies over the limit; every worker busy and a call of its
        // own already running). A client with none running may take a spare thread.
        var waiting: [String] = []
        defer { for turn in waiting { state.heavyTurns.append(turn) } }
        var turns = state.heavyTurns.count
        let threads = policy.workerThreads + policy.spareWorkerThreads
        while turns > 0, state.heavyRunning < threads, let turn = state.heavyTurns.popFirst() {
            turns -= 1
            if unreadOverLimit(state, turn, policy: policy) != nil {
                waiting.append(turn)
                continue
            }
            guard var client = state.clients[turn], !client.heavy.isEmpty else { continue }
            let room = client.heavyRunning == 0 ? threads : min(threads, policy.workerThreads)
            guard state.heavyRunning < room, client.heavyRunning < policy.workerThreads, let job = client.heavy.popFirst() else {
                waiting.append(turn)
                continue
            }
            client.heavyRunning += 1
            client.tasks[job.id] = .some(nil)
            state.heavyRunning += 1
            if !client.heavy.isEmpty { state.heavyTurns.append(turn) }
            state.clients[turn] = client
            jobs.append(job)
        }
        return jobs
    }

    private func start(_ jobs: [Job]) {
        for job in jobs {
            let body: @Sendable () async -> Void = { [self] in
                await run(job.call)
                finished(job)
            }
            let task = job.heavy ? Task(executorPreference: workers, operation: body) : Task(operation: body)
            started(job, task: task)
        }
    }

    /// Records a running call's task so that it can be cancelled; cancels it at once when
    /// its client left in the meantime. A call that already finished has no entry left.
    private func started(_ job: Job, task: Task<Void, Never>) {
        let key = Self.key(job.call)
        let cancel = state.withLock { state -> Bool in
            guard var client = state.clients[key], client.tasks[job.id] != nil else { return false }
            client.tasks[job.id] = task
            state.clients[key] = client
            return client.gone
        }
        if cancel { task.cancel() }
    }

    private func finished(_ job: Job) {
        let key = Self.key(job.call)
        let next: [Job] = state.withLock { state in
            guard var client = state.clients[key] else { return [] }
            client.tasks[job.id] = nil
            client.calls -= 1
            client.bytes -= job.bytes
            state.bytes -= job.bytes
            if job.heavy {
                client.heavyRunning -= 1
                state.heavyRunning -= 1
            } else {
                client.lightRunning -= 1
            }
            state.clients[key] = client.calls == 0 ? nil : client
            return Self.startable(&state, policy: policy, lightOf: key)
        }
        start(next)
    }

    /// A client left the bus: its queued calls are dropped (no one is left to answer) and its
    /// running calls cancelled; they finish as their handlers notice.
    func clientGone(_ name: String) {
        let (dropped, running): ([Job], [Task<Void, Never>]) = state.withLock { state in
            guard var client = state.clients[name] else {
                state.flows[name] = nil
                return ([], [])
            }
            let dropped = client.light.removeAll() + client.heavy.removeAll()
            for job in dropped {
                client.calls -= 1
                client.bytes -= job.bytes
                state.bytes -= job.bytes
            }
            client.gone = true
            state.flows[name] = nil
            let running = client.tasks.values.compactMap { $0 }
            state.clients[name] = client.calls == 0 ? nil : client
            return (dropped, running)
        }
        for task in running { task.cancel() }
        _ = dropped  // their messages are freed here, outside the lock
    }

    /// The client's unread reply bytes when they are over the limit, else nil.
    private static func unreadOverLimit(_ state: State, _ key: String, policy: CallScheduling) -> Int? {
        guard let flow = state.flows[key], flow.unread > policy.unreadReplyBytesPerClient else { return nil }
        return flow.unread
    }

    /// Whether the client's calls must not be answered now, not even from a kept reply.
    func isOverUnreadLimit(_ sender: String?) -> Bool {
        let key = sender ?? ""
        return state.withLock { Self.unreadOverLimit($0, key, policy: policy) != nil }
    }

    /// Counts a reply of `bytes` sent to `sender`; true when a probe is to be sent now
    /// (``probeAnswered(_:read:)`` reports its answer). A peer-to-peer connection has no bus
    /// buffering for it: nothing is counted.
    func replySent(to sender: String?, bytes: Int) -> Bool {
        guard let key = sender, !key.isEmpty else { return false }
        return state.withLock { state in
            var flow = state.flows[key] ?? ReplyFlow()
            flow.unread += bytes
            let probe = flow.probed == nil && flow.unread >= policy.replyProbeBytes
            if probe { flow.probed = flow.unread }
            state.flows[key] = flow
            return probe
        }
    }

    /// The probe sent to `sender` was answered (`read`: everything sent before it was read)
    /// or timed out. Starts what waited for it; true when another probe is to be sent now
    /// (more was sent since, or nothing is known yet).
    func probeAnswered(_ sender: String, read: Bool) -> Bool {
        let (jobs, again): ([Job], Bool) = state.withLock { state in
            guard var flow = state.flows[sender], let probed = flow.probed else { return ([], false) }
            flow.probed = nil
            if read { flow.unread -= probed }
            let again = !read || flow.unread >= policy.replyProbeBytes
            if again { flow.probed = flow.unread }
            state.flows[sender] = flow.unread == 0 && !again ? nil : flow
            return (Self.startable(&state, policy: policy, lightOf: sender), again)
        }
        start(jobs)
        return again
    }

    /// The clients whose unread replies are over the limit, for statistics and tests.
    var clientsOverUnreadLimit: [String] {
        state.withLock { state in state.flows.keys.filter { Self.unreadOverLimit(state, $0, policy: policy) != nil }.sorted() }
    }

    /// Calls queued and running, for statistics and tests.
    var load: (queued: Int, running: Int, clients: Int) {
        state.withLock { state in
            var queued = 0, running = 0
            for client in state.clients.values {
                queued += client.light.count + client.heavy.count
                running += client.lightRunning + client.heavyRunning
            }
            return (queued, running, state.clients.count)
        }
    }
}
