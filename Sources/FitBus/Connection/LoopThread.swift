import CDBus
import FitThreads

/// Starts a connection's loop thread: a POSIX thread, not a task, because the loop blocks
/// in poll(2) and must never occupy Swift's cooperative pool.
enum LoopThread {
    enum Endpoint: Sendable {
        case session
        case address(String, register: Bool)
    }

    static func start(
        endpoint: Endpoint, owner: BusConnection, ready: @escaping @Sendable (Result<String?, DBusError>) -> Void
    ) {
        do throws(PosixThreadError) {
            // Not joined (dropping the value detaches it): the loop ends when the connection
            // closes, and the thread with it.
            _ = try PosixThread(name: "FitBus loop") { [weak owner, queue = owner.queue, subscriptions = owner.subscriptions] in
                // Connecting blocks (authentication, Hello), which is fine here: this thread is ours.
                guard let context = connect(endpoint, queue: queue, owner: owner, subscriptions: subscriptions, ready: ready)
                else { return }
                context.run()
            }
        } catch {
            ready(.failure(DBusError(.failed, "connecting: \(error)")))
        }
    }

    /// Opens and registers the connection; reports the result through `ready`. Holds the
    /// owner strongly only while connecting, so the owner's lifetime ends the loop later.
    private static func connect(
        _ endpoint: Endpoint, queue: JobQueue, owner: BusConnection?, subscriptions: SignalSubscriptions,
        ready: @Sendable (Result<String?, DBusError>) -> Void
    ) -> LoopContext? {
        // libdbus's locks for message refcounts and global caches shared between the loop
        // threads of several connections (dbus_threads_init_default docs).
        _ = dbus_threads_init_default()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        var raw: OpaquePointer?
        switch endpoint {
        case .session:
            raw = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        case .address(let address, let register):
            raw = address.withCString { dbus_connection_open_private($0, &error) }
            if let opened = raw, register, dbus_bus_register(opened, &error) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                raw = nil
            }
        }
        guard let raw else {
            let name = error.name.flatMap { String(validatingCString: $0) } ?? DBusError.Name.failed.rawValue
            let message = error.message.flatMap { String(validatingCString: $0) } ?? "could not connect"
            ready(.failure(DBusError(.init(rawValue: name), "connecting: \(message)")))
            return nil
        }
        guard let owner else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            ready(.failure(.closed))
            return nil
        }
        let context = LoopContext(connection: raw, queue: queue, owner: owner, subscriptions: subscriptions)
        context.install()
        ready(.success(dbus_bus_get_unique_name(raw).flatMap { String(validatingCString: $0) }))
        return context
    }
}
