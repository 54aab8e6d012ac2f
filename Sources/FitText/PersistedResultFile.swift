#if canImport(Glibc)
import Glibc
#endif

/// Writes a persisted result file (``PersistedResultFormat``) the way a reader can never see
/// half of: to a temporary file in the same directory, fsync(2), rename(2) over the old one,
/// then fsync of the directory so that the rename itself survives a crash.
public enum PersistedResultFile {
    /// The file's bytes for `records` (key and value bytes, most wanted first), as many as fit
    /// in `byteLimit`; a key that appears twice keeps its first value.
    static func encode(records: [(key: [UInt8], value: [UInt8])], fingerprint: UInt64, byteLimit: Int) -> (bytes: [UInt8], entries: Int) {
        let limit = min(byteLimit, PersistedResultFormat.maxFileBytes)
        var chosen: [(hash: UInt64, record: Int)] = []
        var recordBytes = 0
        var seen = Set<[UInt8]>()
        for (index, record) in records.enumerated() {
            let size = PersistedResultFormat.recordHeaderBytes + record.key.count + record.value.count
            // The bucket table: twice the entries rounded up to a power of two (under four
            // times them), at least 8 buckets.
            let buckets = max(8, 4 * (chosen.count + 1)) * PersistedResultFormat.bucketBytes
            guard PersistedResultFormat.headerBytes + buckets + recordBytes + size <= limit else { break }
            guard seen.insert(record.key).inserted else { continue }
            chosen.append((PersistedResultCoding.hash(record.key), index))
            recordBytes += size
        }
        var bucketCount = 8
        while bucketCount < 2 * chosen.count { bucketCount *= 2 }
        let recordsOffset = PersistedResultFormat.headerBytes + bucketCount * PersistedResultFormat.bucketBytes
        var buckets = [(hash: UInt64, offset: UInt32, size: UInt32)](repeating: (0, 0, 0), count: bucketCount)
        var body = PersistedResultCoding.Writer()
        body.bytes.reserveCapacity(recordBytes)
        var stored = 0
        for (hash, index) in chosen {
            let record = records[index]
            // A run this long means a poor hash for these keys; the reader would give up on it.
            var bucket = Int(truncatingIfNeeded: hash) & (bucketCount - 1)
            var probes = 1
            while buckets[bucket].offset != 0, probes < PersistedResultFormat.maxProbes {
                bucket = (bucket + 1) & (bucketCount - 1)
                probes += 1
            }
            guard buckets[bucket].offset == 0 else { continue }
            let size = PersistedResultFormat.recordHeaderBytes + record.key.count + record.value.count
            buckets[bucket] = (hash, UInt32(recordsOffset + body.bytes.count), UInt32(size))
            let checksum = (record.key + record.value).withUnsafeBytes { PersistedResultCoding.hash($0) }
            body.u64(checksum)
            body.u32(UInt32(record.key.count))
            body.u32(UInt32(record.value.count))
            body.bytes.append(contentsOf: record.key)
            body.bytes.append(contentsOf: record.value)
            stored += 1
        }
        let header = PersistedResultFormat.Header(
            fingerprint: fingerprint, bucketCount: bucketCount, entryCount: stored,
            bucketsOffset: PersistedResultFormat.headerBytes, recordsOffset: recordsOffset,
            fileBytes: recordsOffset + body.bytes.count)
        var file = header.encoded()
        file.reserveCapacity(header.fileBytes)
        var table = PersistedResultCoding.Writer()
        table.bytes.reserveCapacity(bucketCount * PersistedResultFormat.bucketBytes)
        for bucket in buckets {
            table.u64(bucket.hash)
            table.u32(bucket.offset)
            table.u32(bucket.size)
        }
        file += table.bytes
        file += body.bytes
        return (file, stored)
    }

    /// Replaces `path` with `bytes` atomically; the directory must exist.
    static func replace(path: String, with bytes: [UInt8]) throws(PersistedResultsError) {
        let temporary = path + ".tmp.\(getpid())"
        // A new file of our own, never one a link points to; one left by a crashed fitd of the
        // same pid is removed first.
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
        if failure == nil, rename(temporary, path) != 0 {
            failure = .unwritable(path: path, errno: errno, step: "rename")
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let dirfd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            _ = fsync(dirfd)
            close(dirfd)
        }
    }
}
