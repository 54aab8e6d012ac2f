#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Work posted to a connection's loop thread. It receives the loop's confined state, so
/// only the loop thread ever touches libdbus objects.
typealias LoopJob = @Sendable (LoopContext) -> Void

/// The only way into a loop thread: a locked list of jobs plus a self-pipe that wakes the
/// thread's poll(2). Thread-safe by the Mutex; the pipe is written and read with single
/// syscalls, which the kernel serialises. (A pipe rather than eventfd(2): Swift's Glibc
/// module does not import sys/eventfd.h.)
final class JobQueue: Sendable {
    private struct State {
        var jobs: [LoopJob] = []
        var closed = false
    }

    private let state = Mutex(State())
    /// Nonblocking pipe ends; the bytes are irrelevant, only readability matters. A full
    /// pipe already guarantees a wakeup, so a failed nonblocking write is harmless.
    let wakeFD: Int32
    private let writeFD: Int32

    init() throws(DBusError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .failed("pipe(2) failed with errno \(errno)") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        Glibc.close(wakeFD)
        Glibc.close(writeFD)
    }

    /// Queues a job; false when the loop has stopped, so the caller fails its own request
    /// instead of waiting for a reply that will never come.
    @discardableResult
    func post(_ job: @escaping @Sendable (LoopContext) -> Void) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { wake() }
        return accepted
    }

    /// Asks the loop to stop after the jobs already queued.
    func close() {
        let wasOpen = state.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        if wasOpen { wake() }
    }

    var isClosed: Bool { state.withLock { $0.closed } }

    func takeAll() -> (jobs: [LoopJob], closed: Bool) {
        state.withLock { state in
            defer { state.jobs.removeAll() }
            return (state.jobs, state.closed)
        }
    }

    private func wake() {
        var one: UInt8 = 1
        _ = write(writeFD, &one, 1)
    }

    /// Empties the pipe after poll(2) reported it readable.
    func drainWakeups() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(wakeFD, &buffer, buffer.count) > 0 {}
    }
}
