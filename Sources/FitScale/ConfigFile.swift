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

    /// Reads and parses the file at `path`. Returns nil when it does not exist. Throws
    /// ``FitScaleError/notRegularFile(path:kind:)`` for anything but a regular file — a
    /// symbolic link (O_NOFOLLOW: ``save(path:header:)`` replaces the path by rename, so a
    /// link would silently stop being one; a link to /dev/zero or a FIFO must not be read
    /// at all), a FIFO (opened O_NONBLOCK, so it never blocks the daemon's start), a device,
    /// a directory — and for a file over ``maximumBytes`` (checked before reading and while
    /// reading), one that is not UTF-8, and (strict) any line that is not of the format.
    /// `followingLinks` (other programs' files, which fitd never writes: a dotfile manager's
    /// link to kdeglobals is fine) opens through a symbolic link; the target must still be a
    /// regular file.
    public static func load(path: String, strict: Bool = true, followingLinks: Bool = false) throws(FitScaleError) -> ConfigFile? {
        guard let bytes = try SafeFile.read(path: path, limit: maximumBytes, followingLinks: followingLinks) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .configSyntax(path: path, line: 0, reason: "the file is not UTF-8 text")
        }
        if strict, text.contains("\0") {
            throw .configSyntax(path: path, line: 0, reason: "the file contains NUL bytes")
        }
        return try ConfigFile(parsing: text, path: path, strict: strict)
    }

    /// Writes the file atomically and durably (the rename(2) protocol, as in ext4's
    /// data=ordered advice and LWN "Ensuring data reaches disk"): a new temporary file with a
    /// random name in the same directory, created O_CREAT|O_EXCL|O_NOFOLLOW so nothing planted
    /// under that name (a symbolic link above all) is ever opened; write; fsync the file;
    /// rename over `path`; fsync the directory. A reader, a crash or a power loss sees the
    /// old file or the new one, never none or half of one. On any error the temporary file
    /// is removed and the error names the step. Creates the directory (0700) if needed.
    public func save(path: String, header: String? = nil) throws(FitScaleError) {
        try ConfigFile.writeAtomically(Array(serialized(header: header).utf8), to: path)
    }

    /// The protocol of ``save(path:header:)`` for any bytes (fontconfig configurations fitd
    /// writes for itself: FontconfigGuard).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FitScaleError) {
        let (directory, name) = ConfigFile.split(path)
        try ConfigFile.makeDirectories(directory)
        let (fd, temporary) = try ConfigFile.createTemporary(directory: directory, name: name)
        var written = 0
        var failure: FitScaleError?
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                failure = .fileSystem(operation: "write", path: temporary, errno: errno)
                break
            }
            written += count
        }
        if failure == nil, fsync(fd) != 0 { failure = .fileSystem(operation: "fsync", path: temporary, errno: errno) }
        // close(2) can report a deferred write error (NFS, quota): a failed close is a failed save.
        if close(fd) != 0, failure == nil, errno != EINTR {
            failure = .fileSystem(operation: "close", path: temporary, errno: errno)
        }
        if failure == nil, rename(temporary, path) != 0 { failure = .fileSystem(operation: "rename", path: path, errno: errno) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        try ConfigFile.syncDirectory(directory)
    }

    /// Attempts at a fresh temporary name before giving up (each collision is a file some
    /// other process made under a 64-bit random name: only an attacker or a bug does that).
    static let temporaryAttempts = 16

    /// Creates `.<name>.<16 random hex digits>.tmp` in `directory` (mode 0600), as mkstemp(3)
    /// does but with O_NOFOLLOW and O_CLOEXEC too; returns the descriptor and the path.
    /// `suffixes` gives the random part (tests pass their own to plant files at the names).
    static func createTemporary(
        directory: String, name: String, suffixes: () -> String = randomSuffix
    ) throws(FitScaleError) -> (Int32, String) {
        var lastPath = "\(directory)/.\(name).tmp"
        for _ in 0..<temporaryAttempts {
            let candidate = "\(directory)/.\(name).\(suffixes()).tmp"
            lastPath = candidate
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0o600)
            if fd >= 0 { return (fd, candidate) }
            let code = errno
            if code == EEXIST || code == EINTR { continue }
            throw .fileSystem(operation: "create", path: candidate, errno: code)
        }
        throw .fileSystem(operation: "create", path: lastPath, errno: EEXIST)
    }

    /// 16 hex digits from the system's random source (getrandom(2)).
    static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next() as UInt64, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// fsync(2) on the directory, so the rename itself is on disk (fsync(2): "Calling fsync()
    /// does not necessarily ensure that the entry in the directory containing the file has
    /// also reached disk. For that an explicit fsync() on a file descriptor for the directory
    /// is also needed.").
    static func syncDirectory(_ directory: String) throws(FitScaleError) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .fileSystem(operation: "open", path: directory, errno: errno) }
        defer { close(fd) }
        // Some file systems cannot sync a directory (EINVAL): the rename is done, nothing to undo.
        if fsync(fd) != 0, errno != EINVAL { throw .fileSystem(operation: "fsync", path: directory, errno: errno) }
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
