#if canImport(Glibc)
import Glibc
#endif

/// Kills the private bus and the daemons this benchmark started when it dies of an error or
/// a signal: a `try` that fails at top level traps (SIGTRAP or SIGILL) without running any
/// cleanup, and the children, which inherited stdout, would keep `make bench`'s pipe open
/// for ever. The handler calls only kill(2), sigaction(2) and raise(3), all async-signal-safe
/// (signal-safety(7)), over C buffers made before it is installed (reading their pointers
/// after that is one atomic load of Swift's once-token).
enum ChildReaper {
    /// Room for the children alive at once (the bus, an echo service, a daemon or two);
    /// a stopped child's slot is freed (``release(_:)``) so that a run may start any number.
    static let capacity = 64
    nonisolated(unsafe) static let pids: UnsafeMutablePointer<pid_t> = {
        let buffer = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        return buffer
    }()
    static let signals = [SIGTRAP, SIGILL, SIGABRT, SIGSEGV, SIGTERM, SIGINT]
    /// The handlers there were before (Swift's backtracer installs some), put back before the
    /// signal is raised again, so a crash still prints its backtrace.
    nonisolated(unsafe) static let previous: UnsafeMutablePointer<sigaction> = {
        let buffer = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        buffer.initialize(repeating: sigaction(), count: Int(NSIG))
        return buffer
    }()
    nonisolated(unsafe) static var installed = false

    static func adopt(_ pid: pid_t) {
        if !installed { install() }
        for index in 0..<capacity where pids[index] == 0 {
            pids[index] = pid
            return
        }
    }

    /// A child that has exited: its pid may be reused by the system and must not be killed.
    static func release(_ pid: pid_t) {
        for index in 0..<capacity where pids[index] == pid { pids[index] = 0 }
    }

    private static func install() {
        installed = true
        _ = (pids, previous)  // made before any handler can run
        for signal in signals {
            // A signal ignored already (SIGINT for a job started with & by a shell) stays ignored.
            sigaction(signal, nil, previous + Int(signal))
            if unsafeBitCast(previous[Int(signal)].__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }  // SIG_IGN
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                let pids = ChildReaper.pids
                for index in 0..<ChildReaper.capacity where pids[index] > 0 { kill(pids[index], SIGKILL) }
                // The handler there was before (or the default), then the signal again.
                sigaction(received, ChildReaper.previous + Int(received), nil)
                raise(received)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_NODEFER)
            sigaction(signal, &action, previous + Int(signal))
        }
    }
}
