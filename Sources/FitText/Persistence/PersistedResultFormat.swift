/// The layout of the persisted result file (docs/caching.md, "What is on disk"), little-endian:
///
///     header    64 bytes: magic "FITDWARM", format version u32, header size u32,
///               fingerprint u64, bucket count u32 (a power of two), entry count u32,
///               buckets offset u64, records offset u64, file size u64,
///               FNV-1a of the 56 bytes before it u64
///     buckets   bucket count × 16 bytes: key hash's high word u64, record offset u32
///               (0: empty), record size u32 — open addressing, linear probing, at most half full
///     records   tag u64 u64, key hash u64 u64, value size u32, enciphered value
///
/// The key hash is ``PersistenceSecret/keyID(_:)`` of the request's key bytes, the value is
/// enciphered with ``PersistenceSecret/cipher(_:id:fingerprint:)`` and the tag is
/// ``PersistenceSecret/mac(id:fingerprint:sealed:)``: without the secret the file says nothing
/// of what was measured, and a record that was not written under it is never served. The
/// header's FNV-1a only tells a damaged header early; it is no defence against a forger, and
/// nothing the header says is trusted beyond where to look. The file is read into memory
/// whole (``PersistedResultFile/readWhole(path:byteLimit:)``) and never parsed as a whole:
/// opening checks the header only, each lookup checks the bucket and the record it reads.
enum PersistedResultFormat {
    static let magic: [UInt8] = Array("FITDWARM".utf8)
    /// Bumped whenever the layout above or a record's encoding (PersistedResultCoding) changes.
    /// 2: a shaped run's cluster keeps its safe-break bit (the top bit of its start).
    /// 4: keyed hashes for keys, enciphered values, a tag on every record (PersistenceSecret).
    /// 5: a request's options in its key by name, from MeasureOptions.
    static let version: UInt32 = 5
    static let headerBytes = 64
    static let bucketBytes = 16
    static let recordHeaderBytes = 36
    /// A lookup gives up after this many buckets: the writer keeps the table at most half
    /// full, where linear probing averages 1.5 probes for a hit and 2.5 for a miss (Knuth,
    /// TAOCP vol. 3, 6.4), so only a hostile file gets near it.
    static let maxProbes = 64
    /// Offsets and sizes are u32.
    static let maxFileBytes = Int(UInt32.max)

    struct Header {
        var fingerprint: UInt64
        var bucketCount: Int
        var entryCount: Int
        var bucketsOffset: Int
        var recordsOffset: Int
        var fileBytes: Int

        func encoded() -> [UInt8] {
            var w = PersistedResultCoding.Writer()
            w.bytes.append(contentsOf: PersistedResultFormat.magic)
            w.u32(PersistedResultFormat.version)
            w.u32(UInt32(PersistedResultFormat.headerBytes))
            w.u64(fingerprint)
            w.u32(UInt32(truncatingIfNeeded: bucketCount))
            w.u32(UInt32(truncatingIfNeeded: entryCount))
            w.u64(UInt64(bucketsOffset))
            w.u64(UInt64(recordsOffset))
            w.u64(UInt64(fileBytes))
            w.u64(PersistedResultCoding.hash(w.bytes))
            return w.bytes
        }

        /// The header at the start of `file`, checked against itself, the file's size and the
        /// expected fingerprint.
        static func read(_ file: UnsafeRawBufferPointer, fingerprint expected: UInt64) throws(PersistedResultsError) -> Header {
            guard file.count >= PersistedResultFormat.headerBytes else { throw .truncated(bytes: file.count) }
            guard file.prefix(8).elementsEqual(PersistedResultFormat.magic) else { throw .notAResultFile }
            var r = PersistedResultCoding.Reader(bytes: UnsafeRawBufferPointer(rebasing: file.prefix(PersistedResultFormat.headerBytes)))
            r.offset = 8
            guard let version = r.u32(), let headerSize = r.u32(), let fingerprint = r.u64(), let buckets = r.u32(),
                let entries = r.u32(), let bucketsOffset = r.u64(), let recordsOffset = r.u64(), let fileBytes = r.u64(),
                let checksum = r.u64()
            else { throw .truncated(bytes: file.count) }
            guard version == PersistedResultFormat.version else { throw .formatVersion(Int(version)) }
            guard PersistedResultCoding.hash(UnsafeRawBufferPointer(rebasing: file.prefix(56))) == checksum,
                headerSize == PersistedResultFormat.headerBytes
            else { throw .corrupt("the header's checksum does not match") }
            guard fileBytes == UInt64(file.count) else {
                throw fileBytes > UInt64(file.count) ? .truncated(bytes: file.count) : .corrupt("\(file.count) bytes, the header says \(fileBytes)")
            }
            guard fingerprint == expected else { throw .staleFingerprint }
            let header = Header(
                fingerprint: fingerprint, bucketCount: Int(buckets), entryCount: Int(entries),
                bucketsOffset: Int(truncatingIfNeeded: bucketsOffset), recordsOffset: Int(truncatingIfNeeded: recordsOffset),
                fileBytes: file.count)
            guard header.bucketCount > 0, header.bucketCount & (header.bucketCount - 1) == 0,
                header.entryCount <= header.bucketCount,
                header.bucketsOffset == PersistedResultFormat.headerBytes,
                header.bucketCount <= (file.count - PersistedResultFormat.headerBytes) / PersistedResultFormat.bucketBytes,
                header.recordsOffset == header.bucketsOffset + header.bucketCount * PersistedResultFormat.bucketBytes
            else { throw .corrupt("the bucket table does not fit the file") }
            return header
        }
    }
}

/// Why a persisted result file was not used. The daemon logs it once and starts cold; the
/// next save replaces the file.
public enum PersistedResultsError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, errno: Int32)
    case truncated(bytes: Int)
    case notAResultFile
    /// A FIFO, a device or a directory where the file should be.
    case notARegularFile
    case formatVersion(Int)
    case corrupt(String)
    /// Written by another fitd version, or for other fonts, fontconfig rules or engine settings.
    case staleFingerprint
    case unwritable(path: String, errno: Int32, step: String)
    /// Larger than the cache it would be loaded into can hold (times a small factor).
    case tooLarge(bytes: Int, limit: Int)
    /// Its size or modification time changed while it was read: written to in place.
    case changedWhileRead(bytes: Int, size: Int)
    /// A file or directory others could have written, or not the user's own: not trusted.
    case insecure(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let code): "cannot read \(path) (errno \(code))"
        case .truncated(let bytes): "the file is truncated (\(bytes) bytes)"
        case .notAResultFile: "not a fitd result file (wrong magic)"
        case .notARegularFile: "not a regular file"
        case .formatVersion(let version): "format version \(version), this fitd reads \(PersistedResultFormat.version)"
        case .corrupt(let reason): "the file is corrupt: \(reason)"
        case .staleFingerprint: "written for another fitd version, font set or fontconfig configuration"
        case .unwritable(let path, let code, let step): "cannot write \(path): \(step) failed (errno \(code))"
        case .tooLarge(let bytes, let limit): "\(bytes) bytes, more than the \(limit) it may have"
        case .changedWhileRead(let bytes, let size): "it changed while it was read (\(bytes) bytes read of \(size))"
        case .insecure(let path, let reason): "\(path) is \(reason)"
        }
    }
}
