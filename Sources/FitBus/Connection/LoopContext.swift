import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// Everything that touches one libdbus connection, confined to that connection's loop
/// thread: it is created there, and other threads reach it only through `JobQueue` jobs.
/// Not Sendable on purpose, so the compiler keeps it on that thread.
///
/// The design choice (brief: "thread-safe queue or dbus_threads_init_default"): FitBus
/// confines every libdbus connection call to the loop thread. libdbus's own locking
/// (`dbus_threads_init_default`, the default since 1.7) is still enabled because message
/// reference counts and libdbus's global caches are shared by several connections' threads.
final class LoopContext {
    let connection: OpaquePointer
    let queue: JobQueue
    /// The public handle; weak so that dropping the last `BusConnection` stops the loop.
    weak var owner: BusConnection?
    let subscriptions: SignalSubscriptions

    /// libdbus's watches (dbus_connection_set_watch_functions): file descriptors it wants
    /// polled. Their enabled state and flags are read fresh before every poll.
    var watches: [OpaquePointer] = []
    /// libdbus's timeouts (dbus_connection_set_timeout_functions) with their next
    /// deadline, nil while disabled. They repeat until libdbus removes them.
    var timeouts: [OpaquePointer: ContinuousClock.Instant?] = [:]
    var pendingCalls: [UInt64: PendingCall] = [:]
    /// Pending calls to unreference at the top of the next iteration, never inside
    /// their own notify callback.
    var finishedPendingCalls: [OpaquePointer] = []
    var disconnected = false

    init(connection: OpaquePointer, queue: JobQueue, owner: BusConnection, subscriptions: SignalSubscriptions) {
        self.connection = connection
        self.queue = queue
        self.owner = owner
        self.subscriptions = subscriptions
    }

    var isOpen: Bool { !disconnected && !queue.isClosed }

    /// Hooks this context into libdbus. The user data is unretained: the context outlives
    /// the connection, which `run()` closes and releases before returning.
    func install() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_exit_on_disconnect(connection, 0)
        _ = dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                guard let watch, let data else { return 0 }
                LoopContext.from(data).watches.append(watch)
                return 1
            },
            { watch, data in
                guard let watch, let data else { return }
                LoopContext.from(data).watches.removeAll { $0 == watch }
            },
            nil,  // toggles need no bookkeeping: dbus_watch_get_enabled is read before each poll
            me, nil)
        _ = dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                guard let timeout, let data else { return 0 }
                LoopContext.from(data).timeouts[timeout] = LoopContext.deadline(timeout)
                return 1
            },
            { timeout, data in
                guard let timeout, let data else { return }
                LoopContext.from(data).timeouts.removeValue(forKey: timeout)
            },
            { timeout, data in
                guard let timeout, let data else { return }
                LoopContext.from(data).timeouts[timeout] = LoopContext.deadline(timeout)
            },
            me, nil)
        _ = dbus_connection_add_filter(
            connection,
            { _, message, data in
                guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                // Our own reference (dbus_message_ref) to a message libdbus has received and
                // locked: libdbus never writes to it again, so whoever holds this reference
                // holds the message alone. The filter may hand it to one task
                // (MessageHandOver, under its lock); the checker cannot see through the C pointer.
                nonisolated(unsafe) let own = DBusMessage(borrowing: message)
                return LoopContext.from(data).filter(own)
            },
            me, nil)
    }

    static func from(_ data: UnsafeMutableRawPointer) -> LoopContext {
        Unmanaged<LoopContext>.fromOpaque(data).takeUnretainedValue()
    }

    static func deadline(_ timeout: OpaquePointer) -> ContinuousClock.Instant? {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return nil }
        return .now + .milliseconds(Int(dbus_timeout_get_interval(timeout)))
    }

    /// The loop: run posted jobs, dispatch what libdbus has queued, then poll(2) the
    /// wakeup pipe and libdbus's watches until the nearest libdbus timeout.
    func run() {
        while true {
            for pending in finishedPendingCalls { dbus_pending_call_unref(pending) }
            finishedPendingCalls.removeAll()
            let (jobs, closed) = queue.takeAll()
            for job in jobs { job(self) }
            if closed || disconnected { break }
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            if disconnected { break }
            writeNow()
            pollOnce()
        }
        shutdown()
    }

    /// Writes what is queued (replies just sent, calls just made) before polling: the socket
    /// is almost always writable, and waiting for poll(2) to say so cost every reply one more
    /// trip through the loop, which a plain libdbus service (dbus_connection_read_write_dispatch)
    /// does not pay. When the socket is full, libdbus keeps the rest and the write watch stays on.
    private func writeNow() {
        guard dbus_connection_has_messages_to_send(connection) != 0 else { return }
        for watch in watches {
            // A handled watch may remove another; skip those libdbus no longer knows.
            guard watches.contains(watch), dbus_watch_get_enabled(watch) != 0,
                dbus_watch_get_flags(watch) & DBUS_WATCH_WRITABLE.rawValue != 0
            else { continue }
            _ = dbus_watch_handle(watch, DBUS_WATCH_WRITABLE.rawValue)
        }
    }

    /// libdbus reads at most 2,048 bytes per readable watch (dbus-transport-socket.c,
    /// max_bytes_read_per_iteration, not settable): a 100 KB batch reply took 50 trips
    /// through poll(2) and this loop. While the socket holds more bytes (FIONREAD) and no
    /// whole message waits to be dispatched, the watch reads on. Bounded, so that posted
    /// jobs still run between the reads of a huge message.
    private func readAhead(_ watch: OpaquePointer) {
        let fd = dbus_watch_get_unix_fd(watch)
        for _ in 0..<256 {
            guard watches.contains(watch), dbus_watch_get_enabled(watch) != 0,
                dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_COMPLETE
            else { return }
            var available: Int32 = 0
            guard ioctl(fd, UInt(FIONREAD), &available) == 0, available > 0 else { return }
            _ = dbus_watch_handle(watch, DBUS_WATCH_READABLE.rawValue)
        }
    }

    private func pollOnce() {
        let active = watches.filter { dbus_watch_get_enabled($0) != 0 }
        var fds = [pollfd(fd: queue.wakeFD, events: Int16(POLLIN), revents: 0)]
        for watch in active {
            let flags = dbus_watch_get_flags(watch)
            var events: Int32 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= POLLIN }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= POLLOUT }
            fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: Int16(events), revents: 0))
        }
        let now = ContinuousClock.now
        var wait: Int32 = -1
        if let next = timeouts.values.compactMap({ $0 }).min() {
            let ms = max(0, (next - now) / .milliseconds(1))
            wait = Int32(min(ms.rounded(.up), Double(Int32.max)))
        }
        let ready = poll(&fds, nfds_t(fds.count), wait)
        if ready < 0 && errno != EINTR { disconnected = true; return }
        if fds[0].revents != 0 { queue.drainWakeups() }
        for (index, watch) in active.enumerated() {
            let revents = Int32(fds[index + 1].revents)
            // A handled watch may remove another; skip those libdbus no longer knows.
            guard revents != 0, watches.contains(watch) else { continue }
            var flags: UInt32 = 0
            if revents & POLLIN != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
            if revents & POLLOUT != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
            if revents & POLLERR != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
            if revents & POLLHUP != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
            _ = dbus_watch_handle(watch, flags)
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { readAhead(watch) }
        }
        let after = ContinuousClock.now
        let expired = timeouts.compactMap { entry in entry.value.map { $0 <= after ? entry.key : nil } ?? nil }
        for timeout in expired where timeouts[timeout] != nil {
            timeouts[timeout] = LoopContext.deadline(timeout)
            _ = dbus_timeout_handle(timeout)
        }
    }

    /// Fails every outstanding request, ends every signal stream, closes the connection
    /// (a private connection must be closed before its last unref, libdbus docs for
    /// dbus_connection_open_private) and runs jobs that raced with the close.
    private func shutdown() {
        queue.close()
        disconnected = true
        for call in pendingCalls.values { call.finish(.failure(.closed), in: self) }
        pendingCalls.removeAll()
        for job in queue.takeAll().jobs { job(self) }
        subscriptions.finishAll()
        dbus_connection_close(connection)
        for pending in finishedPendingCalls { dbus_pending_call_unref(pending) }
        finishedPendingCalls.removeAll()
        dbus_connection_unref(connection)
    }
}
