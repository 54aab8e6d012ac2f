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
/// the first wrapped measurement adds them (``TextAnalyzer/addWrapping``).
///
/// A class, immutable: a hit hands out one reference, not the paragraph's nine arrays.
final class CachedParagraph: Sendable {
    /// Clusters, widths and fonts. Its analysis keeps no bidi levels and no scripts
    /// (empty arrays): only itemization reads them, and that is done.
    let shaped: ShapedParagraph
    /// Whether `shaped.analysis` holds line-break opportunities, and hyphen positions.
    let lineBreaks: Bool
    let hyphenation: Bool

    init(_ shaped: ShapedParagraph, lineBreaks: Bool, hyphenation: Bool) {
        self.shaped = shaped
        self.lineBreaks = lineBreaks
        self.hyphenation = hyphenation
    }

    /// A copy of `shaped` in arrays of its own, exactly as long as the paragraph: the shaper
    /// filled the measurement's scratch arrays, which go back to be reused.
    convenience init(copying shaped: ShapedParagraph, lineBreaks: Bool, hyphenation: Bool) {
        let analysis = shaped.analysis
        self.init(
            ShapedParagraph(
                analysis: ParagraphAnalysis(
                    graphemeStarts: Self.copy(analysis.graphemeStarts), canBreakBefore: Self.copy(analysis.canBreakBefore),
                    isWhiteSpace: Self.copy(analysis.isWhiteSpace), levels: [], scripts: [], baseLevel: analysis.baseLevel,
                    hyphenBefore: analysis.hyphenBefore),
                widths: Self.copy(shaped.widths), fontTable: shaped.fontTable, fontOf: Self.copy(shaped.fontOf)),
            lineBreaks: lineBreaks, hyphenation: hyphenation)
    }

    /// Approximate memory held, for the byte-bounded cache: per cluster a start, a width and
    /// a font index (4 + 8 + 4 bytes) and three flags; the arrays' and the entry's headers.
    var byteCount: Int { 160 + shaped.analysis.clusterCount * 19 + shaped.fontTable.count * 8 }

    /// Not `Array(array)`, which would share the scratch array's storage and its capacity.
    @inline(__always)
    private static func copy<T: BitwiseCopyable>(_ array: [T]) -> [T] {
        array.withUnsafeBufferPointer { source in
            [T](unsafeUninitializedCapacity: source.count) { target, count in
                _ = target.initialize(fromContentsOf: source)
                count = source.count
            }
        }
    }

    /// The paragraph cache's key: the text by its UTF-8 bytes (as ``MeasureRequest`` compares
    /// it), the paragraph by its UTF-16 offset in it — the request's own string, so a lookup
    /// allocates nothing.
    struct Key: Hashable, Sendable {
        /// ``ResolvedStyle/id``: the font, size and features the paragraph is shaped with.
        var style: Int
        var letterSpacing: Double
        var text: String
        var start: Int32

        static func == (a: Key, b: Key) -> Bool {
            a.style == b.style && a.start == b.start && a.letterSpacing == b.letterSpacing
                && MeasureRequest.sameBytes(a.text, b.text)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(style)
            hasher.combine(letterSpacing)
            hasher.combine(start)
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        var byteCount: Int { 48 + text.utf8.count }
    }
}
