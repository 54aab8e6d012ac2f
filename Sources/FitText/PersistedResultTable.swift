#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A persisted result file mapped read-only (mmap(2)) — results (or shaped runs: the format
/// holds keys and values as bytes) a daemon measured before it stopped, looked up in place by
/// a restarted one (issue 14, "a warm start"). Opening reads
/// the 64-byte header only; a lookup reads one bucket run and one record, each checked against
/// the file's size and its checksum. The mapping is private and never written: a file
/// replaced on disk (a save renames over it) leaves this one's pages as they were.
public final class PersistedResultTable: Sendable {
    /// The mapping's address as an integer: the pages are read-only and live as long as the
    /// table (deinit unmaps them), so every thread may read them without a lock.
    private let base: UInt
    private let header: PersistedResultFormat.Header
    public let path: String
    /// Its name in cache statistics.
    public let name: String
    private let hits = Atomic<UInt64>(0)
    private let misses = Atomic<UInt64>(0)
    /// Records that failed their checks (a file damaged after it was opened, or hostile).
    private let badRecords = Atomic<UInt64>(0)

    public var entryCount: Int { header.entryCount }
    public var byteCount: Int { header.fileBytes }
    public var fingerprint: UInt64 { header.fingerprint }
    public var corruptRecords: UInt64 { badRecords.load(ordering: .relaxed) }

    private init(base: UInt, header: PersistedResultFormat.Header, path: String, name: String) {
        self.base = base
        self.header = header
        self.path = path
        self.name = name
    }

    deinit {
        if let pointer = UnsafeMutableRawPointer(bitPattern: base) { munmap(pointer, header.fileBytes) }
    }

    /// Maps `path` if it is a result file written for `fingerprint`; nil without error when
    /// there is no file (a first start).
    public static func open(path: String, fingerprint: UInt64, name: String = "persisted-results") throws(PersistedResultsError) -> PersistedResultTable? {
        // Not blocking on a FIFO put in its place, not following a link: the file is fitd's own.
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, errno: errno)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile }
        let size = Int(status.st_size)
        guard size >= PersistedResultFormat.headerBytes else { throw .truncated(bytes: size) }
        guard size <= PersistedResultFormat.maxFileBytes else { throw .corrupt("\(size) bytes, more than a result file holds") }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw .unreadable(path: path, errno: errno)
        }
        let header: PersistedResultFormat.Header
        do {
            header = try PersistedResultFormat.Header.read(UnsafeRawBufferPointer(start: mapped, count: size), fingerprint: fingerprint)
        } catch {
            munmap(mapped, size)
            throw error
        }
        return PersistedResultTable(base: UInt(bitPattern: mapped), header: header, path: path, name: name)
    }

    private var file: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: base), count: header.fileBytes)
    }

    /// The persisted result of `request`, or nil.
    public func metrics(for request: MeasureRequest) -> TextMetrics? {
        value(for: PersistedResultCoding.key(request), PersistedResultCoding.metrics)
    }

    /// What `decode` makes of the value stored for `key` (nil: none, or not decodable),
    /// counted as a hit or a miss.
    func value<T>(for key: [UInt8], _ decode: (UnsafeRawBufferPointer) -> T?) -> T? {
        let found = key.withUnsafeBytes { key in
            record(for: key, hash: PersistedResultCoding.hash(key)).flatMap(decode)
        }
        if found == nil { misses.add(1, ordering: .relaxed) } else { hits.add(1, ordering: .relaxed) }
        return found
    }

    /// The value bytes stored for `key`, or nil; a bucket or record that fails a check is a miss.
    private func record(for key: UnsafeRawBufferPointer, hash: UInt64) -> UnsafeRawBufferPointer? {
        let file = self.file
        let mask = header.bucketCount - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        for _ in 0..<min(PersistedResultFormat.maxProbes, header.bucketCount) {
            let at = header.bucketsOffset + bucket * PersistedResultFormat.bucketBytes
            let storedHash = UInt64(littleEndian: file.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            let offset = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)))
            let size = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self)))
            if offset == 0 { return nil }
            if storedHash == hash, let (storedKey, value) = entry(at: offset, size: size, in: file),
                storedKey.elementsEqual(key)
            {
                return value
            }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    /// The key and value of the record at `offset`, if it lies within the records and its
    /// checksum matches.
    private func entry(at offset: Int, size: Int, in file: UnsafeRawBufferPointer) -> (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)? {
        guard offset >= header.recordsOffset, size >= PersistedResultFormat.recordHeaderBytes, size <= file.count - offset else {
            badRecords.add(1, ordering: .relaxed)
            return nil
        }
        let record = UnsafeRawBufferPointer(rebasing: file[offset..<offset + size])
        let checksum = UInt64(littleEndian: record.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let keySize = Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        let valueSize = Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
        let body = UnsafeRawBufferPointer(rebasing: record[PersistedResultFormat.recordHeaderBytes...])
        guard keySize <= body.count, valueSize == body.count - keySize, PersistedResultCoding.hash(body) == checksum else {
            badRecords.add(1, ordering: .relaxed)
            return nil
        }
        return (UnsafeRawBufferPointer(rebasing: body[..<keySize]), UnsafeRawBufferPointer(rebasing: body[keySize...]))
    }

    /// Every record that passes its checks, as (key, value) bytes, in bucket order: what a
    /// save keeps of the file it replaces.
    func forEachRecord(_ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void) {
        let file = self.file
        for bucket in 0..<header.bucketCount {
            let at = header.bucketsOffset + bucket * PersistedResultFormat.bucketBytes
            let offset = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)))
            let size = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self)))
            guard offset != 0, let (key, value) = entry(at: offset, size: size, in: file) else { continue }
            body(key, value)
        }
    }

    public var statistics: CacheStatistics {
        CacheStatistics(
            name: name, entries: header.entryCount, bytes: header.fileBytes, byteLimit: header.fileBytes,
            hits: hits.load(ordering: .relaxed), misses: misses.load(ordering: .relaxed), evictions: 0)
    }
}
