import CFitShims
import Synchronization

/// The BMP code units that form a grapheme cluster of their own next to any other such
/// unit, so that text made only of them needs no ICU grapheme iterator: every offset is a
/// cluster boundary. That holds for Cyrillic, Greek, Armenian, Georgian, Hebrew and Arabic
/// letters, CJK, kana, Hangul syllables and most punctuation — not for marks, joiners,
/// variation selectors, Prepend, SpacingMark, conjoining jamo or surrogates.
///
/// The table is not written by hand: it is asked of the same ICU grapheme iterator, one
/// block of 256 code points at a time, on first use. A unit `c` is simple when ICU finds
/// a boundary before and after it next to "a" and between two copies of it ("a c c a").
/// In UAX #29 (ICU 72, Unicode 15.0), every rule that joins two code units involves
/// CR LF, Extend, ZWJ, SpacingMark, Prepend, L/V/T jamo or regional indicators, and each of
/// those fails one of the three tests (L, V and T the "c c" one: L × L, V × V, T × T), so
/// two simple units never join, whichever they are. CR and LF are excluded outright.
/// (Pages of 4,096 were filled before: a text with one "—" or "…" asked ICU about the whole
/// of U+2000–2FFF, 3.4 M instructions a page; 11 pages were 38 M of `fitctl measure
/// --batch`'s 20,000 lines.)
final class SimpleGraphemes: @unchecked Sendable {
    /// 65,536 bits, one per BMP code unit. Written only under `built`'s lock, for blocks not
    /// yet marked built; read only for blocks seen built under that lock (the lock orders the
    /// writes before the reads): what makes the `@unchecked Sendable` safe.
    private let bits: UnsafeMutablePointer<UInt64>
    /// Bit b: block b (code units b × 256 ..< (b + 1) × 256) is filled in.
    private let built = Mutex<Blocks>(Blocks())
    private let iterators: BreakIteratorPool

    /// A bit per block of 256 code units: word `b >> 6`, bit `b & 63`.
    struct Blocks {
        var words = SIMD4<UInt64>(repeating: 0)

        mutating func insert(_ unit: UInt16) { words[Int(unit >> 14)] |= 1 << UInt64((unit >> 8) & 63) }

        func contains(block: Int) -> Bool { words[block >> 6] & (1 << UInt64(block & 63)) != 0 }

        /// Whether every block here is in `other`.
        func isSubset(of other: Blocks) -> Bool { words & ~other.words == .zero }
    }

    init(iterators: BreakIteratorPool) {
        self.iterators = iterators
        bits = .allocate(capacity: 1024)
        bits.initialize(repeating: 0, count: 1024)
    }

    deinit { bits.deallocate() }

    /// Whether every code unit of `text` is simple: then its clusters are its code units.
    func containsOnlySimple(_ text: UnsafeBufferPointer<UInt16>) throws(FitTextError) -> Bool {
        var blocks = Blocks()
        for unit in text { blocks.insert(unit) }
        var ready = built.withLock { $0 }
        if !blocks.isSubset(of: ready) { ready = try build(blocks) }
        guard blocks.isSubset(of: ready) else { return false }
        for unit in text where bits[Int(unit >> 6)] & (1 << UInt64(unit & 63)) == 0 { return false }
        return true
    }

    /// Whether `unit` is simple; only for a unit of a text ``containsOnlySimple(_:)`` has
    /// seen (which builds every block the text touches, even when it answers false).
    func isSimple(_ unit: UInt16) -> Bool { bits[Int(unit >> 6)] & (1 << UInt64(unit & 63)) != 0 }

    /// Fills in the missing blocks among `blocks`; returns the blocks built now.
    private func build(_ blocks: Blocks) throws(FitTextError) -> Blocks {
        try built.withLock { (done: inout Blocks) throws(FitTextError) -> Blocks in
            for block in 0..<256 where blocks.contains(block: block) && !done.contains(block: block) {
                try fill(block: block)
                done.insert(UInt16(block << 8))
            }
            return done
        }
    }

    private func fill(block: Int) throws(FitTextError) {
        let first = block << 8
        // "a c c" per code unit, then a closing "a".
        var text = [UInt16](repeating: 0x61, count: 3 * 256 + 1)
        for k in 0..<256 {
            text[3 * k + 1] = UInt16(first + k)
            text[3 * k + 2] = UInt16(first + k)
        }
        var boundary = [Bool](repeating: false, count: text.count + 1)
        try text.withUnsafeBufferPointer { units throws(FitTextError) in
            try withUnsafeTemporaryAllocation(of: Int32.self, capacity: units.count + 1) { out throws(FitTextError) in
                let count = try iterators.boundaries(of: units, into: out.baseAddress)
                for i in 0..<count { boundary[Int(out[i])] = true }
            }
        }
        for k in 0..<256 {
            let unit = first + k
            if unit == 0x0A || unit == 0x0D || (0xD800...0xDFFF).contains(unit) { continue }
            if boundary[3 * k + 1] && boundary[3 * k + 2] && boundary[3 * k + 3] {
                bits[unit >> 6] |= 1 << UInt64(unit & 63)
            }
        }
    }
}
