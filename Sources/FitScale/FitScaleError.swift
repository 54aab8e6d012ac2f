import FitTypes

/// Everything that can go wrong while reading or setting the text scale, with what was
/// attempted and what to do. Values come from outside the process (a D-Bus peer, a config
/// file, the desktop), so every bad input ends here rather than in a crash.
public enum FitScaleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A text scale outside (0, 4], or NaN / infinite.
    case invalidScale(Double)
    /// A config file larger than the limit (`bytes` is its size).
    case configTooLarge(path: String, bytes: Int, limit: Int)
    /// A config file that is not `key = value` lines in `[sections]` (line is 1-based; 0 = the
    /// file as a whole, e.g. not UTF-8).
    case configSyntax(path: String, line: Int, reason: String)
    /// A config value of the wrong kind ("scale = big").
    case configValue(path: String, key: String, value: String, reason: String)
    /// A config file that is not a regular file (`kind`: "a FIFO", "a symbolic link", …).
    case notRegularFile(path: String, kind: String)
    /// A system call on a file failed (`errno` is the C errno).
    case fileSystem(operation: String, path: String, errno: Int32)
    /// fontconfig could not load a configuration.
    case fontconfigUnavailable(String)
    /// A text style name with a category that is not one of the 12 (`"body huge"`).
    case unknownSizeCategory(String)
    /// The desktop's settings could not be read (portal missing, bad value).
    case desktopSettings(source: TextScaleSource, reason: String)
    /// A desktop source is there but did not answer in time (a hung or loaded X server): a
    /// passing state, so the last good values stay (``isPassing``).
    case desktopNotAnswering(source: TextScaleSource, reason: String)

    /// Whether the error says nothing about the settings themselves, only that they could
    /// not be read just now: a read that meets it keeps the last good values rather than fall
    /// through to another source.
    public var isPassing: Bool {
        if case .desktopNotAnswering = self { return true }
        return false
    }

    /// The file the error is about, if any.
    public var path: String? {
        switch self {
        case .configTooLarge(let path, _, _), .configSyntax(let path, _, _), .configValue(let path, _, _, _),
            .fileSystem(_, let path, _), .notRegularFile(let path, _):
            return path
        case .invalidScale, .fontconfigUnavailable, .unknownSizeCategory, .desktopSettings, .desktopNotAnswering:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .invalidScale(let value):
            return "invalid text scale \(value): it must be a number greater than 0 and at most \(TextScale.maximum.formatted) (the range is (0, \(TextScale.maximum.formatted)]; 1 is the default size)"
        case .configTooLarge(let path, let bytes, let limit):
            return "\(path) is \(bytes) bytes; fitd reads config files of at most \(limit) bytes: remove or fix the file"
        case .configSyntax(let path, let line, let reason):
            let place = line > 0 ? "\(path):\(line)" : path
            return "\(place): \(reason); expected lines of `key = value` under `[section]` headers, e.g. `[text]` then `scale = 1.25`"
        case .configValue(let path, let key, let value, let reason):
            return "\(path): invalid value \"\(value)\" for \(key): \(reason)"
        case .notRegularFile(let path, let kind):
            // fitd.conf is the one file a fitd command writes; the others are the desktop's.
            let fix = path.hasSuffix("/fitd.conf") ? "replace it with one (fitctl scale set writes one)" : "it is passed over as if absent"
            return "\(path) is \(kind); fitd reads only a regular file there: \(fix)"
        case .fileSystem(let operation, let path, let code):
            return "\(operation) \(path) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .fontconfigUnavailable(let detail):
            return "fontconfig could not load its configuration: \(detail)"
        case .unknownSizeCategory(let name):
            return "unknown size category \"\(name)\"; expected one of \(SizeCategory.nameList)"
        case .desktopSettings(let source, let reason):
            return "cannot read the \(source.rawValue) desktop settings: \(reason)"
        case .desktopNotAnswering(let source, let reason):
            return "the \(source.rawValue) desktop settings did not answer: \(reason); the last good values stay until it does"
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
