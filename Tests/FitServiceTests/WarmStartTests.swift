import FitService
import FitServiceTestSupport
import FitText
import Foundation
import Logging
import Testing

/// The daemon's side of a warm start: where the file goes, and a load or save that cannot
/// read or write it leaves the daemon serving, cold.
@Suite struct WarmStartTests {
    @Test func theDirectoryFollowsSystemdThenXDGThenHome() {
        #expect(WarmStart.directory(environment: ["CACHE_DIRECTORY": "/run/x/other:/home/u/.cache/fitd", "XDG_CACHE_HOME": "/c"]) == "/home/u/.cache/fitd")
        #expect(WarmStart.directory(environment: ["CACHE_DIRECTORY": "/var/cache/other", "XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c/fitd")
        // A relative XDG_CACHE_HOME is ignored (XDG Base Directory Specification).
        #expect(WarmStart.directory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache/fitd")
        #expect(WarmStart.directory(environment: [:]) == nil)
    }

    @Test func aSavedFileIsLoadedByTheNextEngineAndAnUnwritableDirectoryIsNoFailure() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-warm-\(UUID().uuidString)")
        var logger = Logger(label: "fitd-test")
        logger.logLevel = .critical
        let engine = try SharedEngine.fresh()
        let first = WarmStart(directory: root.path + "/fitd", engine: engine, version: "t", logger: logger)
        #expect(first.load() == 0)
        let request = MeasureRequest(text: "Warm start", font: "DejaVu Sans 10")
        let measured = try engine.measure(request)
        await first.save()
        var mode = stat()
        #expect(stat(root.path + "/fitd", &mode) == 0 && mode.st_mode & 0o777 == 0o700)

        let next = try SharedEngine.fresh()
        let second = WarmStart(directory: root.path + "/fitd", engine: next, version: "t", logger: logger)
        #expect(second.load() == 1)
        #expect(next.cachedMeasurement(request) == measured)
        // Another version's file is not used.
        #expect(WarmStart(directory: root.path + "/fitd", engine: try SharedEngine.fresh(), version: "u", logger: logger).load() == 0)

        // A file where the directory should be: nothing saved, nothing thrown.
        try Data("x".utf8).write(to: root.appendingPathComponent("blocked"))
        let blocked = WarmStart(directory: root.path + "/blocked/fitd", engine: engine, version: "t", logger: logger)
        _ = try engine.measure(MeasureRequest(text: "another", font: "DejaVu Sans 10"))
        await blocked.save()
        #expect(!FileManager.default.fileExists(atPath: root.path + "/blocked/fitd/results.bin"))
        try? FileManager.default.removeItem(at: root)
    }

    /// Warnings a WarmStart logged.
    final class Warnings: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []
        var all: [String] { lock.withLock { messages } }
        func add(_ message: String) { lock.withLock { messages.append(message) } }
    }

    struct Capture: LogHandler {
        let warnings: Warnings
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
            if level >= .warning { warnings.add(message.description) }
        }
    }

    private func root() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("fitd-warm-\(UUID().uuidString)")
    }

    /// A fitd killed while saving leaves `results.bin.tmp.<pid>`: the next start removes it
    /// when that pid is gone, and keeps the one of a process that runs (another daemon saving).
    @Test func leftoverTemporariesOfDeadWritersAreRemovedAtStartAndThoseOfLiveOnesKept() throws {
        let directory = root().appendingPathComponent("fitd")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let dead = finished.processIdentifier
        let live = getppid()
        #expect(kill(dead, 0) != 0 && errno == ESRCH)
        let names = ["results.bin.tmp.\(dead)", "shapes.bin.tmp.\(dead)", "results.bin.tmp.\(live)", "results.bin.tmp.x12", "notes.txt"]
        for name in names { try Data(repeating: 1, count: 64).write(to: directory.appendingPathComponent(name)) }
        let warnings = Warnings()
        let warm = WarmStart(directory: directory.path, engine: try SharedEngine.fresh(), version: "t", logger: Logger(label: "t") { _ in Capture(warnings: warnings) })
        #expect(warm.load() == 0)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(left == ["results.bin.tmp.\(live)", "results.bin.tmp.x12", "notes.txt"])
        #expect(warnings.all.isEmpty)
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    /// A cache directory that is a link, not a directory, open to others' writing or someone
    /// else's: one warning naming it and what is wrong, nothing read or saved, nothing chmodded.
    @Test func anUnfitCacheDirectoryTurnsPersistenceOff() async throws {
        let base = root()
        let good = base.appendingPathComponent("good")
        try FileManager.default.createDirectory(at: good, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let link = base.appendingPathComponent("link"), open = base.appendingPathComponent("open")
        let plain = base.appendingPathComponent("plain"), foreign = base.appendingPathComponent("foreign")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: good)
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: false)
        #expect(chmod(open.path, 0o777) == 0)
        try Data("x".utf8).write(to: plain)
        var cases = [(link, "is a symbolic link"), (open, "is writable by group or others (mode 777)"), (plain, "is not a directory")]
        if geteuid() == 0 {
            try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(foreign.path, 65534, 65534) == 0)
            cases.append((foreign, "is owned by uid 65534, not by this user (uid 0)"))
        } else {
            cases.append((URL(fileURLWithPath: "/"), "is owned by uid 0"))
        }
        for (directory, reason) in cases {
            var before = stat()
            lstat(directory.path, &before)
            let warnings = Warnings()
            let engine = try SharedEngine.fresh()
            let warm = WarmStart(directory: directory.path, engine: engine, version: "t", logger: Logger(label: "t") { _ in Capture(warnings: warnings) })
            #expect(warm.load() == 0)
            #expect(warm.isOff, "\(directory.path)")
            _ = try engine.measure(MeasureRequest(text: "Not saved", font: "DejaVu Sans 10"))
            await warm.save()
            #expect(warnings.all.count == 1, "\(warnings.all)")
            #expect(warnings.all.first?.contains("\(directory.path) \(reason)") == true, "\(warnings.all)")
            #expect(warnings.all.first?.contains("persistence is off") == true)
            var after = stat()
            lstat(directory.path, &after)
            #expect(after.st_mode == before.st_mode && after.st_uid == before.st_uid)
        }
        for name in ["results.bin", "shapes.bin", "secret"] {
            #expect(!FileManager.default.fileExists(atPath: good.appendingPathComponent(name).path))
            #expect(!FileManager.default.fileExists(atPath: open.appendingPathComponent(name).path))
        }
        try? FileManager.default.removeItem(at: base)
    }

    /// The secret is made 0600 and 32 bytes; one that is a link, open to others or of another
    /// size turns persistence off.
    @Test func theSecretIsPrivateAndAnUnfitOneTurnsPersistenceOff() async throws {
        let directory = root().appendingPathComponent("fitd")
        let engine = try SharedEngine.fresh()
        let logger = Logger(label: "t") { _ in Capture(warnings: Warnings()) }
        let first = WarmStart(directory: directory.path, engine: engine, version: "t", logger: logger)
        #expect(first.load() == 0)
        _ = try engine.measure(MeasureRequest(text: "Secret", font: "DejaVu Sans 10"))
        await first.save()
        var status = stat()
        #expect(lstat(first.secretPath, &status) == 0)
        #expect(status.st_mode & 0o7777 == 0o600 && status.st_size == 32)
        #expect(WarmStart(directory: directory.path, engine: try SharedEngine.fresh(), version: "t", logger: logger).load() == 1)
        let secret = try Data(contentsOf: URL(fileURLWithPath: first.secretPath))
        for damage in ["mode", "size", "link"] {
            unlink(first.secretPath)
            switch damage {
            case "mode":
                try secret.write(to: URL(fileURLWithPath: first.secretPath))
                #expect(chmod(first.secretPath, 0o644) == 0)
            case "size": try (secret + [0]).write(to: URL(fileURLWithPath: first.secretPath))
            default:
                let elsewhere = directory.deletingLastPathComponent().appendingPathComponent("elsewhere")
                try secret.write(to: elsewhere)
                #expect(chmod(elsewhere.path, 0o600) == 0)
                #expect(symlink(elsewhere.path, first.secretPath) == 0)
            }
            let warnings = Warnings()
            let warm = WarmStart(directory: directory.path, engine: try SharedEngine.fresh(), version: "t", logger: Logger(label: "t") { _ in Capture(warnings: warnings) })
            #expect(warm.load() == 0, "\(damage)")
            #expect(warm.isOff, "\(damage)")
            #expect(warnings.all.count == 1 && warnings.all.first?.contains(first.secretPath) == true, "\(damage): \(warnings.all)")
        }
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }
}
