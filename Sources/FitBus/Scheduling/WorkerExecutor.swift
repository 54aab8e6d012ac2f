#if canImport(Glibc)
import Glibc
#endif
import FitThreads
import Synchronization

/// A task executor of its own POSIX threads, for the calls a connection counts as heavy
/// (``CallScheduling``): their handlers run here, so they never occupy Swift's cooperative
/// pool, where every small call (a property, a short Measure) runs. With both lanes busy the
/// kernel shares the cores between the two, and the workers' higher nice value lets a
/// waking small call run first (CFS weights: nice 0 is 1024, nice 5 is 335).
///
/// The threads start with the first job (a client connection never makes them) and stay;
/// more are made, up to `growingTo`, when a job arrives while every thread is busy (the
/// scheduler starts more calls than cores only for clients that have none running).
final class WorkerExecutor: TaskExecutor, Sendable {
    private struct State {
        var jobs = FIFO<UnownedJob>()
        var started = false
        /// No thread could be made (RLIMIT_NPROC): jobs run on the cooperative pool instead.
        var noThreads = false
        var threads = 0
        /// Threads waiting for a job.
        var idle = 0
    }

    private let state = Mutex(State())
    /// Counts queued jobs; a worker waits on it.
    private let available = CountingSemaphore()
    let threadCount: Int
    let maxThreads: Int
    let nice: Int32

    init(threads: Int, growingTo maxThreads: Int? = nil, nice: Int32) {
        threadCount = max(1, threads)
        self.maxThreads = max(threadCount, maxThreads ?? threads)
        self.nice = nice
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let (startThreads, noThreads, grow) = state.withLock { state in
            defer { state.started = true }
            if !state.noThreads { state.jobs.append(unowned) }
            // Every thread busy with a job of its own and room for another: one more.
            let grow = state.started && !state.noThreads && state.jobs.count > state.idle && state.threads < maxThreads
            if grow { state.threads += 1 }
            return (!state.started, state.noThreads, grow)
        }
        if noThreads {
            let executor = asUnownedTaskExecutor()
            Task.detached { unowned.runSynchronously(on: executor) }
            return
        }
        if startThreads { start() }
        if grow, (try? PosixThread(name: "fitbus-work+", { [self] in work() })) == nil {
            state.withLock { $0.threads -= 1 }  // slower, not wrong: the others take the job
        }
        available.signal()
    }

    private func start() {
        // The threads run for the rest of the process (each holds the executor); dropping a
        // PosixThread detaches it. Fewer threads than asked is slower, not wrong.
        var started = 0
        for index in 0..<threadCount {
            guard (try? PosixThread(name: "fitbus-work\(index)", { [self] in work() })) != nil else { break }
            started += 1
        }
        let queued: [UnownedJob] = state.withLock { state in
            state.threads += started
            guard started == 0 else { return [] }
            state.noThreads = true
            return state.jobs.removeAll()
        }
        // None at all: what was queued runs on the cooperative pool rather than never.
        let executor = asUnownedTaskExecutor()
        for job in queued { Task.detached { job.runSynchronously(on: executor) } }
    }

    private func work() {
        // Per thread on Linux (setpriority(2), "BUGS": the nice value is a thread attribute).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        let executor = asUnownedTaskExecutor()
        while true {
            state.withLock { $0.idle += 1 }
            available.wait()
            if let job = state.withLock({ state -> UnownedJob? in
                state.idle -= 1
                return state.jobs.popFirst()
            }) { job.runSynchronously(on: executor) }
        }
    }
}

/// A POSIX semaphore (sem_overview(7)): thread-safe by definition, so Sendable; sem_t must
/// not move once initialised, so it lives on the heap.
final class CountingSemaphore: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init() { sem_init(semaphore, 0, 0) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func signal() { sem_post(semaphore) }

    func wait() { while sem_wait(semaphore) != 0 && errno == EINTR {} }
}

/// A first-in first-out queue: an array and the index of its head, compacted when half is spent.
struct FIFO<Element> {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func append(_ item: Element) { items.append(item) }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.count <= 1024)
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// Empties the queue, returning what it held in order.
    mutating func removeAll() -> [Element] {
        defer { items = []; head = 0 }
        return Array(items[head...])
    }
}
