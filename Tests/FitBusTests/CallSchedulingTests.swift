#if canImport(Glibc)
import Glibc
#endif
import FitTestSupport
import Synchronization
import Testing
@testable import FitBus

/// CallScheduling: heavy calls run on the connection's workers, fairly between clients,
/// bounded per client, and cancelled when their client leaves. The handlers here block their
/// thread (as a long measurement does) until the test opens a gate.
@Suite struct CallSchedulingTests {
    static let busName = "org.fitbus.Scheduling"
    static let path = "/org/fitbus/Scheduling"
    static let interface = "org.fitbus.Scheduling"

    /// What the blocking handler saw: the order calls started in, and those cancelled.
    final class Gate: Sendable {
        let open = Atomic<Bool>(false)
        let started = Mutex<[String]>([])
        let cancelled = Mutex<[String]>([])

        /// Blocks the calling thread until the gate opens or the task is cancelled.
        func block(_ name: String) -> String {
            started.withLock { $0.append(name) }
            while !open.load(ordering: .acquiring) {
                if Task.isCancelled {
                    cancelled.withLock { $0.append(name) }
                    return "cancelled"
                }
                usleep(1_000)
            }
            return "done"
        }

        var startedNames: [String] { started.withLock { $0 } }

        /// Waits (politely) until `count` calls have started; false after 10 s.
        func waitForStarts(_ count: Int) async -> Bool {
            for _ in 0..<1_000 {
                if started.withLock({ $0.count }) >= count { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
    }

    /// A call is heavy from 64 bytes of body: a name padded past that is heavy, a short one light.
    static func policy(workers: Int, callsPerClient: Int = 4_096, bytesPerClient: Int = 64 << 20) -> CallScheduling {
        var policy = CallScheduling()
        policy.bytesPerClient = bytesPerClient
        policy.heavyBodyBytes = 64
        policy.workerThreads = workers
        policy.callsPerClient = callsPerClient
        return policy
    }

    static func heavy(_ name: String) -> [DBusValue] { [.string(name + String(repeating: " ", count: 100))] }

    /// A private bus, a server exporting Block and Add under `policy`, and a client.
    func withServer(
        _ policy: CallScheduling, _ body: (PrivateBus, Gate, BusConnection, BusConnection) async throws -> Void
    ) async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try await BusConnection.connect(address: bus.address)
        let client = try await BusConnection.connect(address: bus.address)
        let gate = Gate()
        defer {
            gate.open.store(true, ordering: .releasing)
            server.close()
            client.close()
        }
        server.callScheduling = policy
        server.export(try ExportedObject(path: Self.path, interfaces: [
            try DBusInterface(Self.interface, methods: [
                try DBusMethod("Block", in: "s", out: "s") { arguments, _ throws(DBusError) in
                    let name: String = try arguments[0].decode()
                    return [.string(gate.block(String(name.prefix { $0 != " " })))]
                },
                // The name of the thread a call runs on: workers are "fitbus-workN".
                try DBusMethod("Where", in: "as", out: "s") { _, _ in [.string(Self.threadName())] },
                try DBusMethod("Add", in: "ii", out: "i") { arguments, _ throws(DBusError) in
                    let a: Int32 = try arguments[0].decode(), b: Int32 = try arguments[1].decode()
                    return [.int32(a &+ b)]
                },
            ])
        ]))
        try await server.trackClientDisconnects()
        _ = try await server.requestName(Self.busName)
        try await body(bus, gate, server, client)
    }

    static func threadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return "?" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).filter { $0 != "\n" }
    }

    static func call(_ connection: BusConnection, _ member: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await connection.call(
            destination: busName, path: path, interface: interface, member: member, arguments: arguments,
            timeout: .seconds(20))
    }

    @Test func smallCallsAreAnsweredWhileHeavyCallsHoldEveryWorker() async throws {
        try await withServer(Self.policy(workers: 2)) { _, gate, _, client in
            // More blocked heavy calls than the machine has cooperative threads: on the pool
            // they would leave no thread for the small call.
            let heavy = (0..<6).map { index in Task { try await Self.call(client, "Block", Self.heavy("h\(index)")) } }
            #expect(await gate.waitForStarts(2))
            let sum = try await client.call(
                destination: Self.busName, path: Self.path, interface: Self.interface, member: "Add",
                arguments: [.int32(2), .int32(3)], timeout: .seconds(5))
            #expect(sum == [.int32(5)])
            // Two workers: two heavy calls run, four wait their turn.
            #expect(gate.startedNames.count == 2)
            gate.open.store(true, ordering: .releasing)
            for task in heavy { #expect(try await task.value == [.string("done")]) }
            #expect(gate.startedNames.count == 6)
        }
    }

    @Test func aCallWithALargeArrayRunsOnAWorkerASmallOneOnThePool() async throws {
        try await withServer(Self.policy(workers: 1)) { _, _, _, client in
            let large = DBusValue.array(elementSignature: "s", (0..<100).map { .string("item \($0)") })
            let small = DBusValue.array(elementSignature: "s", [.string("one")])
            #expect(try await Self.call(client, "Where", [large]) == [.string("fitbus-work0")])
            let pool = try await Self.call(client, "Where", [small])
            #expect(pool != [.string("fitbus-work0")])
        }
    }

    @Test func heavyCallsTakeTurnsBetweenClients() async throws {
        try await withServer(Self.policy(workers: 1)) { bus, gate, _, client in
            let other = try await BusConnection.connect(address: bus.address)
            defer { other.close() }
            var tasks: [Task<[DBusValue], any Error>] = []
            tasks.append(Task { try await Self.call(client, "Block", Self.heavy("a0")) })
            #expect(await gate.waitForStarts(1))
            for index in 1...3 {
                tasks.append(Task { try await Self.call(client, "Block", Self.heavy("a\(index)")) })
            }
            // Let a1…a3 reach the server's queue before b0 does.
            try await Task.sleep(for: .milliseconds(300))
            tasks.append(Task { try await Self.call(other, "Block", Self.heavy("b0")) })
            try await Task.sleep(for: .milliseconds(300))
            gate.open.store(true, ordering: .releasing)
            for task in tasks { _ = try await task.value }
            let order = gate.startedNames
            let b = try #require(order.firstIndex(of: "b0"))
            // First come first served would start b0 last, after a1, a2 and a3.
            #expect(b < 3, "start order \(order)")
        }
    }

    /// One client's long calls holding every worker do not make another client's call wait
    /// for them to end: it starts at once on a spare thread, and the kernel shares the cores.
    /// The busy client's own next call still waits for a worker.
    @Test func aClientWithNothingRunningStartsAtOnceWhileAnotherHoldsEveryWorker() async throws {
        try await withServer(Self.policy(workers: 1)) { bus, gate, _, client in
            let other = try await BusConnection.connect(address: bus.address)
            defer { other.close() }
            var tasks: [Task<[DBusValue], any Error>] = []
            tasks.append(Task { try await Self.call(client, "Block", Self.heavy("a0")) })
            #expect(await gate.waitForStarts(1))
            tasks.append(Task { try await Self.call(client, "Block", Self.heavy("a1")) })
            try await Task.sleep(for: .milliseconds(200))
            tasks.append(Task { try await Self.call(other, "Block", Self.heavy("b0")) })
            #expect(await gate.waitForStarts(2))
            try await Task.sleep(for: .milliseconds(200))
            #expect(gate.startedNames == ["a0", "b0"], "a0 blocks the only worker; b0 must not wait for it")
            gate.open.store(true, ordering: .releasing)
            for task in tasks { _ = try await task.value }
            #expect(gate.startedNames.sorted() == ["a0", "a1", "b0"])
        }
    }

    @Test func aClientOverItsLimitIsRefusedAtOnce() async throws {
        try await withServer(Self.policy(workers: 1, callsPerClient: 3)) { _, gate, server, client in
            let tasks = (0..<5).map { index in
                Task { () -> String in
                    do {
                        _ = try await Self.call(client, "Block", Self.heavy("c\(index)"))
                        return "answered"
                    } catch let error as DBusError {
                        return error.name.rawValue
                    } catch {
                        return "\(error)"
                    }
                }
            }
            // The refusals come while the accepted calls are still blocked.
            #expect(await gate.waitForStarts(1))
            try await Task.sleep(for: .milliseconds(300))
            #expect(server.callLoad.queued + server.callLoad.running == 3)
            gate.open.store(true, ordering: .releasing)
            var outcomes: [String] = []
            for task in tasks { outcomes.append(await task.value) }
            #expect(outcomes.filter { $0 == "answered" }.count == 3)
            #expect(outcomes.filter { $0 == DBusError.Name.limitsExceeded.rawValue }.count == 2)
        }
    }

    @Test func aClientsFirstCallIsNeverRefusedForBytesItsSecondIs() async throws {
        // Each heavy call's body is over 100 bytes: past the limit on its own.
        try await withServer(Self.policy(workers: 1, bytesPerClient: 50)) { _, gate, _, client in
            let first = Task { try await Self.call(client, "Block", Self.heavy("first")) }
            #expect(await gate.waitForStarts(1))
            var refusal: DBusError? = nil
            do { _ = try await Self.call(client, "Block", Self.heavy("second")) } catch let error as DBusError { refusal = error }
            #expect(refusal?.name == .limitsExceeded)
            gate.open.store(true, ordering: .releasing)
            #expect(try await first.value == [.string("done")])
            #expect(gate.startedNames == ["first"])
        }
    }

    @Test func callsOfAClientThatLeavesAreCancelledOrDropped() async throws {
        try await withServer(Self.policy(workers: 1)) { bus, gate, server, _ in
            let leaving = try await BusConnection.connect(address: bus.address)
            for index in 0..<3 {
                Task { _ = try? await Self.call(leaving, "Block", Self.heavy("l\(index)")) }
            }
            #expect(await gate.waitForStarts(1))
            try await Task.sleep(for: .milliseconds(200))
            leaving.close()
            // The running call sees its cancellation; the queued two never start.
            var cancelled: [String] = []
            for _ in 0..<500 {
                cancelled = gate.cancelled.withLock { $0 }
                if !cancelled.isEmpty, server.callLoad.running == 0 { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(cancelled.count == 1)
            #expect(gate.startedNames.count == 1)
            #expect(server.callLoad.queued == 0 && server.callLoad.running == 0)
        }
    }
}
