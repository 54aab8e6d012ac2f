#if canImport(Glibc)
import Glibc
#endif

/// A POSIX thread running one closure: for loops that block in poll(2) and so must never
/// occupy Swift's cooperative pool (libdbus's connection loop, the inotify watcher).
///
/// pthread rather than Foundation's `Thread`, so that the daemon links no Foundation, whose
/// libraries cost it about 6 MB of resident pages at idle (README.md: under 20 MB idle).
///
/// Whoever holds the value decides how the thread ends: ``join()`` waits for it; dropping
/// the value detaches it (it runs on, and its resources go when it returns).
public struct PosixThread: ~Copyable, Sendable {
    /// `pthread_t`, an integer on Linux.
    private let handle: pthread_t

    /// Starts `body` on a new thread named `name`. Throws when the system refuses a thread
    /// (`EAGAIN`: RLIMIT_NPROC or kernel.threads-max reached).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(PosixThreadError) {
        let work = Work(name: name, body: body)
        // The thread owns one retain of `work` until it has run it.
        let argument = Unmanaged.passRetained(work).toOpaque()
        var handle = pthread_t()
        let code = pthread_create(&handle, nil, { argument in
            guard let argument else { return nil }
            let work = Unmanaged<Work>.fromOpaque(argument).takeRetainedValue()
            PosixThread.nameCurrentThread(work.name)
            work.body()
            return nil
        }, argument)
        guard code == 0 else {
            Unmanaged<Work>.fromOpaque(argument).release()
            throw PosixThreadError(name: name, code: code)
        }
        self.handle = handle
    }

    /// Waits until the thread's closure has returned.
    public consuming func join() {
        _ = pthread_join(handle, nil)
        discard self
    }

    deinit { _ = pthread_detach(handle) }

    /// What the thread runs; a class so its one reference can travel through `void *`.
    private final class Work: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Names the calling thread for top -H, ps -L and gdb. pthread_setname_np is a GNU
    /// extension the Glibc module does not import; on Linux it writes this same file
    /// (glibc's pthread_setname.c), whose limit is 15 bytes (TASK_COMM_LEN - 1). Best effort.
    private static func nameCurrentThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}

/// `pthread_create` failed; `code` is its error number.
public struct PosixThreadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var code: Int32

    public var description: String {
        "cannot start the thread \"\(name)\": \(String(cString: strerror(code))) (pthread_create returned \(code))"
    }
}
