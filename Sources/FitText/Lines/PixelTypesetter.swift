import CHarfBuzz

/// One request set in pixels: paragraphs → shaped clusters → lines → metrics. "Typeset", not
/// "layout": in fitd a layout is FitLayout's adaptive layout of a document's nodes.
struct PixelTypesetter {
    let request: MeasureRequest
    let style: ResolvedStyle
    let resources: Resources
    /// The styled stretches of a markup request (its text is then the plain text).
    var markup: MarkupRuns? = nil
    /// Set when the glyphs are wanted too (``TextEngine/positionedGlyphs(_:)``): each line's
    /// glyphs go there. nil for measuring.
    var glyphSink: GlyphSink? = nil

    /// The engine's caches, analyzer and scratch arrays, in one object: a layout is made per
    /// measurement, and holding them one by one cost a reference count each.
    final class Resources: Sendable {
        let shapeCache: ByteBoundedCache<ShapeKey, ShapedRun>
        let paragraphCache: ByteBoundedCache<Prehashed<CachedParagraph.Key>, CachedParagraph>
        /// A line's last letter shaped alone with its hyphen, for a letter of one code point
        /// (HyphenReshaper).
        let clusterWidths: ByteBoundedCache<ClusterWidthKey, Double>
        let analyzer: TextAnalyzer
        let scratchPool = ScratchPool()
        /// Shaped runs from the file a previous daemon saved (a warm start).
        let persistedShapes = PersistedShapes()

        init(
            shapeCache: ByteBoundedCache<ShapeKey, ShapedRun>,
            paragraphCache: ByteBoundedCache<Prehashed<CachedParagraph.Key>, CachedParagraph>,
            clusterWidths: ByteBoundedCache<ClusterWidthKey, Double>, analyzer: TextAnalyzer
        ) {
            self.shapeCache = shapeCache
            self.paragraphCache = paragraphCache
            self.clusterWidths = clusterWidths
            self.analyzer = analyzer
        }
    }

    var shapeCache: ByteBoundedCache<ShapeKey, ShapedRun> { resources.shapeCache }
    var paragraphCache: ByteBoundedCache<Prehashed<CachedParagraph.Key>, CachedParagraph> { resources.paragraphCache }
    var analyzer: TextAnalyzer { resources.analyzer }
    var scratchPool: ScratchPool { resources.scratchPool }

    /// The fontset of the description in the context language (the base font, the ellipsis).
    var baseSet: FontSet { style.baseSet }

    func run() throws(FitTextError) -> TextMetrics {
        try scratchPool.withScratch { scratch throws(FitTextError) in try run(scratch: scratch) }
    }

    private func run(scratch: TypesetScratch) throws(FitTextError) -> TextMetrics {
        // The text's UTF-16 goes into the scratch's buffer (no allocation), and back after.
        var buffer = TypesetScratch.take(&scratch.units)
        PixelTypesetter.appendUTF16(request.text, to: &buffer)
        let units = buffer
        buffer = []
        defer { scratch.units = units }
        let primary = style.primary
        let ellipsizing = request.ellipsize != .none && request.maxWidth != nil
        let hyphenation = request.maxWidth != nil && request.wrap != .word
        let letterSpacing = LineBreaker.pangoUnits(request.letterSpacing)
        var shaper = ParagraphShaper(style: style, letterSpacing: letterSpacing, shapeCache: shapeCache)
        shaper.markup = markup
        shaper.persistedShapes = resources.persistedShapes
        let codePoints = request.includeLines ? CodePointIndex(units) : nil

        var result = TextMetrics(
            width: 0, height: 0, baseline: 0, lineCount: 0, ellipsized: false, truncated: false,
            unit: .px, lines: [], fontsUsed: [])
        var families: [String] = []
        // Markup's baseline shift entries (pango-layout.c ParaBreakState.baseline_shifts: one
        // stack for the whole layout, lines and paragraphs alike).
        var shiftStack: [MarkupRaise.Entry] = []

        var cancellation = FitTextCancellation()
        for paragraph in Paragraphs.ranges(units) {
            if !ellipsizing, let maxLines = request.maxLines, result.lineCount >= maxLines {
                result.truncated = true
                break
            }
            try cancellation.paragraph(units: paragraph.count)
            shaper.unitOffset = paragraph.lowerBound
            try units.withUnsafeBufferPointer { (all: UnsafeBufferPointer<UInt16>) throws(FitTextError) in
                let text = UnsafeBufferPointer(rebasing: all[paragraph])
                let breaker = try shapedParagraph(
                    text, wholeText: paragraph.count == all.count, hyphenation: hyphenation, shaper: shaper, primary: primary, scratch: scratch)
                try FitTextCancellation.stage(ofParagraph: paragraph.count)
                // Pango's set_height(-N): N lines per paragraph, the last taking the rest and
                // ellipsized; without ellipsizing, the first N lines of the layout are shown.
                let limit = ellipsizing ? (request.maxLines ?? 1) : Int.max
                // A break inside a word shapes the line's last run again (HyphenReshaper).
                let reshaper = HyphenReshaper(
                    text: text, breaker: breaker, style: style, letterSpacing: letterSpacing, shapeCache: shapeCache,
                    clusterWidths: resources.clusterWidths,
                    markupSpaced: markup?.letterSpacings.contains(where: { $0 != 0 }) ?? false)
                // Complex scripts are shaped again at any break inside a run, the others only at a
                // hyphen (char and word-char wrapping).
                let reshape: LineBreaker.Reshape? =
                    request.maxWidth != nil && (hyphenation || breaker.hasComplexScripts)
                    ? { reshaper.width(start: $0, end: $1, hyphen: $2) } : nil
                var lines = breaker.lines(maxWidth: request.maxWidth, wrap: request.wrap, limit: limit, reshape: reshape)
                try FitTextCancellation.stage(ofParagraph: paragraph.count)
                if !ellipsizing, let maxLines = request.maxLines, result.lineCount + lines.count > maxLines {
                    lines.removeLast(result.lineCount + lines.count - maxLines)
                    result.truncated = true
                }
                for (k, line) in lines.enumerated() {
                    try FitTextCancellation.line(k)
                    var laid = try layLine(
                        line, breaker: breaker, text: text, primary: primary, reshape: reshape,
                        ellipsize: ellipsizing && k == limit - 1, paragraph: paragraph.lowerBound,
                        letterSpacing: lineLetterSpacing(head: line.range, breaker: breaker, paragraph: paragraph.lowerBound) ?? letterSpacing,
                        families: &families, shiftStack: &shiftStack)
                    stackLine(&laid, on: &result, range: line.range, breaker: breaker, paragraph: paragraph.lowerBound, codePoints: codePoints)
                }
            }
        }
        result.fontsUsed = families.isEmpty ? primary.familyList : families
        return result
    }

    /// Stacks a laid line under the ones before it: its baseline, the layout's height, width
    /// and line count, and its place in the text (code points) when lines were asked for.
    /// `range`: its clusters in the paragraph starting at UTF-16 offset `paragraph`.
    @inline(__always)
    private func stackLine(
        _ laid: inout LineMetrics, on result: inout TextMetrics, range: Range<Int>, breaker: LineBreaker, paragraph: Int,
        codePoints: CodePointIndex?
    ) {
        laid.baseline = result.height + laid.ascent
        if let glyphSink, !glyphSink.lines.isEmpty { glyphSink.lines[glyphSink.lines.count - 1].baseline = laid.baseline }
        if result.lineCount == 0 { result.baseline = laid.ascent }
        result.lastBaseline = laid.baseline
        result.height += laid.ascent + laid.descent
        result.width = max(result.width, laid.width)
        result.lineCount += 1
        if laid.ellipsized { result.ellipsized = true; result.truncated = true }
        if let codePoints {
            let first = paragraph + breaker.start(of: range.lowerBound)
            let last = paragraph + breaker.start(of: range.upperBound)
            laid.start = codePoints.codePoints(at: first)
            laid.length = codePoints.codePoints(at: last) - laid.start
            result.lines.append(laid)
        }
    }

    /// A paragraph of the request's text (`wholeText`: all of it), analysed, shaped and
    /// ready to break: from the paragraph cache, or made (in the scratch's arrays, which go
    /// back for the next paragraph) and stored.
    private func shapedParagraph(
        _ text: UnsafeBufferPointer<UInt16>, wholeText: Bool, hyphenation: Bool, shaper: ParagraphShaper, primary: Font,
        scratch: TypesetScratch
    ) throws(FitTextError) -> LineBreaker {
        let lineBreaks = request.maxWidth != nil
        // Keyed by the paragraph's own text, not the request's (work stays linear in the paragraph): a
        // key of the whole text and the paragraph's offset would hash the whole text once per
        // paragraph, n² for n lines (22 s for 256 KiB of newlines), and two texts
        // sharing a paragraph could not share its entry. A text of one paragraph (most) is
        // its own key, without a copy. Hashed once for the lookup and, on a miss, the insert.
        if markup != nil {
            // Shaped with its styles, which the paragraph cache's key does not name: made
            // afresh (the result cache still keeps the answer).
            let analysis = try analyzer.analyze(text, lineBreaks: lineBreaks, hyphenation: hyphenation, scratch: scratch)
            let shaped = try shaper.shape(text, analysis: analysis, primary: primary, scratch: scratch)
            let entry = CachedParagraph(shaped, text: text, primary: primary, lineBreaks: lineBreaks, hyphenation: hyphenation)
            scratch.reclaim(consume shaped)
            return entry.breaker
        }
        let own = wholeText ? request.text : String(decoding: text, as: UTF16.self)
        let key = Prehashed(CachedParagraph.Key(style: style.id, letterSpacing: request.letterSpacing, text: own))
        if let entry = paragraphCache.value(for: key) {
            let addLineBreaks = lineBreaks && !entry.lineBreaks
            let addHyphens = hyphenation && !entry.hyphenation
            guard addLineBreaks || addHyphens else { return entry.breaker }
            let starts = (0...entry.breaker.count).map { Int32(entry.breaker.start(of: $0)) }
            let added = try analyzer.wrapping(text, graphemeStarts: starts, lineBreaks: addLineBreaks, hyphenation: addHyphens)
            let wrappable = CachedParagraph(entry, canBreakBefore: added.canBreakBefore, hyphenBefore: added.hyphenBefore)
            paragraphCache.insert(wrappable, for: key, bytes: key.key.byteCount + wrappable.byteCount)
            return wrappable.breaker
        }
        let analysis = try analyzer.analyze(text, lineBreaks: lineBreaks, hyphenation: hyphenation, scratch: scratch)
        let shaped = try shaper.shape(text, analysis: analysis, primary: primary, scratch: scratch)
        let entry = CachedParagraph(shaped, text: text, primary: primary, lineBreaks: lineBreaks, hyphenation: hyphenation)
        scratch.reclaim(consume shaped)
        paragraphCache.insert(entry, for: key, bytes: key.key.byteCount + entry.byteCount)
        return entry.breaker
    }

    /// The letter spacing a line loses at its ends with markup (pango-layout.c
    /// adjust_line_letter_spacing, after the line is put in visual order): the visually first
    /// run's space_left and the visually last run's space_right, each of its own spacing.
    /// nil without markup. `ellipsis`: the ellipsis run (ellipsize.c: the attributes at the
    /// gap, the lowest level of the elided text) between `head` and `tail`.
    func lineLetterSpacing(
        head: Range<Int>, tail: Range<Int> = 0..<0, ellipsis: Int? = nil, breaker: LineBreaker, paragraph: Int
    ) -> Double? {
        guard let markup else { return nil }
        func spacing(_ c: Int) -> Int {
            Int((markup.letterSpacings[Int(markup.styleOf[paragraph + breaker.start(of: c)])] * Font.unitsPerPixel).rounded())
        }
        // The line's runs in logical order, reduced to the clusters at its ends and where the
        // level changes: the ends of the visual order are among them.
        var entries: [(spacing: Int, level: UInt8)] = []
        func add(_ range: Range<Int>) {
            for c in range where c == range.lowerBound || c == range.upperBound - 1 || breaker.clusters[c].level != breaker.clusters[c - 1].level {
                entries.append((spacing(c), breaker.clusters[c].level))
            }
        }
        add(head)
        if let gap = ellipsis {
            var level = UInt8.max
            for c in head.upperBound..<max(tail.lowerBound, head.upperBound) { level = min(level, breaker.clusters[c].level) }
            entries.append((gap < breaker.count ? spacing(gap) : 0, level == .max ? 0 : level))
        }
        add(tail)
        guard !entries.isEmpty else { return 0 }
        let (first, last) = PixelTypesetter.visualEnds(entries.map(\.level))
        let trimmed = PixelTypesetter.spaceLeft(entries[first].spacing) + (entries[last].spacing - PixelTypesetter.spaceLeft(entries[last].spacing))
        return Double(trimmed) / Font.unitsPerPixel
    }

    /// distribute_letter_spacing: left = spacing / 2, to whole pixels when the spacing is
    /// whole pixels (PANGO_UNITS_ROUND); right = the rest. Pango units.
    static func spaceLeft(_ spacing: Int) -> Int {
        let half = spacing / 2
        return spacing & 1023 == 0 ? (half + 512) & ~1023 : half
    }

    /// The logical indices that come visually first and last (UAX #9 L2, as
    /// pango_layout_line_reorder): every run at or above each level from the highest down to
    /// the lowest odd one is reversed.
    static func visualEnds(_ levels: [UInt8]) -> (Int, Int) {
        guard let highest = levels.max(), let lowest = levels.min(), levels.contains(where: { $0 & 1 == 1 }) else {
            return (0, levels.count - 1)
        }
        var order = Array(levels.indices)
        var level = highest
        // At most 126 levels (UAX #9), each one pass over the entries.
        while level >= max(lowest | 1, 1) {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count && levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return (order[0], order[order.count - 1])
    }

    /// Width, ascent and descent of one line; the line's text when lines were asked for.
    /// Pango's steps in order: ellipsizing (ellipsize.c), the letter spacing lost at the line's
    /// ends (adjust_line_letter_spacing), the runs' extents on their aligned baselines and
    /// markup's raises (apply_baseline_shift), then the text and glyphs of what is shown.
    private func layLine(
        _ line: LineBreaker.Line, breaker: LineBreaker, text: UnsafeBufferPointer<UInt16>,
        primary: Font, reshape: LineBreaker.Reshape?, ellipsize: Bool, paragraph: Int = 0, letterSpacing: Double,
        families: inout [String], shiftStack: inout [MarkupRaise.Entry]
    ) throws(FitTextError) -> LineMetrics {
        // The clusters shown: the line, or what ellipsizing keeps before and after the ellipsis.
        var head = line.range
        var tail = line.range.upperBound..<line.range.upperBound
        var width = breaker.width(of: line, reshape: reshape)
        let cut = ellipsize ? try placeEllipsis(on: line, breaker: breaker, text: text, paragraph: paragraph) : nil
        if let cut {
            head = cut.head
            tail = cut.tail
            width = cut.width
        }
        width = lineWidthLessSpacing(
            width, line: line, head: head, tail: tail, ellipsized: cut != nil, breaker: breaker,
            letterSpacing: letterSpacing, paragraph: paragraph)

        var extents = runExtents(line: line.range, head: head, tail: tail, breaker: breaker, families: &families)
        // Each cluster's markup raise on this line (from line.range.lowerBound), for the glyphs.
        var clusterRaises: [Double]? = nil
        if let markup, markup.raises.contains(where: { !$0.isZero }) {
            let itemRaise = markupItemRaises(line: line.range, markup: markup, breaker: breaker, paragraph: paragraph, shiftStack: &shiftStack)
            let raised = raisedExtents(
                itemRaise, line: line.range, head: head, tail: tail, breaker: breaker, alignment: extents.alignment)
            // With raised runs (markup), the unraised extents of the clusters' fonts do not count.
            if extents.counted { (extents.ascent, extents.descent) = raised }
            if glyphSink != nil { clusterRaises = itemRaise }
        }
        if let cut {
            extents.include(cut.font, families: &families)
            extents.ascent = max(extents.ascent, cut.font.ascent)
            extents.descent = max(extents.descent, cut.font.descent)
        }
        if !extents.counted { (extents.ascent, extents.descent) = (primary.ascent, primary.descent) }

        let metrics = LineMetrics(
            width: width, ascent: extents.ascent, descent: extents.descent, baseline: 0, start: 0, length: 0,
            text: request.includeLines ? shownText(of: line, head: head, cut: cut, breaker: breaker, text: text) : "",
            ellipsized: cut != nil)
        if let glyphSink {
            glyphSink.lines.append(
                glyphLine(
                    line: line, head: head, tail: tail, ellipsis: cut.map { ($0.text, $0.font) }, breaker: breaker,
                    text: text, metrics: metrics, paragraph: paragraph, markupRaises: clusterRaises))
        }
        return metrics
    }

    /// The text a line shows. An ellipsized line shows the text around the glyph clusters the
    /// ellipsis replaces, which may begin or end inside a grapheme cluster.
    private func shownText(
        of line: LineBreaker.Line, head: Range<Int>, cut: EllipsisCut?, breaker: LineBreaker, text: UnsafeBufferPointer<UInt16>
    ) -> String {
        func piece(_ from: Int, _ to: Int) -> String {
            from < to ? String(decoding: UnsafeBufferPointer(rebasing: text[from..<to]), as: UTF16.self) : ""
        }
        guard let cut else { return piece(breaker.start(of: head.lowerBound), breaker.start(of: head.upperBound)) }
        return piece(breaker.start(of: line.range.lowerBound), cut.from) + cut.text
            + piece(cut.to, breaker.start(of: line.range.upperBound))
    }

    static func advance(of scalar: UInt32, in font: Font) -> Double {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font.hbFont, scalar, &glyph) != 0 else { return 0 }
        return Font.glyphWidth(Double(hb_font_get_glyph_h_advance(font.hbFont, glyph)), rounded: font.rendering.roundsPositions)
    }

    /// The text as UTF-16 code units, transcoded straight from the string's UTF-8 (faster
    /// than going through `String.UTF16View`, which works out each index).
    static func utf16(_ text: String) -> [UInt16] {
        var units: [UInt16] = []
        appendUTF16(text, to: &units)
        return units
    }

    static func appendUTF16(_ text: String, to array: inout [UInt16]) {
        var text = text
        text.withUTF8 { bytes in
            let start = array.count
            array.append(contentsOf: repeatElement(0, count: bytes.count))
            var written = 0
            array.withUnsafeMutableBufferPointer { all in
                let units = UnsafeMutableBufferPointer(rebasing: all[start...])
                var i = 0
                var n = 0
                while i < bytes.count {
                    let b0 = UInt32(bytes[i])
                    if b0 < 0x80 {
                        units[n] = UInt16(b0); n += 1; i += 1
                    } else if b0 < 0xE0 {
                        units[n] = UInt16((b0 & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)); n += 1; i += 2
                    } else if b0 < 0xF0 {
                        units[n] = UInt16((b0 & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F))
                        n += 1; i += 3
                    } else {
                        let scalar = (b0 & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                            | UInt32(bytes[i + 3] & 0x3F)
                        units[n] = UInt16(0xD800 + ((scalar - 0x10000) >> 10))
                        units[n + 1] = UInt16(0xDC00 + ((scalar - 0x10000) & 0x3FF))
                        n += 2; i += 4
                    }
                }
                written = n
            }
            array.removeLast(bytes.count - written)
        }
    }

    /// The hyphen a break inside a word adds: U+2010, or "-" when the font lacks it
    /// (Pango's shape.c and find_hyphen_width).
    static func hyphenAdvance(_ hbFont: OpaquePointer) -> Double {
        var glyph: hb_codepoint_t = 0
        if hb_font_get_nominal_glyph(hbFont, 0x2010, &glyph) != 0 || hb_font_get_nominal_glyph(hbFont, 0x2D, &glyph) != 0 {
            return Double(hb_font_get_glyph_h_advance(hbFont, glyph)) / Font.unitsPerPixel
        }
        return 0
    }
}
