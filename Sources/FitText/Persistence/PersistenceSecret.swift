#if canImport(Glibc)
import Glibc
#endif
import CFitShims

/// A record's key in the warm-start files: a keyed 128-bit hash of the request's key bytes
/// (two SipHash-2-4 of them under the secret's two halves), never the text itself.
struct PersistedKeyID: Hashable, Sendable {
    var high: UInt64
    var low: UInt64
}

/// The per-user secret the warm-start files are keyed and authenticated with
/// (docs/caching.md, "What is on disk"): 32 bytes from getrandom(2) in the file `secret` of the
/// cache directory, mode 0600. With it a record's key is a keyed hash of the request
/// (``keyID(_:)``), its value enciphered (``cipher(_:id:fingerprint:)``) and the whole record
/// authenticated (``mac(id:fingerprint:sealed:)``): whoever can write the file but not read the
/// secret can neither learn what was measured nor make fitd serve a number it did not measure.
public struct PersistenceSecret: Sendable, Equatable {
    public static let byteCount = 32
    public static let fileName = "secret"
    private let k0: UInt64, k1: UInt64, k2: UInt64, k3: UInt64

    /// The secret of these 32 bytes (tests; the file's contents); nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        func word(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        (k0, k1, k2, k3) = (word(0), word(8), word(16), word(24))
    }

    // Every use hashes a different first byte: the uses are separate functions of one key,
    // none of whose outputs says anything of another's (domain separation).
    private enum Domain: UInt8 { case key = 1, mac = 2, stream = 3 }

    private func hasher(_ domain: Domain, second half: Bool) -> SipHash24 {
        var hasher = half ? SipHash24(k0: k2, k1: k3) : SipHash24(k0: k0, k1: k1)
        hasher.combine(domain.rawValue)
        return hasher
    }

    func keyID(_ key: UnsafeRawBufferPointer) -> PersistedKeyID {
        var high = hasher(.key, second: false), low = hasher(.key, second: true)
        high.combine(key)
        low.combine(key)
        return PersistedKeyID(high: high.finalize(), low: low.finalize())
    }

    func keyID(_ key: [UInt8]) -> PersistedKeyID { key.withUnsafeBytes { keyID($0) } }

    /// The record's 128-bit tag: over the fingerprint the file was written for, the key and
    /// the enciphered value (encrypt-then-MAC), so a record moved to a file of other fonts or
    /// given another key's value fails it.
    func mac(id: PersistedKeyID, fingerprint: UInt64, sealed: UnsafeRawBufferPointer) -> PersistedKeyID {
        var tags = [hasher(.mac, second: false), hasher(.mac, second: true)]
        for i in tags.indices {
            tags[i].combine(fingerprint)
            tags[i].combine(id.high)
            tags[i].combine(id.low)
            tags[i].combine(UInt64(sealed.count))
            tags[i].combine(sealed)
        }
        return PersistedKeyID(high: tags[0].finalize(), low: tags[1].finalize())
    }

    /// XORs `value` with a keystream of SipHash-2-4 in counter mode over the key and the
    /// fingerprint (a pseudorandom function in counter mode: NIST SP 800-38A, 6.5): a line's
    /// text in a value is not in the file in clear. Its own inverse. One key and fingerprint
    /// always have the same value, so a stream used twice enciphers the same bytes twice.
    func cipher(_ value: inout [UInt8], id: PersistedKeyID, fingerprint: UInt64) {
        // What every block of the record hashes first, hashed once: a block is then one word
        // and the finalization (SipHash is sequential, so the stream is the same).
        var record = hasher(.stream, second: false)
        record.combine(fingerprint)
        record.combine(id.high)
        record.combine(id.low)
        var block: UInt64 = 0
        var word: UInt64 = 0
        for i in value.indices {
            if i % 8 == 0 {
                var stream = record
                stream.combine(block)
                word = stream.finalize()
                block &+= 1
            }
            value[i] ^= UInt8(truncatingIfNeeded: word >> (8 * UInt64(i % 8)))
        }
    }

    /// The secret in `directory`, made when there is none. Refused — and with it persistence —
    /// when the file is not the user's own, not private (mode 0600), a link or not 32 bytes.
    public static func loadOrCreate(directory: String) throws(PersistedResultsError) -> PersistenceSecret {
        let path = directory + "/" + fileName
        if let secret = try load(path: path) { return secret }
        try create(path: path)
        guard let secret = try load(path: path) else { throw .unreadable(path: path, errno: ENOENT) }
        return secret
    }

    /// The secret at `path`, nil when there is none.
    public static func load(path: String) throws(PersistedResultsError) -> PersistenceSecret? {
        guard let (bytes, status) = try PersistedResultFile.readWhole(path: path, byteLimit: byteCount) else { return nil }
        guard status.st_uid == geteuid() else {
            throw .insecure(path: path, reason: "owned by uid \(status.st_uid), not by this user (uid \(geteuid()))")
        }
        guard status.st_mode & 0o077 == 0 else {
            throw .insecure(path: path, reason: "open to group or others (mode \(String(status.st_mode & 0o777, radix: 8)), must be 600)")
        }
        guard let secret = PersistenceSecret(bytes: bytes) else { throw .corrupt("\(path) holds \(bytes.count) bytes, not \(byteCount)") }
        return secret
    }

    /// Writes 32 new random bytes to a temporary file of our own (O_EXCL|O_NOFOLLOW, 0600) and
    /// links it to `path`: the secret appears whole or not at all, and link(2) never replaces
    /// one a daemon starting at the same time made first (EEXIST: that one is used).
    private static func create(path: String) throws(PersistedResultsError) {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        let failed = bytes.withUnsafeMutableBytes { fit_getrandom($0.baseAddress, $0.count) }
        guard failed == 0 else { throw .unwritable(path: path, errno: failed, step: "getrandom") }
        let temporary = try PersistedResultFile.writeTemporary(for: path, bytes: bytes)
        defer { unlink(temporary) }
        if link(temporary, path) != 0, errno != EEXIST {
            throw .unwritable(path: path, errno: errno, step: "link")
        }
    }
}
