#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A persisted result file read into memory — results (or shaped runs: the format holds keys
/// and values as bytes) a daemon measured before it stopped, looked up in place by a
/// restarted one (docs/caching.md, "A warm start"). Opening reads the file whole and checks
/// its 64-byte header; a lookup reads one bucket run and one record, each checked against the
/// file's size, and serves the record only when its tag under the secret holds. The bytes are
/// this table's own: what happens to the file on disk afterwards cannot reach them.
public final class PersistedResultTable: Sendable {
    private let bytes: [UInt8]
    private let header: PersistedResultFormat.Header
    private let secret: PersistenceSecret
    public let path: String
    /// Its name in cache statistics.
    public let name: String
    private let hits = Atomic<UInt64>(0)
    private let misses = Atomic<UInt64>(0)
    /// Records that failed their checks (a damaged or forged file).
    private let badRecords = Atomic<UInt64>(0)

    public var entryCount: Int { header.entryCount }
    public var byteCount: Int { header.fileBytes }
    public var fingerprint: UInt64 { header.fingerprint }
    public var corruptRecords: UInt64 { badRecords.load(ordering: .relaxed) }

    /// The table of a file's `bytes`, if its header is one written for `fingerprint`.
    init(bytes: [UInt8], fingerprint: UInt64, secret: PersistenceSecret, path: String, name: String) throws(PersistedResultsError) {
        let header = bytes.withUnsafeBytes { file in
            Result { () throws(PersistedResultsError) in try PersistedResultFormat.Header.read(file, fingerprint: fingerprint) }
        }
        self.header = try header.get()
        self.bytes = bytes
        self.secret = secret
        self.path = path
        self.name = name
    }

    func isKeyed(by secret: PersistenceSecret) -> Bool { self.secret == secret }

    /// Reads `path` if it is a result file written for `fingerprint` and at most `byteLimit`
    /// bytes; nil without error when there is no file (a first start).
    public static func open(
        path: String, fingerprint: UInt64, secret: PersistenceSecret, byteLimit: Int, name: String = "persisted-results"
    ) throws(PersistedResultsError) -> PersistedResultTable? {
        let limit = min(byteLimit, PersistedResultFormat.maxFileBytes)
        guard let (bytes, _) = try PersistedResultFile.readWhole(path: path, byteLimit: limit) else { return nil }
        return try PersistedResultTable(bytes: bytes, fingerprint: fingerprint, secret: secret, path: path, name: name)
    }

    /// The persisted result of `request`, or nil.
    public func metrics(for request: MeasureRequest) -> TextMetrics? {
        value(for: PersistedResultCoding.key(request), PersistedResultCoding.metrics)
    }

    /// What `decode` makes of the value stored for `key` (nil: none, or not decodable),
    /// counted as a hit or a miss.
    func value<T>(for key: [UInt8], _ decode: (UnsafeRawBufferPointer) -> T?) -> T? {
        let found = record(for: secret.keyID(key)).flatMap { $0.withUnsafeBytes(decode) }
        if found == nil { misses.add(1, ordering: .relaxed) } else { hits.add(1, ordering: .relaxed) }
        return found
    }

    /// The value stored for `id`, deciphered, or nil; a bucket or record that fails a check
    /// is a miss.
    private func record(for id: PersistedKeyID) -> [UInt8]? {
        bytes.withUnsafeBytes { file -> [UInt8]? in
            let mask = header.bucketCount - 1
            var bucket = Int(truncatingIfNeeded: id.high) & mask
            for _ in 0..<min(PersistedResultFormat.maxProbes, header.bucketCount) {
                let at = header.bucketsOffset + bucket * PersistedResultFormat.bucketBytes
                let storedHash = UInt64(littleEndian: file.loadUnaligned(fromByteOffset: at, as: UInt64.self))
                let offset = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)))
                let size = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self)))
                if offset == 0 { return nil }
                if storedHash == id.high, let (storedID, value) = entry(at: offset, size: size, in: file), storedID == id {
                    return value
                }
                bucket = (bucket + 1) & mask
            }
            return nil
        }
    }

    /// The key hash and deciphered value of the record at `offset`, if it lies within the
    /// records and its tag is the one the secret gives it.
    private func entry(at offset: Int, size: Int, in file: UnsafeRawBufferPointer) -> (id: PersistedKeyID, value: [UInt8])? {
        guard offset >= header.recordsOffset, size >= PersistedResultFormat.recordHeaderBytes, size <= file.count - offset else {
            badRecords.add(1, ordering: .relaxed)
            return nil
        }
        var r = PersistedResultCoding.Reader(bytes: UnsafeRawBufferPointer(rebasing: file[offset..<offset + size]))
        guard let tagHigh = r.u64(), let tagLow = r.u64(), let high = r.u64(), let low = r.u64(), let valueSize = r.u32(),
            Int(valueSize) == r.remaining
        else {
            badRecords.add(1, ordering: .relaxed)
            return nil
        }
        let id = PersistedKeyID(high: high, low: low)
        let sealed = UnsafeRawBufferPointer(rebasing: r.bytes[r.offset...])
        let tag = secret.mac(id: id, fingerprint: header.fingerprint, sealed: sealed)
        // Compared without an early exit: how long a refusal takes says nothing of how much
        // of a forged tag was right.
        guard (tag.high ^ tagHigh) | (tag.low ^ tagLow) == 0 else {
            badRecords.add(1, ordering: .relaxed)
            return nil
        }
        var value = Array(sealed)
        secret.cipher(&value, id: id, fingerprint: header.fingerprint)
        return (id, value)
    }

    /// Every record that passes its checks, as key hash and deciphered value, in bucket
    /// order: what a save keeps of the file it replaces.
    func forEachRecord(_ body: (PersistedKeyID, [UInt8]) -> Void) {
        bytes.withUnsafeBytes { file in
            for bucket in 0..<header.bucketCount {
                let at = header.bucketsOffset + bucket * PersistedResultFormat.bucketBytes
                let offset = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)))
                let size = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self)))
                guard offset != 0, let (id, value) = entry(at: offset, size: size, in: file) else { continue }
                body(id, value)
            }
        }
    }

    public var statistics: CacheStatistics {
        CacheStatistics(
            name: name, entries: header.entryCount, bytes: header.fileBytes, byteLimit: header.fileBytes,
            hits: hits.load(ordering: .relaxed), misses: misses.load(ordering: .relaxed), evictions: 0)
    }
}
