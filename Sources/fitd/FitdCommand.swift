import Glibc
import FitBus
import FitProtocol
import FitScale
import FitService
import FitText
import Logging
import ServiceLifecycle

@main
enum FitdCommand {
    static func main() async {
        let command: DaemonOptions.Command
        do throws(DaemonOptions.UsageError) {
            command = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            JournalLogHandler.writeToStandardError("fitd: \(error)\nUsage: \(DaemonOptions.usage)\nSee 'fitd --help'.\n")
            exit(ExitStatus.usage)
        }
        switch command {
        case .help: print(DaemonOptions.help)
        case .version: print(FitVersion.line(program: "fitd"))
        case .serve(let options): exit(await serve(options))
        }
    }

    /// The exit statuses fitd(8) lists.
    enum ExitStatus {
        static let success: Int32 = 0
        static let failure: Int32 = 1
        /// Another fitd owns the bus name and this one was not started with --replace.
        static let nameTaken: Int32 = 2
        /// EX_USAGE (sysexits.h): the command line was wrong.
        static let usage: Int32 = 64
    }

    /// Serves until the name is lost, the bus goes or a signal ends it; the exit status.
    static func serve(_ options: DaemonOptions) async -> Int32 {
        let level = options.logLevel
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
        let logger = Logger(label: "fitd")

        let environment = FitScaleEnvironment(environment: ProcessEnvironment.all())
        let configPath = options.config ?? environment.fitdConfigPath
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
            return ExitStatus.failure
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
            service: service, address: options.address, replace: options.replace, environment: environment, fontconfigCheck: fontconfigCheck,
            logger: logger)
        let group = ServiceGroup(configuration: .init(
            // Returning from run() (name lost, bus gone) is a normal end, not a failure.
            services: [.init(service: daemon, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        do {
            try await group.run()
            await warmStart?.save()
            return ExitStatus.success
        } catch let error as DaemonStartError {
            logger.critical("\(error.message)")
            return error.exitCode
        } catch {
            logger.critical("\(error)")
            return ExitStatus.failure
        }
    }
}

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
