/// A paragraph analysed and shaped, kept so that measuring the same text again at another
/// width only breaks lines (Skia's paragraph: shaping is reused when only the width changes).
/// Layout asks each text for its size at several widths — SwiftUI's minimum probe (0), its
/// ideal (no width) and its share — and a cold 50-node layout analysed and shaped every text
/// three times (Benchmarks/README.md, "Layout").
///
/// What the paragraph is measured with is in the key: the style (font, size, features), the
/// letter spacing and the text. Everything else of a request — width, wrap mode, line limit,
/// ellipsizing — applies after shaping, which is what lets one entry answer them all.
/// An entry made without a width has no line-break opportunities or hyphen positions;
/// the first wrapped measurement adds them (``TextAnalyzer/wrapping``).
///
/// The paragraph is kept as its line breaker, which holds per cluster all that breaking
/// lines and measuring them needs — width, start, font, break, white space, hyphen and tab —
/// in one array, and the fonts.
struct CachedParagraph: Sendable {
    let breaker: LineBreaker
    /// Whether the breaker knows the line-break opportunities, and the hyphen positions.
    let lineBreaks: Bool
    let hyphenation: Bool

    /// The paragraph the shaper made (in the measurement's scratch arrays, which go back to be
    /// reused once this is made).
    init(_ shaped: borrowing ShapedParagraph, text: UnsafeBufferPointer<UInt16>, primary: Font, lineBreaks: Bool, hyphenation: Bool) {
        // Read in place: a copy of the analysis retained and released its seven arrays.
        let count = shaped.analysis.clusterCount
        let hasTabs = text.contains(0x09)
        // Built from a sequence, which allocates in specialized code (see Array(filled:) in
        // FitLayout), then filled in place.
        var clusters = Array(repeatElement(LineBreaker.Cluster(width: 0, start: 0, font: 0, flags: []), count: count))
        clusters.withUnsafeMutableBufferPointer { out in
            for c in 0..<count {
                var flags: LineBreaker.Flags = []
                if shaped.analysis.canBreakBefore[c] { flags.insert(.breakBefore) }
                if shaped.analysis.isWhiteSpace[c] { flags.insert(.whiteSpace) }
                if !shaped.analysis.hyphenBefore.isEmpty && shaped.analysis.hyphenBefore[c] { flags.insert(.hyphenBefore) }
                if hasTabs && text[Int(shaped.analysis.graphemeStarts[c])] == 0x09 { flags.insert(.tab) }
                if !shaped.hexBox.isEmpty && shaped.hexBox[c] { flags.insert(.hexBox) }
                if !shaped.safeBreak.isEmpty && shaped.safeBreak[c] { flags.insert(.safeBreakBefore) }
                if c == 0 || shaped.fontOf[c] != shaped.fontOf[c - 1] || shaped.analysis.scripts[c] != shaped.analysis.scripts[c - 1]
                    || flags.contains(.hexBox) != out[c - 1].flags.contains(.hexBox)
                {
                    flags.insert(.runStart)
                }
                let script = shaped.analysis.scripts[c]
                out[c] = LineBreaker.Cluster(
                    width: shaped.widths[c], start: shaped.analysis.graphemeStarts[c], font: shaped.fontOf[c], flags: flags,
                    level: shaped.analysis.levels[c], script: script)
            }
        }
        breaker = LineBreaker(
            clusters: clusters, end: shaped.analysis.graphemeStarts[count], fonts: shaped.fontTable,
            tabStops: TabStops(spaceWidth: hasTabs ? ParagraphShaper.spaceWidth(of: primary) : 1))
        self.lineBreaks = lineBreaks
        self.hyphenation = hyphenation
    }

    /// This paragraph with line-break opportunities and hyphen positions (`nil`: unchanged).
    init(_ paragraph: CachedParagraph, canBreakBefore: [Bool]?, hyphenBefore: [Bool]?) {
        let old = paragraph.breaker
        var clusters = old.clusters
        for c in clusters.indices {
            if let canBreakBefore {
                if canBreakBefore[c] { clusters[c].flags.insert(.breakBefore) } else { clusters[c].flags.remove(.breakBefore) }
            }
            if let hyphenBefore {
                if hyphenBefore[c] { clusters[c].flags.insert(.hyphenBefore) } else { clusters[c].flags.remove(.hyphenBefore) }
            }
        }
        breaker = LineBreaker(
            clusters: clusters, end: old.end, fonts: old.fonts, uniformHyphen: old.uniformHyphen, tabStops: old.tabStops)
        lineBreaks = paragraph.lineBreaks || canBreakBefore != nil
        hyphenation = paragraph.hyphenation || hyphenBefore != nil
    }

    /// Approximate memory held, for the byte-bounded cache: the clusters, the fonts' list and
    /// the headers of the breaker, its arrays and the cache's slot.
    var byteCount: Int {
        160 + breaker.count * MemoryLayout<LineBreaker.Cluster>.stride + breaker.fonts.count * 8
    }

    /// The paragraph cache's key: what making the entry reads — the style, the letter spacing
    /// and the paragraph's own text, by its UTF-8 bytes (as ``MeasureRequest`` compares text).
    /// Not the request's text: two requests sharing a paragraph share its entry, and a lookup
    /// hashes the paragraph, not the whole text once per paragraph: work stays linear in the
    /// text's length.
    struct Key: Hashable, Sendable {
        /// ``ResolvedStyle/id``: the font, size and features the paragraph is shaped with.
        var style: Int
        var letterSpacing: Double
        var text: String

        static func == (a: Key, b: Key) -> Bool {
            a.style == b.style && a.letterSpacing == b.letterSpacing && MeasureRequest.sameBytes(a.text, b.text)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(style)
            hasher.combine(letterSpacing)
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        var byteCount: Int { 48 + text.utf8.count }
    }
}
