/// The bound on a grapheme cluster's length that keeps every step after it linear.
///
/// UAX #29 puts no limit on a cluster: "a" followed by 65,536 combining marks is one
/// cluster, and HarfBuzz attaching each mark to the base looks back over the marks before it
/// (n² for n marks: 8 s for 128 KiB). Unicode allows a bound: text in UAX #15's
/// Stream-Safe Text Format has at most 30 non-starters in a row (UAX #15 §13, where a
/// stream-safe process inserts U+034F after the 30th). The engine applies it to clusters:
/// one holds at most 31 code points, a first and 30 that extend it, and what follows starts
/// a new cluster — a *continuation*, shaped on its own as if the marks went on from the
/// cluster before (no dotted circle) and measured, broken and ellipsized as a cluster.
///
/// Every code point after the first counts, not only non-starters (canonical combining
/// class ≠ 0): joiners, variation selectors and spacing marks extend clusters too and are
/// bounded alike. No cluster of real text comes near the bound (the longest emoji sequences
/// have 10 code points, Indic clusters a handful), so results for text are unchanged; only
/// such pathological input measures differently. Pango does not do this: it would shape the
/// 65,537 code points as one cluster.
enum StreamSafeClusters {
    /// UAX #15: at most 30 non-starters follow a starter.
    static let maxScalars = 31

    /// Cuts the clusters of `starts` (cluster starts in `text`, then its length) that hold
    /// more than ``maxScalars`` code points. Returns, per cluster of the result, whether it
    /// continues the cluster before it; empty when nothing was cut (every cluster of text).
    static func cut(_ starts: inout [Int32], in text: UnsafeBufferPointer<UInt16>) -> [Bool] {
        // A cluster of at most 31 code units has at most 31 code points: most texts stop here.
        var long = false
        for c in 0..<max(starts.count - 1, 0) where starts[c + 1] - starts[c] > Int32(maxScalars) {
            long = true
            break
        }
        guard long else { return [] }
        var cut: [Int32] = []
        var continuation: [Bool] = []
        cut.reserveCapacity(starts.count)
        continuation.reserveCapacity(starts.count)
        for c in 0..<starts.count - 1 {
            var unit = Int(starts[c])
            let end = Int(starts[c + 1])
            cut.append(Int32(unit))
            continuation.append(false)
            var scalars = 0
            while unit < end {
                if scalars == maxScalars {
                    cut.append(Int32(unit))
                    continuation.append(true)
                    scalars = 0
                }
                // A surrogate pair is one code point (a lone surrogate counts as one).
                let pair = UTF16.isLeadSurrogate(text[unit]) && unit + 1 < end && UTF16.isTrailSurrogate(text[unit + 1])
                unit += pair ? 2 : 1
                scalars += 1
            }
        }
        cut.append(starts[starts.count - 1])
        starts = cut
        return continuation
    }
}
