import FitBus
import FitDBusClient
import FitService
import FitServiceTestSupport
import FitText
import Foundation
import Logging
import Testing

/// FitDBusClient's link to the daemon: a call survives a daemon restart or a daemon that
/// goes away mid-call (repeated once, idempotent), and a call that merely outlasts the
/// timeout is not repeated.
@Suite struct DaemonLinkTests {
    static let hello = MeasureRequest(text: "Hello, world", font: "DejaVu Sans 12")

    /// A served FitService and a FitDBusClient talking to it.
    func withLink(_ body: (ServiceHarness, FitDBusClient) async throws -> Void) async throws {
        let harness = try await ServiceHarness.start()
        defer { harness.stop() }
        try await body(harness, try await FitDBusClient.connect(address: harness.bus.address, timeout: .seconds(10)))
    }

    /// The daemon went away between two calls and a new one took the name: the client's
    /// next call simply works.
    @Test func clientSurvivesARestartBetweenCalls() async throws {
        try await withLink { (harness, client) async throws in
            #expect(try await client.measure(Self.hello).metrics.width == 94.78125)
            try await harness.restart()
            #expect(try await client.measure(Self.hello).metrics.width == 94.78125)
            #expect(try await client.generation() == 1)
        }
    }

    /// A call that outlasts the client's timeout gets NoReply from libdbus, as a call to a
    /// daemon that went away does from the bus, but the daemon is alive and still working on
    /// it: the client reports the timeout and does not hand the daemon the same work again.
    @Test func aCallThatTimesOutIsNotRepeated() async throws {
        try await withLink { (harness, _) async throws in
            let impatient = try await FitDBusClient.connect(address: harness.bus.address, timeout: .milliseconds(200))
            // Uncached texts: 3,000 take the debug engine about 0.8 s, four times the timeout.
            let batch = (0..<3_000).map { MeasureRequest(text: "slow \($0) \(UUID().uuidString)", font: "DejaVu Sans 10") }
            let before = harness.service.statistics.requestsServed
            await #expect(throws: FitClientError.self) { try await impatient.measureBatch(batch) }
            // The daemon finishes what it was given; a repeat would keep the count climbing
            // past one batch. Wait until it has been still for a second.
            var served = harness.service.statistics.requestsServed
            var still = ContinuousClock.now
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline, ContinuousClock.now - still < .seconds(1) || served - before < UInt64(batch.count) {
                try await Task.sleep(for: .milliseconds(100))
                let now = harness.service.statistics.requestsServed
                if now != served { served = now; still = .now }
            }
            #expect(served - before == UInt64(batch.count))
        }
    }

    /// The daemon goes away DURING a call (its connection closes mid-batch) while a
    /// replacement waits in the name's queue: the bus answers NoReply, FitClient repeats the
    /// idempotent call once, and the replacement serves it. The replacement's own request
    /// count proves the call was repeated there.
    @Test func clientRetriesACallTheDaemonDroppedMidway() async throws {
        try await withLink { (harness, client) async throws in
            var logger = Logger(label: "replacement")
            logger.logLevel = .critical
            let replacement = FitService(engine: try SharedEngine.engine(), limits: ServiceLimits(), logger: logger)
            let queued = try await ServiceHarness.serve(replacement, on: harness.bus.address, flags: [])
            defer { queued.close() }
            // Uncached texts, so the batch is still running when the connection closes: 3,000
            // take the debug engine 0.8 s of CPU (6 s of wall time at load average 12; `fitctl
            // measure --batch --local`). Not the limit's 10,000: on a loaded machine the repeated
            // call then outlasted the bus's 25 s reply timeout and failed with NoReply.
            let batch = (0..<min(3_000, ServiceLimits().maxBatchRequests)).map {
                MeasureRequest(text: "retry \($0) \(UUID().uuidString)", font: "DejaVu Sans 10")
            }
            async let results = client.measureBatch(batch)
            try await Task.sleep(for: .milliseconds(100))
            harness.connection.close()
            let measured = try await results
            #expect(measured.count == batch.count)
            #expect(measured.allSatisfy { ((try? $0.get().metrics.width) ?? 0) > 0 })
            #expect(replacement.statistics.requestsServed == UInt64(batch.count))
        }
    }
}
