#if canImport(Glibc)
import Glibc
#endif

/// The INI-like format of fitd.conf (and, read leniently, KDE's kdeglobals / kcmfonts):
///
///     # comment            ; comment
///     [text]
///     scale = 1.25
///
/// Lines are `[section]`, `key = value`, comments (`#` or `;` first) or blank. Keys and section
/// names are case-sensitive; whitespace around them and around values is dropped; a key
/// before any section is in section "". A later duplicate key wins. Strict parsing (fitd's own
/// file) rejects any other line; lenient parsing (other programs' files) skips it.
public struct ConfigFile: Hashable, Sendable {
    /// Files above this size are rejected unread: fitd.conf is a few lines, and a stray
    /// 100 MB file must not be loaded into the daemon's memory.
    public static let maximumBytes = 64 * 1024

    /// Sections in file order, each with its keys in file order.
    public private(set) var sections: [(name: String, entries: [(key: String, value: String)])] = []

    public init() {}

    public static func == (lhs: ConfigFile, rhs: ConfigFile) -> Bool { lhs.serialized() == rhs.serialized() }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    /// The value of `key` in `section`, nil when absent.
    public func value(section: String, key: String) -> String? {
        sections.first(where: { $0.name == section })?.entries.last(where: { $0.key == key })?.value
    }

    /// Sets (or with nil removes) `key` in `section`, creating the section at the end.
    public mutating func setValue(_ value: String?, section: String, key: String) {
        let index: Int
        if let found = sections.firstIndex(where: { $0.name == section }) {
            index = found
        } else {
            guard value != nil else { return }
            sections.append((name: section, entries: []))
            index = sections.count - 1
        }
        sections[index].entries.removeAll(where: { $0.key == key })
        if let value { sections[index].entries.append((key: key, value: value)) }
        if sections[index].entries.isEmpty { sections.remove(at: index) }
    }

    /// Parses `text`; `path` is only for messages.
    public init(parsing text: String, path: String, strict: Bool = true) throws(FitScaleError) {
        var current = ""
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so it is a separator of its own; a stray "\r"
        // is trimmed like a blank, so that what serialized() writes parses back the same.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            let line = String(rawLine).trimmingBlanks().trimmingSuffix("\r")
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count >= 2 else {
                    if strict { throw .configSyntax(path: path, line: lineNumber, reason: "a section header must end with \"]\"") }
                    continue
                }
                current = String(line.dropFirst().dropLast()).trimmingBlanks()
                if strict, current.isEmpty || current.contains(where: { $0 == "[" || $0 == "]" }) {
                    throw .configSyntax(path: path, line: lineNumber, reason: "invalid section name \"\(current)\"")
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                if strict { throw .configSyntax(path: path, line: lineNumber, reason: "not `key = value`, a `[section]` or a comment") }
                continue
            }
            let key = String(line[..<equals]).trimmingBlanks()
            let value = String(line[line.index(after: equals)...]).trimmingBlanksAndReturns()
            let validKey = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || "-_.$[]".contains($0) }
            guard validKey else {
                if strict { throw .configSyntax(path: path, line: lineNumber, reason: "invalid key \"\(key.prefix(40))\"") }
                continue
            }
            setValue(value, section: current, key: key)
        }
    }

    /// The file's text: sections in order, `key = value` lines, a blank line between sections.
    public func serialized(header: String? = nil) -> String {
        var out = ""
        if let header { out += header.split(separator: "\n").map { "# \($0)\n" }.joined() + "\n" }
        for (offset, section) in sections.enumerated() {
            if offset > 0 { out += "\n" }
            if !section.name.isEmpty { out += "[\(section.name)]\n" }
            for entry in section.entries { out += "\(entry.key) = \(entry.value)\n" }
        }
        return out
    }

    /// Reads and parses the file at `path`. Returns nil when it does not exist. Throws for a
    /// file over ``maximumBytes`` (checked before reading), one that is not UTF-8, and (strict)
    /// any line that is not of the format.
    public static func load(path: String, strict: Bool = true) throws(FitScaleError) -> ConfigFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw .fileSystem(operation: "open", path: path, errno: code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileSystem(operation: "stat", path: path, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .configSyntax(path: path, line: 0, reason: "not a regular file")
        }
        guard info.st_size <= maximumBytes else {
            throw .configTooLarge(path: path, bytes: Int(info.st_size), limit: maximumBytes)
        }
        // Read at most one byte past the limit: the file may grow between fstat and read.
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileSystem(operation: "read", path: path, errno: errno)
            }
            if count == 0 { break }
            total += count
        }
        guard total <= maximumBytes else { throw .configTooLarge(path: path, bytes: total, limit: maximumBytes) }
        guard let text = String(validating: bytes[..<total], as: UTF8.self) else {
            throw .configSyntax(path: path, line: 0, reason: "the file is not UTF-8 text")
        }
        if strict, text.contains("\0") {
            throw .configSyntax(path: path, line: 0, reason: "the file contains NUL bytes")
        }
        return try ConfigFile(parsing: text, path: path, strict: strict)
    }

    /// Writes the file atomically: a temporary file in the same directory, fsync, rename
    /// over `path` (so a reader or a crash sees the old or the new file, never half of one).
    /// Creates the directory (0700) if needed.
    public func save(path: String, header: String? = nil) throws(FitScaleError) {
        let (directory, name) = ConfigFile.split(path)
        try ConfigFile.makeDirectories(directory)
        let temporary = "\(directory)/.\(name).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .fileSystem(operation: "create", path: temporary, errno: errno) }
        let bytes = Array(serialized(header: header).utf8)
        var written = 0
        var failure: FitScaleError?
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = .fileSystem(operation: "write", path: temporary, errno: errno)
                break
            }
            written += count
        }
        if failure == nil, fsync(fd) != 0 { failure = .fileSystem(operation: "fsync", path: temporary, errno: errno) }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = .fileSystem(operation: "rename", path: path, errno: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// `path`'s directory and last component: "/a/b/c" → ("/a/b", "c"), "/c" → ("/", "c"),
    /// "c" → (".", "c").
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let name = String(path[path.index(after: slash)...])
        return (slash == path.startIndex ? "/" : String(path[..<slash]), name)
    }

    /// `mkdir -p` with mode 0700 for the directories it creates.
    static func makeDirectories(_ directory: String) throws(FitScaleError) {
        var path = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw .fileSystem(operation: "mkdir", path: path, errno: errno)
            }
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)).trimmingBlanks() : self
    }

    /// By scalar, not Character: serialized() writes "key = value", and a value that starts
    /// with a combining mark would otherwise keep the space it combines with.
    func trimmingBlanksAndReturns() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" || first == "\r" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
        return String(scalars)
    }
}
