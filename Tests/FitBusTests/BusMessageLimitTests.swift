import Foundation
import Testing
@testable import FitBus
import FitTestSupport

/// A reply never makes the bus drop the daemon: the bus's message limit is read where the bus
/// reads it, and a longer reply is an error to its caller, not a message that disconnects
/// every client.
@Suite(.serialized) struct BusMessageLimitTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fit-bus-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theLastLimitInIncludeOrderWinsAsDbusDaemonAppliesThem() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("bus.d"), withIntermediateDirectories: true)
        try """
            <busconfig>
              <!-- <limit name="max_message_size">1</limit> a comment is not a limit -->
              <limit name="max_message_size">1000000000</limit>
              <include ignore_missing="yes">local.conf</include>
              <includedir>bus.d</includedir>
              <include ignore_missing="yes">missing.conf</include>
              <limit name="max_incoming_bytes">5</limit>
            </busconfig>
            """.write(to: dir.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        try "<busconfig><limit name='max_message_size'> 4096 </limit></busconfig>"
            .write(to: dir.appendingPathComponent("local.conf"), atomically: true, encoding: .utf8)
        try #"<busconfig><limit name="max_message_size">20971520</limit></busconfig>"#
            .write(to: dir.appendingPathComponent("bus.d/50-b.conf"), atomically: true, encoding: .utf8)
        try #"<busconfig><limit name="max_message_size">7</limit></busconfig>"#
            .write(to: dir.appendingPathComponent("bus.d/10-a.conf"), atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("bus.conf").path
        let limit = BusMessageLimit.ofDaemon(arguments: ["/usr/bin/dbus-daemon", "--config-file=\(path)", "--nofork"])
        #expect(limit?.bytes == 20_971_520)
        #expect(limit?.source.hasSuffix("bus.d/50-b.conf") == true, "\(String(describing: limit))")
        // --config-file PATH, --session: the same reading.
        #expect(BusMessageLimit.ofDaemon(arguments: ["dbus-daemon", "--config-file", path])?.bytes == 20_971_520)
        try FileManager.default.copyItem(atPath: path, toPath: dir.appendingPathComponent("session.conf").path)
        #expect(BusMessageLimit.ofDaemon(arguments: ["dbus-daemon", "--session"], dataDirectories: [dir.path])?.bytes == 20_971_520)
        // Another bus program, or a daemon without a configuration: nothing known.
        #expect(BusMessageLimit.ofDaemon(arguments: ["/usr/bin/dbus-broker", "--config-file=\(path)"]) == nil)
        #expect(BusMessageLimit.ofDaemon(arguments: ["dbus-daemon", "--nofork"]) == nil)
        // More than the specification allows is the specification's limit.
        #expect(BusMessageLimit(bytes: 1 << 40, source: "x").bytes == BusMessageLimit.specification)
    }

    @Test func aConfigurationThatIsAFifoIsNotWaitedFor() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("bus.conf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(BusMessageLimit.ofDaemon(arguments: ["dbus-daemon", "--config-file=\(fifo)"]) == nil)
    }

    @Test func theLimitIsAskedOfTheRunningBus() async throws {
        try await withTestObject(maxMessageSize: 20 << 20) { (_, _, server, _) async throws in
            #expect(server.messageLimit.bytes == 20 << 20)
            #expect(server.messageLimit.source.contains("bus.conf"), "\(server.messageLimit)")
        }
    }

    @Test func aReplyLongerThanTheBusTakesIsAnErrorAndTheServerStaysOnTheBus() async throws {
        try await withTestObject(maxMessageSize: 4 << 20) { (_, _, server, client) async throws in
            #expect(try await client.test("Repeat", [.uint32(1 << 20)]).first == .string(String(repeating: "x", count: 1 << 20)))
            let error = await #expect(throws: DBusError.self) { try await client.test("Repeat", [.uint32(5 << 20)]) }
            #expect(error?.name == .limitsExceeded)
            #expect(error?.message.contains("over the bus's limit of 4 MiB") == true, "\(String(describing: error))")
            // The server was not dropped: it answers, and still owns its name.
            #expect(try await client.test("Echo", [.string("still here")]) == [.string("still here")])
            #expect(server.uniqueName != nil)
        }
    }
}
