#if canImport(Glibc)
import Glibc
#endif
import FitText

/// The cache directory the warm-start files live in, checked before anything in it is read or
/// written (docs/caching.md, "What is trusted").
enum WarmStartDirectory {
    /// What makes the existing `path` unfit to hold the files, or nil when it is fit: a
    /// directory, not a symbolic link (lstat(2): a link could point anywhere, and whoever
    /// could make it chose where), the user's own, writable by no one else — anyone who could
    /// write in it could replace the files or the secret. nil too when it does not exist.
    static func problem(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            return errno == ENOENT ? nil : "cannot be examined (errno \(errno))"
        }
        switch status.st_mode & S_IFMT {
        case S_IFLNK: return "a symbolic link"
        case S_IFDIR: break
        default: return "not a directory"
        }
        if status.st_uid != geteuid() { return "owned by uid \(status.st_uid), not by this user (uid \(geteuid()))" }
        if status.st_mode & 0o022 != 0 {
            return "writable by group or others (mode \(String(status.st_mode & 0o7777, radix: 8)))"
        }
        return nil
    }

    /// Removes the temporary files (`<file>.tmp.<pid>`) of writers that are gone: a fitd
    /// killed while saving leaves one (up to a cache's budget) that nothing else would ever
    /// remove. One whose pid is running — another fitd saving now — is left alone; so is one
    /// whose pid cannot be asked about (kill(2) with signal 0: only ESRCH says there is no
    /// such process). Returns the names removed.
    @discardableResult
    static func removeStaleTemporaries(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        let fd = dirfd(directory)
        var removed: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = writerPid(name), pid == getpid() || (kill(pid, 0) != 0 && errno == ESRCH) else { continue }
            if unlinkat(fd, name, 0) == 0 { removed.append(name) }
        }
        return removed
    }

    /// The pid a temporary file's name ends in, nil for any other name.
    static func writerPid(_ name: String) -> pid_t? {
        let suffix = PersistedResultFile.temporarySuffix
        guard let dot = name.lastIndex(of: "."), name[...dot].hasSuffix(suffix), name[...dot].count > suffix.count else { return nil }
        let digits = name[name.index(after: dot)...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let pid = pid_t(digits), pid > 0
        else { return nil }
        return pid
    }
}
