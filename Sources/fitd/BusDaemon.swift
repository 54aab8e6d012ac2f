import FitBus
import FitProtocol
import FitScale
import FitService
import Logging
import ServiceLifecycle
import Synchronization

struct DaemonStartError: Error {
    var message: String
    var exitCode: Int32
}

/// The process's service: connects, exports /org/fitd/Fit1, owns the name, serves until
/// SIGTERM/SIGINT (graceful shutdown), until another instance replaces it (NameLost), or
/// until the bus goes away.
struct BusDaemon: Service {
    let service: FitService
    let address: String?
    let replace: Bool
    let environment: FitScaleEnvironment
    let fontconfigCheck: FontconfigGuard?
    let logger: Logger

    func run() async throws {
        let connection: BusConnection
        do {
            if let address {
                connection = try await BusConnection.connect(address: address)
            } else {
                connection = try await BusConnection.session()
            }
        } catch {
            throw DaemonStartError(message: "cannot connect to the bus: \(error)", exitCode: FitdCommand.ExitStatus.failure)
        }
        defer { connection.close() }
        // No reply may be longer than the bus takes: it would drop us, and every client with us.
        let messageLimit = await connection.discoverMessageLimit()
        logger.info("the bus takes messages of up to \(messageLimit)")

        // The text scale is read and applied before the name is ours: the first request,
        // the one that activated us, is measured at the user's scale. For at most
        // StartGate.limit: a source that does not answer must not keep the name from the
        // clients (the read then ends as a published change).
        let gate = StartGate()
        let runtime = RuntimeSlot()
        let (service, environment, fontconfigCheck, logger) = (service, environment, fontconfigCheck, logger)
        let starting = Task {
            runtime.store(await TextScaleRuntime.start(
                service: service, connection: connection, environment: environment, fontconfigCheck: fontconfigCheck,
                gate: gate, logger: logger))
        }
        if !(await gate.wait()) {
            logger.warning("text scale: the settings were not read within \(StartGate.limit); serving at the default scale until they are")
        }
        defer {
            starting.cancel()
            runtime.take()?.stop()
        }

        // Calls of a client that leaves the bus are dropped or cancelled, not finished.
        do {
            try await connection.trackClientDisconnects()
        } catch {
            logger.warning("cannot follow clients leaving the bus (their work will finish anyway): \(error)")
        }

        // Export first: a client activated us and calls as soon as the name is ours.
        connection.export(try service.exportedObject())
        let lost = try await connection.signals(matching: SignalMatch(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameLost"))

        var flags: BusConnection.RequestNameFlags = [.doNotQueue, .allowReplacement]
        if replace { flags.insert(.replaceExisting) }
        let reply = try await connection.requestName(FitNames.busName, flags: flags)
        switch reply {
        case .primaryOwner, .alreadyOwner:
            logger.info("serving \(FitNames.busName) at \(FitNames.objectPath) as \(connection.uniqueName ?? "?"), version \(FitService.version)")
        case .exists, .inQueue:
            throw DaemonStartError(
                message: "another fitd owns \(FitNames.busName); stop it first, or start this one with --replace", exitCode: FitdCommand.ExitStatus.nameTaken)
        }

        // Serve until shutdown is requested or the name (or the bus) is lost.
        await withTaskGroup(of: String.self) { group in
            group.addTask {
                for await signal in lost {
                    if case .string(let name)? = signal.arguments.first, name == FitNames.busName {
                        return "lost the name \(FitNames.busName) (replaced by another instance)"
                    }
                }
                return "disconnected from the bus"
            }
            group.addTask {
                try? await gracefulShutdown()
                return "asked to stop"
            }
            if let reason = await group.next() {
                logger.info("shutting down: \(reason)")
            }
            group.cancelAll()
        }
        _ = try? await connection.releaseName(FitNames.busName)
    }
}

/// The text-scale runtime once its start has finished (it may finish after the name is taken).
final class RuntimeSlot: Sendable {
    private struct State {
        var runtime: TextScaleRuntime?
        var stopped = false
    }

    private let state = Mutex(State())

    func store(_ runtime: TextScaleRuntime) {
        // A start that ends after the daemon stopped stops at once.
        let stopNow = state.withLock { state -> Bool in
            if state.stopped { return true }
            state.runtime = runtime
            return false
        }
        if stopNow { runtime.stop() }
    }

    func take() -> TextScaleRuntime? {
        state.withLock { state in
            state.stopped = true
            defer { state.runtime = nil }
            return state.runtime
        }
    }
}
