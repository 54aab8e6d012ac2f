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
        // FitLayout; `init(unsafeUninitializedCapacity:)` looked up its storage class's
        // generic metadata, about 550 instructions), then filled in place, the arrays every
        // paragraph has read through buffer pointers (0.12 K instructions a string fewer than
        // checked subscripts: FitBenchRatios fitd-cold under callgrind). The three that may be
        // empty are read through their own references.
        let hyphens = shaped.analysis.hyphenBefore
        let boxes = shaped.hexBox
        let safe = shaped.safeBreak
        var clusters = Array(repeatElement(LineBreaker.Cluster(width: 0, start: 0, font: 0, flags: []), count: count))
        clusters.withUnsafeMutableBufferPointer { out in
            shaped.analysis.graphemeStarts.withUnsafeBufferPointer { starts in
                shaped.analysis.scripts.withUnsafeBufferPointer { scripts in
                    shaped.analysis.levels.withUnsafeBufferPointer { levels in
                        shaped.analysis.canBreakBefore.withUnsafeBufferPointer { canBreak in
                            shaped.analysis.isWhiteSpace.withUnsafeBufferPointer { white in
                                shaped.widths.withUnsafeBufferPointer { widths in
                                    shaped.fontOf.withUnsafeBufferPointer { fontOf in
                                        var previous = LineBreaker.Cluster(width: 0, start: 0, font: -1, flags: [], level: 0, script: -1)
                                        for c in 0..<count {
                                            var flags: LineBreaker.Flags = []
                                            if canBreak[c] { flags.insert(.breakBefore) }
                                            if white[c] { flags.insert(.whiteSpace) }
                                            if !hyphens.isEmpty && hyphens[c] { flags.insert(.hyphenBefore) }
                                            if hasTabs && text[Int(starts[c])] == 0x09 { flags.insert(.tab) }
                                            if !boxes.isEmpty && boxes[c] { flags.insert(.hexBox) }
                                            if !safe.isEmpty && safe[c] { flags.insert(.safeBreakBefore) }
                                            if c == 0 || fontOf[c] != previous.font || scripts[c] != previous.script
                                                || flags.contains(.hexBox) != previous.flags.contains(.hexBox)
                                            {
                                                flags.insert(.runStart)
                                            }
                                            previous = LineBreaker.Cluster(
                                                width: widths[c], start: starts[c], font: fontOf[c], flags: flags, level: levels[c],
                                                script: scripts[c])
                                            out[c] = previous
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
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
    /// hashes the paragraph, not the whole text once per paragraph (shared/STYLE.md rule 16).
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
