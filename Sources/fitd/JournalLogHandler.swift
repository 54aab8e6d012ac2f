#if canImport(Glibc)
import Glibc
#endif
import Logging

/// Logs to stderr in a form journald shows well: when systemd connects stderr to the journal
/// (JOURNAL_STREAM is set), each line starts with its syslog priority ("<3>"), which journald
/// strips and keeps as the entry's priority (sd-daemon(3)); in a terminal, a plain
/// "level: message" line. No timestamps: the journal adds its own.
struct JournalLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    private let toJournal = ProcessEnvironment.value("JOURNAL_STREAM") != nil

    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line: String
        if toJournal {
            line = "<\(Self.priority(event.level))>\(event.message)\(details)\n"
        } else {
            line = "fitd: \(event.level): \(event.message)\(details)\n"
        }
        Self.writeToStandardError(line)
    }

    /// One write(2) per line when it fits in the pipe (journald then gets whole entries);
    /// the loop covers short writes. A failure is dropped: there is nowhere left to report it.
    static func writeToStandardError(_ line: String) {
        Array(line.utf8).withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(STDERR_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                offset += count
            }
        }
    }

    /// syslog priorities (sd-daemon.h): err 3, warning 4, notice 5, info 6, debug 7.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }
}
