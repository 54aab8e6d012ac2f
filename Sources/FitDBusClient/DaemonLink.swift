import FitBus
import FitProtocol
import Synchronization

/// The client's connection to the daemon. Every call in the contract is idempotent (a
/// measurement has no side effect), so a call that fails because the daemon went away is
/// made once more: the bus activates a new daemon, and a closed connection is reopened.
final class DaemonLink: Sendable {
    private let address: String?
    private let timeout: Duration
    private let connection: Mutex<BusConnection>

    private init(address: String?, timeout: Duration, connection: BusConnection) {
        self.address = address
        self.timeout = timeout
        self.connection = Mutex(connection)
    }

    static func open(address: String?, timeout: Duration) async throws(FitClientError) -> DaemonLink {
        let connection = try await connect(address: address)
        let link = DaemonLink(address: address, timeout: timeout, connection: connection)
        // Ping through the bus name: this activates the daemon if it is not running.
        do throws(DBusError) {
            _ = try await connection.call(
                destination: FitNames.busName, path: FitNames.objectPath, interface: "org.freedesktop.DBus.Peer",
                member: "Ping", timeout: timeout)
        } catch {
            connection.close()
            throw .unavailable("\(FitNames.busName) did not answer (\(error.message))")
        }
        return link
    }

    private static func connect(address: String?) async throws(FitClientError) -> BusConnection {
        do throws(DBusError) {
            if let address { return try await BusConnection.connect(address: address) }
            return try await BusConnection.session()
        } catch {
            throw .unavailable("no session bus (\(error.message))")
        }
    }

    func call(_ member: String, _ arguments: [DBusValue], interface: String = FitNames.interface) async throws(FitClientError) -> [DBusValue] {
        try await retrying { (connection) throws(DBusError) in
            try await connection.call(
                destination: FitNames.busName, path: FitNames.objectPath, interface: interface, member: member,
                arguments: arguments, timeout: self.timeout)
        }
    }

    /// A call whose arguments and reply are written and read value by value
    /// (BusConnection's streaming `call`), for batches.
    func call<Reply>(
        _ member: String, signature: String, write: @escaping @Sendable (inout DBusWriter) throws(DBusError) -> Void,
        read: @escaping @Sendable (inout DBusReader) throws(DBusError) -> Reply
    ) async throws(FitClientError) -> Reply {
        try await retrying { (connection) throws(DBusError) in
            try await connection.call(
                destination: FitNames.busName, path: FitNames.objectPath, interface: FitNames.interface, member: member,
                signature: signature, timeout: self.timeout, write: write, read: read)
        }
    }

    func property(_ name: String) async throws(FitClientError) -> DBusValue {
        let reply = try await call(
            "Get", [.string(FitNames.interface), .string(name)], interface: "org.freedesktop.DBus.Properties")
        guard let value = reply.first else { throw .protocolMismatch("Get \(name) returned nothing") }
        return value.unwrapped
    }

    /// Signals of org.fitd.Fit1 named `member`, from whichever process owns the name (a
    /// restarted daemon too: the match has no sender).
    func signals(_ member: String) async throws(FitClientError) -> AsyncStream<DBusSignal> {
        let connection = self.connection.withLock { $0 }
        do throws(DBusError) {
            return try await connection.signals(matching: SignalMatch(path: FitNames.objectPath, interface: FitNames.interface, member: member))
        } catch {
            throw FitClientError(error)
        }
    }

    /// Runs a call, and once more when it failed because the daemon went away.
    ///
    /// A NoReply that comes only once the whole timeout has passed is this client's own
    /// timeout (libdbus reports it under the same name as the bus's "recipient disconnected"):
    /// the daemon is alive and may still be working on the call, so it is not repeated. A
    /// repeat would hand a slow daemon the same work twice, just when it is slowest.
    private func retrying<T>(_ call: (BusConnection) async throws(DBusError) -> T) async throws(FitClientError) -> T {
        let start = ContinuousClock.now
        do throws(FitClientError) {
            return try await once(call)
        } catch where error.meansDaemonGone && ContinuousClock.now - start < timeout {
            return try await once(call)
        }
    }

    private func once<T>(_ call: (BusConnection) async throws(DBusError) -> T) async throws(FitClientError) -> T {
        let connection = self.connection.withLock { $0 }
        do throws(DBusError) {
            return try await call(connection)
        } catch {
            if error.name == .disconnected {
                // The bus connection itself is gone: reopen it for the retry.
                if let fresh = try? await DaemonLink.connect(address: address) {
                    self.connection.withLock { $0 = fresh }
                }
                throw .rejected(name: DBusError.Name.disconnected.rawValue, message: error.message)
            }
            throw FitClientError(error)
        }
    }
}
