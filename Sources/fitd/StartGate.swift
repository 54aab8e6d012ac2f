import Synchronization

/// The daemon's bounded wait for its first read of the text scale. The name is taken once the
/// settings are read, so that the request that activated fitd is measured at the user's
/// scale; but a source that answers slowly (a portal that takes its 3 s per key, an X server
/// that takes its 500 ms) must not keep the name from being taken: D-Bus activation fails for
/// every client when the name does not appear within the bus's activation timeout
/// (dbus-daemon's service_start_timeout, 25 s by default), and each client waits meanwhile.
/// Past ``limit``, the daemon takes its name at the default scale, and the read, when it ends,
/// is published as a new generation (TextScaleRuntime) rather than applied silently.
final class StartGate: Sendable {
    /// How long the name waits for the first read. The files are checked without blocking
    /// (SafeFile, FontconfigGuard) and read in milliseconds, and a portal or X server answers
    /// in milliseconds: what takes longer is a source that is not answering. With the text
    /// engine's start before it (0.1 s; 0.3 s on a loaded machine), the name is taken within
    /// 1 s of exec whatever the sources do.
    static let limit: Duration = .milliseconds(500)

    private struct State {
        /// The read came in time and is being applied: the daemon no longer gives up.
        var claimed = false
        /// ...and has been applied: the daemon may take the name.
        var finished = false
        var gaveUp = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// The read is done. When the daemon still waits for it, runs `inTime` (apply it) before
    /// the daemon goes on to take the name, and returns true; when the daemon gave up waiting,
    /// returns false without running it (publish it as a change instead).
    func finish(inTime: () -> Void) -> Bool {
        let claimed = state.withLock { state -> Bool in
            guard !state.gaveUp else { return false }
            state.claimed = true
            return true
        }
        guard claimed else { return false }
        inTime()
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        return true
    }

    /// Waits for ``finish(inTime:)`` at most `limit`; true when it came in time.
    func wait(atMost limit: Duration = StartGate.limit) async -> Bool {
        let timer = Task { [self] in
            // Cancelled once the read is done: nothing to give up on.
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            expire()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.finished || state.gaveUp { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
        return state.withLock { $0.finished }
    }

    private func expire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.claimed else { return nil }
            state.gaveUp = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
