import ArgumentParser
import FitBus
import FitProtocol
import FitScale
import FitService
import FitText
import Logging
import ServiceLifecycle

@main
struct FitdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitd",
        abstract: "The fitd daemon: text measurement and adaptive layout on the D-Bus session bus.",
        discussion: """
            Normally started by D-Bus activation or as the systemd user service fitd.service.

            Examples:
              fitd                       # serve org.fitd.Fit1 on the session bus
              fitd --replace             # take the name over from a running fitd
              fitd --address unix:path=/run/user/1000/bus

            Limits come from $XDG_CONFIG_HOME/fitd/fitd.conf ([limits] max_text_bytes, max_batch, cache_bytes,
            idle_release_seconds, workers, persist_results).

            Measured results are saved to $XDG_CACHE_HOME/fitd/results.bin when fitd stops (SIGTERM) or goes
            idle, and the next fitd answers them at once; persist_results = false turns it off. The files hold
            keyed hashes and enciphered values under a per-user secret beside them, never a text in clear; a
            cache directory that is a link, someone else's or writable by others turns it off with a warning.
            """,
        version: FitVersion.line(program: "fitd"))

    @Flag(help: "Take org.fitd.Fit1 over from the instance that owns it.")
    var replace = false

    @Option(help: "Connect to this D-Bus address instead of the session bus.")
    var address: String?

    @Option(help: "Read limits from this file instead of $XDG_CONFIG_HOME/fitd/fitd.conf.")
    var config: String?

    @Option(help: "How much to log (to the journal, or stderr).")
    var logLevel: Logger.Level = .info

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
        let logger = Logger(label: "fitd")

        let environment = FitScaleEnvironment(environment: ProcessEnvironment.all())
        let configPath = config ?? environment.fitdConfigPath
        let limits = DaemonSetup.loadLimits(path: configPath, logger: logger)
        // Before anything loads fontconfig: the engine's configuration is the one it checked.
        let fontconfigCheck = FontconfigSetup.prepare(logger: logger)
        let engine: TextEngine
        do {
            var configuration = limits.cacheBudget.engine
            // What it saves is stamped with the fonts it measured with (TextEngine.Configuration).
            configuration.stampsFontSet = limits.persistResults
            engine = try TextEngine(configuration: configuration)
        } catch {
            logger.critical("cannot start the text engine: \(error)")
            throw ExitCode(1)
        }
        // Read once, as Pango reads it once per process (PANGO_RULES.md §10).
        logger.info("language: \(engine.contextLanguage), preferred: \(engine.contextPreferredLanguages.joined(separator: ":"))")
        let service = FitService(engine: engine, limits: limits, logger: logger)
        MallocTrim.mapLargeBlocks()
        service.onLargeRequest { MallocTrim.trim() }
        // Before the name is ours: the call that activated us may be one measured before.
        let warmStart = WarmStartSetup.make(limits: limits, engine: engine, logger: logger)
        warmStart?.load()
        let idleTrim = Task.detached(priority: .background) {
            await IdleTrim.run(service: service, idleReleaseSeconds: limits.idleReleaseSeconds, warmStart: warmStart)
        }
        defer { idleTrim.cancel() }
        let daemon = BusDaemon(
            service: service, address: address, replace: replace, environment: environment, fontconfigCheck: fontconfigCheck,
            logger: logger)
        let group = ServiceGroup(configuration: .init(
            // Returning from run() (name lost, bus gone) is a normal end, not a failure.
            services: [.init(service: daemon, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        do {
            try await group.run()
            await warmStart?.save()
        } catch let error as DaemonStartError {
            logger.critical("\(error.message)")
            throw ExitCode(error.exitCode)
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

enum DaemonSetup {
    static func loadLimits(path: String, logger: Logger) -> ServiceLimits {
        do {
            guard let file = try ConfigFile.load(path: path) else { return ServiceLimits() }
            return try ServiceLimits(config: file)
        } catch {
            // FitScale's syntax errors start with the path already; say it once.
            let text = "\(error)"
            logger.warning("\(text.hasPrefix(path) ? text : "\(path): \(text)"); using the default limits")
            return ServiceLimits()
        }
    }
}
