import CFitShims
import Synchronization

/// The BMP code units that form a grapheme cluster of their own next to any other such
/// unit, so that text made only of them needs no ICU grapheme iterator: every offset is a
/// cluster boundary. That holds for Cyrillic, Greek, Armenian, Georgian, Hebrew and Arabic
/// letters, CJK, kana, Hangul syllables and most punctuation — not for marks, joiners,
/// variation selectors, Prepend, SpacingMark, conjoining jamo or surrogates.
///
/// The table is not written by hand: it is asked of the same ICU grapheme iterator, one
/// page of 4,096 code points at a time, on first use. A unit `c` is simple when ICU finds
/// a boundary before and after it next to "a" and between two copies of it ("a c c a").
/// In UAX #29 (ICU 72, Unicode 15.0), every rule that joins two code units involves
/// CR LF, Extend, ZWJ, SpacingMark, Prepend, L/V/T jamo or regional indicators, and each of
/// those fails one of the three tests (L, V and T the "c c" one: L × L, V × V, T × T), so
/// two simple units never join, whichever they are. CR and LF are excluded outright.
final class SimpleGraphemes: @unchecked Sendable {
    /// 65,536 bits, one per BMP code unit. Written only under `built`'s lock, for pages not
    /// yet marked built; read only for pages seen built under that lock (the lock orders the
    /// writes before the reads): what makes the `@unchecked Sendable` safe.
    private let bits: UnsafeMutablePointer<UInt64>
    /// Bit p: page p (code units p × 4096 ..< (p + 1) × 4096) is filled in.
    private let built = Mutex<UInt16>(0)
    private let iterators: BreakIteratorPool

    init(iterators: BreakIteratorPool) {
        self.iterators = iterators
        bits = .allocate(capacity: 1024)
        bits.initialize(repeating: 0, count: 1024)
    }

    deinit { bits.deallocate() }

    /// Whether every code unit of `text` is simple: then its clusters are its code units.
    func containsOnlySimple(_ text: UnsafeBufferPointer<UInt16>) throws(FitTextError) -> Bool {
        var pages: UInt16 = 0
        for unit in text { pages |= 1 << (unit >> 12) }
        var ready = built.withLock { $0 }
        if pages & ~ready != 0 { ready = try build(pages) }
        guard pages & ~ready == 0 else { return false }
        for unit in text where bits[Int(unit >> 6)] & (1 << UInt64(unit & 63)) == 0 { return false }
        return true
    }

    /// Fills in the missing pages among `pages`; returns the pages built now.
    private func build(_ pages: UInt16) throws(FitTextError) -> UInt16 {
        try built.withLock { (done: inout UInt16) throws(FitTextError) -> UInt16 in
            for page in 0..<16 where pages & (1 << page) != 0 && done & (1 << page) == 0 {
                try fill(page: page)
                done |= 1 << page
            }
            return done
        }
    }

    private func fill(page: Int) throws(FitTextError) {
        let first = page << 12
        // "a c c" per code unit, then a closing "a".
        var text = [UInt16](repeating: 0x61, count: 3 * 4096 + 1)
        for k in 0..<4096 {
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
        for k in 0..<4096 {
            let unit = first + k
            if unit == 0x0A || unit == 0x0D || (0xD800...0xDFFF).contains(unit) { continue }
            if boundary[3 * k + 1] && boundary[3 * k + 2] && boundary[3 * k + 3] {
                bits[unit >> 6] |= 1 << UInt64(unit & 63)
            }
        }
    }
}
