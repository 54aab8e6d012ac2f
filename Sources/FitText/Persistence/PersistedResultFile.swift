#if canImport(Glibc)
import Glibc
#endif

/// Writes a persisted result file (``PersistedResultFormat``) the way a reader can never see
/// half of: to a temporary file in the same directory, fsync(2), rename(2) over the old one,
/// then fsync of the directory so that the rename itself survives a crash.
public enum PersistedResultFile {
    /// The file's bytes for `records` (key hashes and value bytes, most wanted first), as many
    /// as fit in `byteLimit`; a key that appears twice keeps its first value. Each value is
    /// enciphered and each record authenticated under `secret` (``PersistenceSecret``).
    static func encode(records: [(id: PersistedKeyID, value: [UInt8])], fingerprint: UInt64, secret: PersistenceSecret, byteLimit: Int) -> (bytes: [UInt8], entries: Int) {
        let limit = min(byteLimit, PersistedResultFormat.maxFileBytes)
        var chosen: [Int] = []
        var recordBytes = 0
        var seen = Set<PersistedKeyID>()
        for (index, record) in records.enumerated() {
            let size = PersistedResultFormat.recordHeaderBytes + record.value.count
            // The bucket table: twice the entries rounded up to a power of two (under four
            // times them), at least 8 buckets.
            let buckets = max(8, 4 * (chosen.count + 1)) * PersistedResultFormat.bucketBytes
            guard PersistedResultFormat.headerBytes + buckets + recordBytes + size <= limit else { break }
            guard seen.insert(record.id).inserted else { continue }
            chosen.append(index)
            recordBytes += size
        }
        var bucketCount = 8
        while bucketCount < 2 * chosen.count { bucketCount *= 2 }
        let recordsOffset = PersistedResultFormat.headerBytes + bucketCount * PersistedResultFormat.bucketBytes
        var buckets = [(hash: UInt64, offset: UInt32, size: UInt32)](repeating: (0, 0, 0), count: bucketCount)
        // One buffer, the records written straight after room for the header and the bucket
        // table, which are filled in last: a body built apart and then joined to them cost a
        // second copy of the whole file, and the kernel's zeroing of its fresh pages was a
        // third of a save's time (perf, a save of 20,000 results).
        var file = PersistedResultCoding.Writer()
        file.bytes.reserveCapacity(recordsOffset + recordBytes)
        file.bytes.append(contentsOf: repeatElement(0, count: recordsOffset))
        var stored = 0
        for index in chosen {
            let (id, value) = records[index]
            // A run this long means a poor hash for these keys; the reader would give up on it.
            var bucket = Int(truncatingIfNeeded: id.high) & (bucketCount - 1)
            var probes = 1
            while buckets[bucket].offset != 0, probes < PersistedResultFormat.maxProbes {
                bucket = (bucket + 1) & (bucketCount - 1)
                probes += 1
            }
            guard buckets[bucket].offset == 0 else { continue }
            let size = PersistedResultFormat.recordHeaderBytes + value.count
            buckets[bucket] = (id.high, UInt32(file.bytes.count), UInt32(size))
            var sealed = value
            secret.cipher(&sealed, id: id, fingerprint: fingerprint)
            let tag = sealed.withUnsafeBytes { secret.mac(id: id, fingerprint: fingerprint, sealed: $0) }
            file.u64(tag.high)
            file.u64(tag.low)
            file.u64(id.high)
            file.u64(id.low)
            file.u32(UInt32(value.count))
            file.bytes.append(contentsOf: sealed)
            stored += 1
        }
        let header = PersistedResultFormat.Header(
            fingerprint: fingerprint, bucketCount: bucketCount, entryCount: stored,
            bucketsOffset: PersistedResultFormat.headerBytes, recordsOffset: recordsOffset,
            fileBytes: file.bytes.count)
        var table = PersistedResultCoding.Writer()
        table.bytes.reserveCapacity(bucketCount * PersistedResultFormat.bucketBytes)
        for bucket in buckets {
            table.u64(bucket.hash)
            table.u32(bucket.offset)
            table.u32(bucket.size)
        }
        // Overwritten in place, each its own length: the records stay where their offsets say.
        let head = header.encoded()
        file.bytes.replaceSubrange(0..<head.count, with: head)
        file.bytes.replaceSubrange(header.bucketsOffset..<header.bucketsOffset + table.bytes.count, with: table.bytes)
        return (file.bytes, stored)
    }

    /// The whole of the regular file at `path` and its status, read into memory (nil: there
    /// is none). Read, not mapped: a mapped file truncated by someone else kills the reader
    /// with SIGBUS at the next touch of a page past the new end (mmap(2), "SIGBUS"), whatever
    /// MAP_PRIVATE says. A file larger than `byteLimit` is refused before anything is
    /// allocated for it; one whose size or modification or change time changed while it was
    /// read (a copy over it in place), or that the path no longer names (replaced), is refused
    /// too — which is also why one byte more than its size is asked for.
    static func readWhole(path: String, byteLimit: Int) throws(PersistedResultsError) -> (bytes: [UInt8], status: stat)? {
        // Not blocking on a FIFO put in its place, not following a link: the file is fitd's own.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .insecure(path: path, reason: "a symbolic link")
            case let code: throw .unreadable(path: path, errno: code)
            }
        }
        defer { close(fd) }
        var before = stat()
        guard fstat(fd, &before) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard (before.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile }
        let size = Int(before.st_size)
        guard size <= byteLimit else { throw .tooLarge(bytes: size, limit: byteLimit) }
        var readError: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            while count < buffer.count {
                let n = read(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
                if n < 0, errno == EINTR { continue }
                if n < 0 { readError = errno }
                guard n > 0 else { break }
                count += n
            }
        }
        guard readError == 0 else { throw .unreadable(path: path, errno: readError) }
        // The file read, and whatever the path names now: the same size, times and identity
        // as when the read began, or the bytes are not one file's at one moment.
        var after = stat(), named = stat()
        guard fstat(fd, &after) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard bytes.count == size, after.st_size == before.st_size, after.st_mtim.tv_sec == before.st_mtim.tv_sec,
            after.st_mtim.tv_nsec == before.st_mtim.tv_nsec, after.st_ctim.tv_sec == before.st_ctim.tv_sec,
            after.st_ctim.tv_nsec == before.st_ctim.tv_nsec,
            lstat(path, &named) == 0, named.st_ino == before.st_ino, named.st_dev == before.st_dev
        else { throw .changedWhileRead(bytes: bytes.count, size: size) }
        return (bytes, before)
    }

    /// Writes `bytes` to a new file of our own beside `path` (`<path>.tmp.<pid>`, 0600, never
    /// one a link points to) and fsyncs it; returns its path. One left by a crashed fitd of
    /// the same pid is removed first.
    static func writeTemporary(for path: String, bytes: [UInt8]) throws(PersistedResultsError) -> String {
        let temporary = path + temporarySuffix + "\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unwritable(path: temporary, errno: errno, step: "open") }
        var failure: PersistedResultsError?
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let n = write(fd, buffer.baseAddress.map { $0 + done }, buffer.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        if !written {
            failure = .unwritable(path: temporary, errno: errno, step: "write")
        } else if fsync(fd) != 0 {
            failure = .unwritable(path: temporary, errno: errno, step: "fsync")
        }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        return temporary
    }

    /// What a temporary file's name has between the file's and the pid of its writer; a
    /// starting daemon removes those of writers no longer running (WarmStart).
    public static let temporarySuffix = ".tmp."

    /// Replaces `path` with `bytes` atomically; the directory must exist.
    static func replace(path: String, with bytes: [UInt8]) throws(PersistedResultsError) {
        let temporary = try writeTemporary(for: path, bytes: bytes)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .unwritable(path: path, errno: code, step: "rename")
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let dirfd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            _ = fsync(dirfd)
            close(dirfd)
        }
    }
}
