import Foundation
@testable import FitBus

/// A private dbus-daemon for one test, so tests never touch the user's session bus.
/// The config allows everything; max_message_size is the system bus's 32 MiB
/// (dbus-daemon(1), "max_message_size") so oversized messages are refused by the bus.
final class PrivateBus {
    let process = Process()
    let address: String
    let directory: URL

    static let config = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <limit name="max_message_size">33554432</limit>
        </busconfig>
        """

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fitbus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configURL = directory.appendingPathComponent("bus.conf")
        try Self.config.write(to: configURL, atomically: true, encoding: .utf8)
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(configURL.path)", "--nofork", "--print-address=1"]
        process.standardOutput = output
        try process.run()
        // dbus-daemon prints the address once it listens; a short blocking read is fine in a test.
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if address.isEmpty { stop(); throw DBusError(.failed, "dbus-daemon printed no address") }
    }

    func stop() {
        if process.isRunning {
            // SIGKILL, not terminate(): the child inherits the test runner's signal mask,
            // in which SIGTERM is blocked, so dbus-daemon would never see it.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

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
    let bus = try PrivateBus()
    defer { bus.stop() }
    let server = try await BusConnection.connect(address: bus.address)
    let client = try await BusConnection.connect(address: bus.address)
    defer {
        server.close()
        client.close()
    }
    let state = TestObject.State()
    server.export(try TestObject.make(state: state))
    _ = try await server.requestName(TestObject.busName)
    try await body(bus, server, client)
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
