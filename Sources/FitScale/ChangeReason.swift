/// Why the text-scale inputs may have changed. A ``ChangeWatcher`` reports a set of these per
/// debounce window; ``TextScaleState`` re-reads and bumps its generation.
public enum ChangeReason: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// A fontconfig configuration file or directory (including the user's
    /// `$XDG_CONFIG_HOME/fontconfig`, also when it is created after start).
    case fontconfig
    /// A font directory: a font installed or removed, a directory added or gone.
    case fonts
    /// fitd's own `$XDG_CONFIG_HOME/fitd/fitd.conf`.
    case fitdConfig
    /// The desktop's settings (KDE's files; the portal's SettingChanged signal).
    case desktop

    public var description: String { rawValue }
}

/// One debounced report: every reason seen in the window and some of the paths involved
/// (at most ``maximumPaths``, for logs).
public struct ChangeSet: Hashable, Sendable, CustomStringConvertible {
    public static let maximumPaths = 16

    public var reasons: Set<ChangeReason>
    public var paths: [String]
    /// How many file-system events were folded into this report.
    public var eventCount: Int

    public init(reasons: Set<ChangeReason>, paths: [String] = [], eventCount: Int = 0) {
        self.reasons = reasons
        self.paths = paths
        self.eventCount = eventCount
    }

    public var description: String {
        let names = reasons.map(\.rawValue).sorted().joined(separator: ", ")
        return "\(names) (\(eventCount) events\(paths.isEmpty ? "" : ": " + paths.prefix(3).joined(separator: ", ")))"
    }
}

/// A path to watch and what its change means.
public struct WatchTarget: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// A file: its directory is watched for events naming it (so an atomic rename over
        /// it, which replaces the inode, is seen).
        case file
        /// A directory: events on its entries.
        case directory
        /// A directory and all directories below it (font directories), including ones
        /// created later.
        case directoryTree
    }

    public var path: String
    public var kind: Kind
    public var reason: ChangeReason

    public init(path: String, kind: Kind, reason: ChangeReason) {
        self.path = WatchTarget.normalized(path)
        self.kind = kind
        self.reason = reason
    }

    public var description: String { "\(kind.rawValue) \(path) → \(reason)" }

    /// Absolute, without "." / ".." / repeated or trailing slashes (inotify and the ancestor
    /// search work on path strings).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
