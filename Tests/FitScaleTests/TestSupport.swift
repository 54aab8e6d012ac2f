import Foundation
import Logging
import Synchronization
import Testing

@testable import FitScale

/// A temporary directory tree for one test: `config` stands for `$XDG_CONFIG_HOME`,
/// `fonts.conf` includes the repository's pinned Tests/fonts/fonts.conf (as FONTCONFIG_FILE
/// would) plus the user's `config/fontconfig/fonts.conf` the way Debian's 50-user.conf does,
/// so no test reads the machine's or the user's configuration.
final class Sandbox: Sendable {
    let root: String

    init() throws {
        var template = Array("\(NSTemporaryDirectory())/fitscale-test-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        root = WatchTarget.normalized(String(cString: made))
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var configHome: String { root + "/config" }
    var fontconfigFile: String { root + "/fonts.conf" }
    var userFontconfigFile: String { configHome + "/fontconfig/fonts.conf" }
    var fontDirectory: String { root + "/fonts" }

    var environment: FitScaleEnvironment { FitScaleEnvironment(configHome: configHome, fontconfigFile: fontconfigFile) }

    static let pinnedFontsConf: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fonts/fonts.conf").path
    }()

    /// Writes the test fontconfig configuration; `dpi` adds a pattern rule assigning it.
    func writeFontconfig(dpi: Double? = nil, extraFontDirectory: Bool = false) throws {
        var body = "  <include>\(Sandbox.pinnedFontsConf)</include>\n"
        if extraFontDirectory {
            try FileManager.default.createDirectory(atPath: fontDirectory, withIntermediateDirectories: true)
            body += "  <dir>\(fontDirectory)</dir>\n"
        }
        body += "  <include ignore_missing=\"yes\">\(userFontconfigFile)</include>\n"
        if let dpi { body += Sandbox.dpiRule(dpi) }
        try write(fontconfigFile, Sandbox.fontconfigDocument(body))
    }

    static func dpiRule(_ dpi: Double) -> String {
        "  <match target=\"pattern\"><edit name=\"dpi\" mode=\"assign\"><double>\(dpi)</double></edit></match>\n"
    }

    static func fontconfigDocument(_ body: String) -> String {
        "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n<fontconfig>\n\(body)</fontconfig>\n"
    }

    func write(_ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }
}

/// Collects log messages so tests can assert that a warning says why.
final class LogCapture: Sendable {
    let messages = Mutex<[(Logger.Level, String)]>([])

    var logger: Logger {
        var logger = Logger(label: "fitscale-test") { _ in CapturingHandler(capture: self) }
        logger.logLevel = .debug
        return logger
    }

    func contains(level: Logger.Level, _ text: String) -> Bool {
        messages.withLock { $0.contains { $0.0 == level && $0.1.contains(text) } }
    }
}

struct CapturingHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        capture.messages.withLock { $0.append((event.level, "\(event.message)")) }
    }
}

/// Polls `condition` every 50 ms until it holds or `timeout` passes (generous: the machine may
/// be loaded). Returns whether it held.
func eventually(timeout: Duration = .seconds(10), _ condition: @Sendable () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}

/// Records a watcher's reports, and when each arrived (on the watcher's thread, so a test
/// times the watcher and not its own polling on a busy cooperative pool).
final class ReportLog: Sendable {
    let reports = Mutex<[(report: ChangeSet, at: ContinuousClock.Instant)]>([])
    var all: [ChangeSet] { reports.withLock { $0.map(\.report) } }
    var count: Int { reports.withLock { $0.count } }
    func add(_ report: ChangeSet) { reports.withLock { $0.append((report, .now)) } }
    func contains(_ reason: ChangeReason) -> Bool { all.contains { $0.reasons.contains(reason) } }
    /// When the first report naming `reason` arrived.
    func firstTime(_ reason: ChangeReason) -> ContinuousClock.Instant? {
        reports.withLock { $0.first { $0.report.reasons.contains(reason) }?.at }
    }
}
