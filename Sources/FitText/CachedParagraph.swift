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
/// A class, immutable, holding its line breaker ready: a measurement uses the paragraph
/// through one reference instead of copying its arrays into a breaker of its own (each copy
/// an atomic retain and release per array; retains and releases were a quarter of a cold
/// layout's time).
final class CachedParagraph: Sendable {
    /// Clusters, widths and fonts. Its analysis keeps no bidi levels and no scripts
    /// (empty arrays): only itemization reads them, and that is done.
    let shaped: ShapedParagraph
    /// Whether `shaped.analysis` holds line-break opportunities, and hyphen positions.
    let lineBreaks: Bool
    let hyphenation: Bool
    /// The breaker over `shaped`'s widths and analysis, tabs and hyphens included. Its hyphen
    /// widths are the fonts' even when the paragraph was made without a width: they are
    /// read only where a break inside a word draws a hyphen, which needs a width.
    let breaker: LineBreaker

    init(_ shaped: ShapedParagraph, text: UnsafeBufferPointer<UInt16>, primary: Font, lineBreaks: Bool, hyphenation: Bool) {
        self.shaped = shaped
        self.lineBreaks = lineBreaks
        self.hyphenation = hyphenation
        let analysis = shaped.analysis
        var isTab: [Bool] = []
        var tabStops = TabStops(spaceWidth: 1)
        if text.contains(0x09) {
            isTab = (0..<analysis.clusterCount).map { text[Int(analysis.graphemeStarts[$0])] == 0x09 }
            tabStops = TabStops(spaceWidth: ParagraphShaper.spaceWidth(of: primary))
        }
        breaker = LineBreaker(
            widths: shaped.widths, canBreakBefore: analysis.canBreakBefore, isWhiteSpace: analysis.isWhiteSpace,
            hyphenBefore: analysis.hyphenBefore, hyphens: .init(fontOf: shaped.fontOf, fonts: shaped.fontTable),
            isTab: isTab, tabStops: tabStops)
    }

    /// A copy of `shaped` in arrays of its own, exactly as long as the paragraph: the shaper
    /// filled the measurement's scratch arrays, which go back to be reused.
    convenience init(
        copying shaped: ShapedParagraph, text: UnsafeBufferPointer<UInt16>, primary: Font, lineBreaks: Bool, hyphenation: Bool
    ) {
        let analysis = shaped.analysis
        self.init(
            ShapedParagraph(
                analysis: ParagraphAnalysis(
                    graphemeStarts: Self.copy(analysis.graphemeStarts), canBreakBefore: Self.copy(analysis.canBreakBefore),
                    isWhiteSpace: Self.copy(analysis.isWhiteSpace), levels: [], scripts: [], baseLevel: analysis.baseLevel,
                    hyphenBefore: analysis.hyphenBefore),
                widths: Self.copy(shaped.widths), fontTable: shaped.fontTable, fontOf: Self.copy(shaped.fontOf)),
            text: text, primary: primary, lineBreaks: lineBreaks, hyphenation: hyphenation)
    }

    /// Approximate memory held, for the byte-bounded cache: per cluster a start, a width and
    /// a font index (4 + 8 + 4 bytes) and three flags; the arrays' and the entry's headers.
    var byteCount: Int { 160 + shaped.analysis.clusterCount * 19 + shaped.fontTable.count * 8 }

    /// Not `Array(array)`, which would share the scratch array's storage and its capacity.
    /// From a buffer pointer, which allocates through specialized code: the
    /// `unsafeUninitializedCapacity` initializer looked the array's metadata up at run time,
    /// 700 instructions an array.
    @inline(__always)
    private static func copy<T>(_ array: [T]) -> [T] {
        array.withUnsafeBufferPointer { Array($0) }
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
