@testable import FitBus
import FitTestSupport
import Foundation

struct ProcessResult: Sendable {
    var status: Int32
    var output: String
    var error: String
}

/// Runs an independent client (gdbus, busctl) against the private bus without blocking a
/// cooperative thread: the exit is awaited through terminationHandler.
func runTool(_ path: String, _ arguments: [String], busAddress: String) async throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
    process.environment = environment
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do { try process.run() } catch { continuation.resume(throwing: error) }
    }
    // Outputs are small (well under a pipe buffer), so reading after exit cannot deadlock.
    return ProcessResult(
        status: status,
        output: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
        error: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
}

/// One private bus, a server exporting `TestObject` as org.fitbus.Test, and a client.
func withBus(_ body: (PrivateBus, BusConnection, BusConnection) async throws -> Void) async throws {
    try await withTestObject { bus, _, server, client in try await body(bus, server, client) }
}

/// As `withBus`, with the test object's state too.
func withTestObject(
    maxMessageSize: Int = 32 << 20, _ body: (PrivateBus, TestObject.State, BusConnection, BusConnection) async throws -> Void
) async throws {
    let bus = try PrivateBus(maxMessageSize: maxMessageSize)
    defer { bus.stop() }
    let server = try await BusConnection.connect(address: bus.address)
    let client = try await BusConnection.connect(address: bus.address)
    defer {
        server.close()
        client.close()
    }
    let state = TestObject.State()
    state.connection.withLock { $0 = server }
    server.export(try TestObject.make(state: state))
    await server.discoverMessageLimit()
    _ = try await server.requestName(TestObject.busName)
    try await body(bus, state, server, client)
}

extension BusConnection {
    /// A call to the test object.
    func test(
        _ member: String, _ arguments: [DBusValue] = [], interface: String = TestObject.interface,
        path: String = TestObject.path, timeout: Duration = .seconds(10)
    ) async throws -> [DBusValue] {
        try await call(
            destination: TestObject.busName, path: path, interface: interface, member: member,
            arguments: arguments, timeout: timeout)
    }
}
