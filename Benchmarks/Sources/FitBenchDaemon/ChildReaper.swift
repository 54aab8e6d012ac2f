#if canImport(Glibc)
import Glibc
#endif

/// Kills the private bus and the daemons this benchmark started when it dies of an error: a
/// `try` that fails at top level traps (SIGTRAP or SIGILL) without running any cleanup, and
/// the children, which inherited stdout, would keep `make bench`'s pipe open for ever.
/// The handler only calls kill(2) and re-raises, both async-signal-safe (signal-safety(7)).
enum ChildReaper {
    /// Room for every child one run starts (the bus, an echo service, a dozen daemons).
    nonisolated(unsafe) static var pids = [pid_t](repeating: 0, count: 64)
    nonisolated(unsafe) static var count = 0

    static func adopt(_ pid: pid_t) {
        if count == 0 { install() }
        guard count < pids.count else { return }
        pids[count] = pid
        count += 1
    }

    private static func install() {
        for signal in [SIGTRAP, SIGILL, SIGABRT, SIGSEGV, SIGTERM, SIGINT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                ChildReaper.pids.withUnsafeBufferPointer { pids in
                    for index in 0..<ChildReaper.count where pids[index] > 0 { kill(pids[index], SIGKILL) }
                }
                Glibc.signal(received, SIG_DFL)
                raise(received)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }
}
