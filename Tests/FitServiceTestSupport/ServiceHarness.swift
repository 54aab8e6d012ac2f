import FitTestSupport
import FitBus
import FitClient
import FitProtocol
import FitService
import FitText
import Foundation
import Logging

/// The engine every test shares, set up like the Pango oracle and the end-to-end tests: the
/// pinned fonts of Tests/fonts/fonts.conf (FONTCONFIG_FILE is read when the engine loads
/// its configuration, so it is set first), language en-us.
public enum SharedEngine {
    public static var fontsConf: String { PinnedEngine.fontsConf }


    public static func engine() throws -> TextEngine { try PinnedEngine.engine() }

    /// An engine of its own on the pinned fonts, for a test whose caches no other test may fill.
    public static func fresh() throws -> TextEngine {
        _ = try engine()  // pins the fonts first
        var configuration = TextEngine.Configuration()
        configuration.language = "en-us"
        configuration.preferredLanguages = []
        return try TextEngine(configuration: configuration)
    }
}

/// FitService served in this process on a private bus, the way fitd serves it (export the
/// object, then take org.fitd.Fit1), and a FitClient in daemon mode talking to it.
public final class ServiceHarness {
    public let bus: PrivateBus
    public let service: FitService
    public private(set) var connection: BusConnection

    private init(bus: PrivateBus, service: FitService, connection: BusConnection) {
        self.bus = bus
        self.service = service
        self.connection = connection
    }

    public static func start(limits: ServiceLimits = ServiceLimits(), engine: TextEngine? = nil) async throws -> ServiceHarness {
        let bus = try PrivateBus()
        var logger = Logger(label: "fitd-test")
        logger.logLevel = .critical
        let service = FitService(engine: try engine ?? SharedEngine.engine(), limits: limits, logger: logger)
        let connection = try await serve(service, on: bus.address)
        return ServiceHarness(bus: bus, service: service, connection: connection)
    }

    /// A new connection serving `service`: exported, then the name requested as fitd does.
    public static func serve(
        _ service: FitService, on address: String,
        flags: BusConnection.RequestNameFlags = [.doNotQueue, .allowReplacement]
    ) async throws -> BusConnection {
        let connection = try await BusConnection.connect(address: address)
        await connection.discoverMessageLimit()  // as fitd does
        connection.export(try service.exportedObject())
        let reply = try await connection.requestName(FitNames.busName, flags: flags)
        guard reply == .primaryOwner || reply == .inQueue else {
            connection.close()
            throw DBusError(.failed, "RequestName answered \(reply)")
        }
        return connection
    }

    /// What a daemon restart looks like to clients: this connection goes, a new one serves.
    public func restart() async throws {
        connection.close()
        connection = try await Self.serve(service, on: bus.address)
    }

    public func client() async throws -> FitClient {
        try await FitClient.connect(mode: .daemon, address: bus.address, timeout: .seconds(10))
    }

    public func stop() {
        connection.close()
        bus.stop()
    }
}

/// Runs `body` with a served FitService and a daemon-mode client; tears both down after.
public func withService(
    limits: ServiceLimits = ServiceLimits(),
    _ body: (ServiceHarness, FitClient) async throws -> Void
) async throws {
    let harness = try await ServiceHarness.start(limits: limits)
    defer { harness.stop() }
    let client = try await harness.client()
    guard !client.isEmbedded else { throw DBusError(.failed, "the harness's client measures in-process, not through the served FitService") }
    try await body(harness, client)
}
