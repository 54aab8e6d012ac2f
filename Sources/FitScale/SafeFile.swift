#if canImport(Glibc)
import Glibc
#endif

/// Opening and reading a file that someone else controls (the user's settings, the desktop's)
/// without ever waiting on it: open(2) with O_NONBLOCK (a FIFO with no writer would otherwise
/// block the open for good, fifo(7)), O_CLOEXEC and O_NOCTTY; fstat(2) on what was opened, so
/// only a regular file under a size cap counts (a link to /dev/zero is a character device, and
/// a read of it never ends); then reads bounded by the cap. Everything else is reported as a
/// typed error naming the path and what it is, and the caller treats the file as absent.
///
/// fitd's own files and the files fitd reads itself go through ``read(path:limit:followingLinks:)``.
/// Files a library opens itself (GIO's keyfile and dconf database, fontconfig's configuration)
/// are checked with ``check(path:limit:followingLinks:)`` just before the library is asked: the
/// library opens the path again, so a file swapped between the two is not caught, but a file
/// that is a FIFO or a device when fitd starts or re-reads never reaches the library.
public enum SafeFile {
    /// What is at a path, as far as a reader cares.
    public enum Kind: Equatable, Sendable {
        case regular(bytes: Int)
        case directory
    }

    /// Opens `path` without blocking and checks it: nil when nothing is there (ENOENT, or a
    /// missing directory on the way: ENOTDIR). `directoryAllowed` accepts a directory (a
    /// fontconfig `<include>` may name one). Throws ``FitScaleError/notRegularFile(path:kind:)``
    /// for a FIFO, device, socket, a directory where a file is expected, or (without
    /// `followingLinks`) a symbolic link; ``FitScaleError/configTooLarge(path:bytes:limit:)``
    /// for a regular file over `limit` bytes.
    public static func check(
        path: String, limit: Int, followingLinks: Bool = true, directoryAllowed: Bool = false
    ) throws(FitScaleError) -> Kind? {
        guard let fd = try open(path: path, followingLinks: followingLinks) else { return nil }
        defer { close(fd) }
        return try kind(of: fd, path: path, limit: limit, directoryAllowed: directoryAllowed)
    }

    /// The bytes of the regular file at `path` (at most `limit`), nil when it does not exist.
    /// Throws as ``check(path:limit:followingLinks:directoryAllowed:)`` does, and when the file
    /// grows past `limit` between the fstat and the read.
    public static func read(path: String, limit: Int, followingLinks: Bool = true) throws(FitScaleError) -> [UInt8]? {
        guard let fd = try open(path: path, followingLinks: followingLinks) else { return nil }
        defer { close(fd) }
        var size = 0
        if case .regular(let bytes) = try kind(of: fd, path: path, limit: limit, directoryAllowed: false) { size = bytes }
        // Room for the size fstat gave and one byte more, grown up to one byte past the limit:
        // the file may grow between fstat and read, and a larger one is refused, not read.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var total = 0
        while total < limit + 1 {
            if total == bytes.count {
                bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count))
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress.map { $0 + total }, buffer.count - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileSystem(operation: "read", path: path, errno: errno)
            }
            if count == 0 { break }
            total += count
        }
        guard total <= limit else { throw .configTooLarge(path: path, bytes: total, limit: limit) }
        bytes.removeSubrange(total...)
        return bytes
    }

    private static func open(path: String, followingLinks: Bool) throws(FitScaleError) -> Int32? {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followingLinks ? 0 : O_NOFOLLOW))
        if fd >= 0 { return fd }
        let code = errno
        if code == ENOENT || code == ENOTDIR { return nil }
        // open(2): O_NOFOLLOW on a symbolic link fails with ELOOP.
        if code == ELOOP, !followingLinks { throw .notRegularFile(path: path, kind: "a symbolic link") }
        throw .fileSystem(operation: "open", path: path, errno: code)
    }

    private static func kind(of fd: Int32, path: String, limit: Int, directoryAllowed: Bool) throws(FitScaleError) -> Kind {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .fileSystem(operation: "stat", path: path, errno: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard info.st_size <= limit else { throw .configTooLarge(path: path, bytes: Int(info.st_size), limit: limit) }
            return .regular(bytes: Int(info.st_size))
        case S_IFDIR where directoryAllowed:
            return .directory
        default:
            throw .notRegularFile(path: path, kind: fileKind(info.st_mode))
        }
    }

    /// What a non-regular file is, for messages (stat(2)'s S_IFMT kinds).
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }
}
