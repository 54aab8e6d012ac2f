#if canImport(Glibc)
import Glibc
#endif

/// Kills the private bus and the daemons this benchmark started when it dies of an error or
/// a signal: a `try` that fails at top level traps (SIGTRAP or SIGILL) without running any
/// cleanup, and the children, which inherited stdout, would keep `make bench`'s pipe open
/// for ever. The handler calls only kill(2) and raise(3), both async-signal-safe
/// (signal-safety(7)), on a C buffer: no Swift runtime call. A pid is never taken back, so
/// one reused by the system within a run could be killed; with pid_max in the millions
/// and a run of a few minutes that is not a practical risk.
enum ChildReaper {
    /// Room for every child one run starts (the bus, an echo service, a dozen daemons).
    static let capacity = 64
    nonisolated(unsafe) static let pids: UnsafeMutablePointer<pid_t> = {
        let buffer = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0, count: capacity)
        return buffer
    }()
    nonisolated(unsafe) static var count = 0

    static func adopt(_ pid: pid_t) {
        if count == 0 { install() }
        guard count < capacity else { return }
        pids[count] = pid
        count += 1
    }

    private static func install() {
        _ = pids  // made before any handler can run
        for signal in [SIGTRAP, SIGILL, SIGABRT, SIGSEGV, SIGTERM, SIGINT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                let pids = ChildReaper.pids
                for index in 0..<ChildReaper.capacity where pids[index] > 0 { kill(pids[index], SIGKILL) }
                // SA_RESETHAND restored the default action: raised again, the signal ends the
                // process as it would have without this handler.
                raise(received)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND) | UInt32(SA_NODEFER))
            sigaction(signal, &action, nil)
        }
    }
}
