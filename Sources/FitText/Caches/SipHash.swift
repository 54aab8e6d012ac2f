/// SipHash-2-4 (Jean-Philippe Aumasson and Daniel J. Bernstein, "SipHash: a fast short-input
/// PRF", INDOCRYPT 2012): a pseudorandom function of a 128-bit key, 64 bits out, two
/// compression and four finalization rounds. What the warm-start files are keyed with
/// (``PersistenceSecret``): a hash whose key the reader of the file does not have, unlike
/// FNV-1a, which anyone can compute for a forged record. Fed in pieces, it gives what the
/// whole would give (the reference implementation's vectors.h, SipHashTests).
struct SipHash24 {
    private var v0: UInt64
    private var v1: UInt64
    private var v2: UInt64
    private var v3: UInt64
    /// Bytes fed but not yet compressed (fewer than 8), little-endian.
    private var tail: UInt64 = 0
    private var tailCount = 0
    /// Bytes fed in all; the last word carries it modulo 256 (the paper, 2.2).
    private var length = 0

    /// The key as the paper reads it: its 16 bytes as two little-endian words.
    init(k0: UInt64, k1: UInt64) {
        v0 = k0 ^ 0x736f_6d65_7073_6575
        v1 = k1 ^ 0x646f_7261_6e64_6f6d
        v2 = k0 ^ 0x6c79_6765_6e65_7261
        v3 = k1 ^ 0x7465_6462_7974_6573
    }

    private static func rotl(_ x: UInt64, _ b: UInt64) -> UInt64 { (x << b) | (x >> (64 - b)) }

    private mutating func round() {
        v0 &+= v1
        v1 = Self.rotl(v1, 13)
        v1 ^= v0
        v0 = Self.rotl(v0, 32)
        v2 &+= v3
        v3 = Self.rotl(v3, 16)
        v3 ^= v2
        v0 &+= v3
        v3 = Self.rotl(v3, 21)
        v3 ^= v0
        v2 &+= v1
        v1 = Self.rotl(v1, 17)
        v1 ^= v2
        v2 = Self.rotl(v2, 32)
    }

    private mutating func compress(_ m: UInt64) {
        v3 ^= m
        round()
        round()
        v0 ^= m
    }

    mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        if tailCount == 0 {
            while bytes.count - i >= 8 {
                compress(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                i += 8
            }
        } else {
            // Fed off a word's boundary (every use puts a one-byte domain first): each word
            // completes the tail and leaves its own top bytes as the next tail, rather than
            // every byte of a save's keys, tags and stream going through the loop below.
            let shift = UInt64(8 * tailCount)
            while bytes.count - i >= 8 {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                compress(tail | word << shift)
                tail = word >> (64 - shift)
                i += 8
            }
        }
        while i < bytes.count {
            tail |= UInt64(bytes[i]) << (8 * UInt64(tailCount))
            tailCount += 1
            i += 1
            if tailCount == 8 {
                compress(tail)
                tail = 0
                tailCount = 0
            }
        }
        length &+= bytes.count
    }

    mutating func combine(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { combine($0) }
    }

    mutating func combine(_ byte: UInt8) {
        withUnsafeBytes(of: byte) { combine($0) }
    }

    consuming func finalize() -> UInt64 {
        compress(UInt64(truncatingIfNeeded: length & 0xff) << 56 | tail)
        v2 ^= 0xff
        for _ in 0..<4 { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }

    static func hash(k0: UInt64, k1: UInt64, _ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = SipHash24(k0: k0, k1: k1)
        hasher.combine(bytes)
        return hasher.finalize()
    }
}
