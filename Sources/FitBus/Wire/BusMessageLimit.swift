#if canImport(Glibc)
import Glibc
#endif

/// The largest message the bus takes from this connection. A bus disconnects a connection
/// that sends it a longer one (dbus-daemon: the message loader marks the stream corrupt,
/// DBUS_INVALID_MESSAGE_TOO_LONG, and drops the connection), so a daemon that sends one reply
/// too many bytes is gone for every client. Replies are checked against it before they are
/// sent (``BusConnection/sendReply(to:_:)``).
///
/// The bus does not say it over D-Bus: dbus-daemon's Debug.Stats interface reports counters,
/// not limits. So it is read where the bus reads it: the bus's process is asked of the bus
/// (GetConnectionUnixProcessID of org.freedesktop.DBus), its command line names its
/// configuration (`--config-file`, or `--session` / `--system`), and the configuration's
/// last `<limit name="max_message_size">` — includes followed in order, as dbus-daemon's
/// config-parser.c applies them — is the limit. A bus that is not a dbus-daemon with a
/// readable configuration gets dbus-daemon's built-in default, the smallest any stock
/// configuration sets.
public struct BusMessageLimit: Sendable, Equatable, CustomStringConvertible {
    public var bytes: Int
    /// Where the figure comes from, for the log.
    public var source: String

    public init(bytes: Int, source: String) {
        self.bytes = min(max(bytes, 0), Self.specification)
        self.source = source
    }

    /// DBUS_MAXIMUM_MESSAGE_LENGTH (specification, "Valid Signatures": 2^27 bytes).
    public static let specification = 1 << 27
    /// dbus-daemon's max_message_size when its configuration sets none (bus/config-parser.c,
    /// `limits.max_message_size = _DBUS_ONE_MEGABYTE * 32`; dbus-daemon(1)).
    public static let dbusDaemonDefault = BusMessageLimit(bytes: 32 << 20, source: "dbus-daemon's built-in default")

    public var description: String { "\(bytes) bytes (\(source))" }

    /// The limit of the dbus-daemon whose command line is `arguments` (argv, argv[0] first),
    /// or nil when it is not a dbus-daemon or its configuration says nothing.
    static func ofDaemon(arguments: [String], dataDirectories: [String] = ["/usr/share/dbus-1", "/etc/dbus-1"]) -> BusMessageLimit? {
        guard let program = arguments.first, program.split(separator: "/").last == "dbus-daemon" else { return nil }
        var configuration: String? = nil
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--config-file=") {
                configuration = String(argument.dropFirst("--config-file=".count))
            } else if argument == "--config-file", index + 1 < arguments.count {
                index += 1
                configuration = arguments[index]
            } else if argument == "--session" || argument == "--system" {
                let name = String(argument.dropFirst(2)) + ".conf"
                configuration = dataDirectories.map { $0 + "/" + name }.first { access($0, R_OK) == 0 }
            }
            index += 1
        }
        guard let configuration else { return nil }
        var reader = BusConfigurationReader()
        guard let bytes = reader.maxMessageSize(in: configuration) else { return nil }
        return BusMessageLimit(bytes: bytes, source: "max_message_size in \(reader.lastSetIn ?? configuration)")
    }
}

/// Reads `<limit name="max_message_size">` out of a dbus-daemon configuration and what it
/// includes (`<include>`, `<includedir>`: dbus-daemon's config-parser.c), in the order the
/// daemon applies them, the last one winning. Bounded: files of at most 1 MiB, at most 64
/// of them, includes 8 deep; a file that is not a regular file is skipped unread (a FIFO
/// must not hold up start-up).
struct BusConfigurationReader {
    private(set) var lastSetIn: String? = nil
    private var filesRead = 0
    static let fileLimit = 1 << 20
    static let filesLimit = 64
    static let depthLimit = 8

    mutating func maxMessageSize(in path: String) -> Int? {
        scan(path, depth: 0)
    }

    private mutating func scan(_ path: String, depth: Int) -> Int? {
        guard depth <= Self.depthLimit, filesRead < Self.filesLimit, let text = Self.read(path) else { return nil }
        filesRead += 1
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        func resolve(_ name: String) -> String { name.hasPrefix("/") ? name : directory + "/" + name }
        var found: Int? = nil
        for element in Self.elements(of: Self.withoutComments(text)) {
            switch element.name {
            case "limit" where element.attributes["name"] == "max_message_size":
                if let value = Int(element.content.trimmingWhitespace), value >= 0 {
                    found = value
                    lastSetIn = path
                }
            case "include" where element.attributes["if_selinux_enabled"] == nil:
                if let value = scan(resolve(element.content.trimmingWhitespace), depth: depth + 1) { found = value }
            case "includedir":
                for file in Self.configurationFiles(in: resolve(element.content.trimmingWhitespace)) {
                    if let value = scan(file, depth: depth + 1) { found = value }
                }
            default:
                break
            }
        }
        return found
    }

    struct Element {
        var name: String
        var attributes: [String: String]
        var content: String
    }

    /// The elements the reader needs, in document order: `<name attr="v">content</name>`
    /// with content free of markup (what limit, include and includedir hold).
    static func elements(of text: String) -> [Element] {
        var result: [Element] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let tag = rest[..<close]
            rest = rest[rest.index(after: close)...]
            guard let first = tag.first, first.isLetter, !tag.hasSuffix("/") else { continue }
            let name = String(tag.prefix { !$0.isWhitespace })
            guard ["limit", "include", "includedir"].contains(name), let end = rest.firstRange(of: "</" + name) else { continue }
            result.append(Element(name: name, attributes: attributes(of: tag.dropFirst(name.count)), content: String(rest[..<end.lowerBound])))
        }
        return result
    }

    /// `key="value"` pairs (single or double quotes).
    static func attributes(of text: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingWhitespace
            rest = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
            guard let quote = rest.first, quote == "\"" || quote == "'" else { break }
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { break }
            attributes[key] = String(rest[..<end])
            rest = rest[rest.index(after: end)...]
        }
        return attributes
    }

    static func withoutComments(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "<!--") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstRange(of: "-->") else { return out }
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    /// The `*.conf` files of an includedir, sorted as dbus-daemon sorts them (by name).
    static func configurationFiles(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream), names.count < filesLimit {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".conf"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { directory + "/" + $0 }
    }

    /// A regular file's text (a /proc file too, which stat(2) sizes 0), opened without
    /// blocking and read to its end; nil past ``fileLimit`` bytes or for anything else.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= fileLimit else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= fileLimit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard bytes.count <= fileLimit else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

extension BusConnection {
    /// Asks the bus for its process and reads its message limit (``BusMessageLimit``);
    /// dbus-daemon's default when that cannot be known. Also makes it this connection's
    /// ``maxMessageBytes``.
    @discardableResult
    public func discoverMessageLimit() async -> BusMessageLimit {
        var limit = BusMessageLimit.dbusDaemonDefault
        if isBus, case .uint32(let pid)? = try? await callBus("GetConnectionUnixProcessID", [.string(Self.bus.name)]).first {
            let arguments = (BusConfigurationReader.read("/proc/\(pid)/cmdline") ?? "").split(separator: "\0").map(String.init)
            if let found = BusMessageLimit.ofDaemon(arguments: arguments) { limit = found }
        }
        messageLimit = limit
        return limit
    }
}
