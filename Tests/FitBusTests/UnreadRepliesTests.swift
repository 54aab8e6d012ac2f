import CDBus
import Foundation
import Glibc
import Testing
@testable import FitBus
import FitTestSupport

/// A client that sends calls and never reads their replies cannot stall the daemon for
/// everyone: the bus buffers what a client leaves unread, and once it stops reading the
/// daemon's socket every other client's replies wait behind. Replies a client has not read
/// are bounded; past the bound its calls are refused, and the others are answered promptly.
@Suite(.serialized) struct UnreadRepliesTests {
    /// A bus client on a raw socket: authenticates, says Hello, writes calls, and never
    /// reads a byte after that.
    final class DeafClient {
        let fd: Int32
        private var serial: UInt32 = 0

        init(address: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw DBusError.failed("socket") }
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            let spec = address.split(separator: ";").first.map(String.init) ?? address
            let fields = Dictionary(spec.dropFirst("unix:".count).split(separator: ",").compactMap { pair -> (String, String)? in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { a, _ in a })
            var bytes: [UInt8]
            if let abstract = fields["abstract"] {
                bytes = [0] + Array(abstract.utf8)
            } else if let path = fields["path"] {
                bytes = Array(path.utf8)
            } else {
                throw DBusError.failed("address \(address)")
            }
            withUnsafeMutableBytes(of: &addr.sun_path) { dst in
                for (i, b) in bytes.prefix(dst.count - 1).enumerated() { dst[i] = b }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
            let connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
            }
            guard connected == 0 else { throw DBusError.failed("connect: errno \(errno)") }
            let uid = String(getuid()).utf8.map { String(format: "%02x", $0) }.joined()
            try write(Array("\0AUTH EXTERNAL \(uid)\r\n".utf8))
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while read(fd, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
            guard String(decoding: line, as: UTF8.self).hasPrefix("OK") else { throw DBusError.failed("auth: \(line)") }
            try write(Array("BEGIN\r\n".utf8))
            try send(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello", [])
        }

        deinit { close(fd) }

        func send(destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue]) throws {
            let message = try DBusMessage.methodCall(destination: destination, path: path, interface: interface, member: member)
            try message.append(arguments)
            serial += 1
            dbus_message_set_serial(message.raw, serial)
            var bytes: UnsafeMutablePointer<CChar>? = nil
            var length: Int32 = 0
            guard dbus_message_marshal(message.raw, &bytes, &length) != 0, let bytes else { throw DBusError.failed("marshal") }
            defer { dbus_free(bytes) }
            try write(Array(UnsafeRawBufferPointer(start: bytes, count: Int(length))))
        }

        private func write(_ bytes: [UInt8]) throws {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                guard n > 0 else { throw DBusError.failed("write: errno \(errno)") }
                offset += n
            }
        }
    }

    @Test func aClientThatNeverReadsItsRepliesCannotHoldUpAnotherClient() async throws {
        try await withTestObject { (bus, _, server, client) async throws in
            let deaf = try DeafClient(address: bus.address)
            // 400 calls of 1 MiB replies: 400 MiB, three times what dbus-daemon buffers for one
            // connection by default (max_outgoing_bytes, 127 MiB).
            for _ in 0..<400 {
                try deaf.send(destination: TestObject.busName, path: TestObject.path, interface: TestObject.interface,
                              member: "Repeat", [.uint32(1 << 20)])
            }
            // The calls it got in before its replies passed the bound run to their end (tens
            // of MiB of replies to build in a debug build: seconds); then nothing of it runs.
            let settled = ContinuousClock.now
            while server.scheduler.load.running > 0, ContinuousClock.now - settled < .seconds(20) {
                try await Task.sleep(for: .milliseconds(50))
            }
            // From then on another client's calls, small and large, are all answered while the
            // deaf client stays connected (the bus holds what it has not read). Without the bound
            // none is: once the bus has buffered what it holds for the deaf client
            // (max_outgoing_bytes) it stops reading the server's socket, and every later reply
            // waits behind the rest of the 400 MiB, which the deaf client never takes — no reply
            // at any timeout. So this bounds on the calls being answered, not on how fast: a
            // loaded machine (the whole suite and other builds on two cores) stretches the time
            // of an answer but never turns it into none. 30 s a call is 45 times the slowest
            // pair seen beside the whole suite (0.66 s); alone a pair takes about 30 ms.
            let pairs = 8
            var slowest: Duration = .zero
            let start = ContinuousClock.now
            for _ in 0..<pairs {
                let began = ContinuousClock.now
                #expect(try await client.test("Echo", [.string("hi")], timeout: .seconds(30)) == [.string("hi")])
                #expect(try await client.test("Repeat", [.uint32(256 << 10)], timeout: .seconds(30)).count == 1)
                slowest = max(slowest, ContinuousClock.now - began)
            }
            print("unread-replies: settled in \(settled.duration(to: start)); then \(pairs) pairs of calls answered in \(start.duration(to: .now)), the slowest in \(slowest)")
            // The deaf client is held at its bound: what the server sent it stays near it.
            #expect(server.scheduler.isOverUnreadLimit(deaf.uniqueNameGuess(from: server)))
        }
    }
}

extension UnreadRepliesTests.DeafClient {
    /// The deaf client's unique name, as the server's scheduler knows it: the one client
    /// with reply bytes over the limit.
    func uniqueNameGuess(from server: BusConnection) -> String? {
        server.scheduler.clientsOverUnreadLimit.first
    }
}
