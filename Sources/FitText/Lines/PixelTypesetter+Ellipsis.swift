/// Ellipsizing a line as Pango does (ellipsize.c): where the cut falls, the ellipsis itself
/// and the line's width with it.
extension PixelTypesetter {
    /// Where ellipsizing cuts a line: the clusters kept before and after the ellipsis, the
    /// ellipsis, and the line's width with it.
    struct EllipsisCut {
        var head: Range<Int>
        var tail: Range<Int>
        /// The text the ellipsis replaces (UTF-16 offsets in the paragraph).
        var from: Int
        var to: Int
        var text: String
        var font: Font
        var width: Double
    }

    /// The ellipsis of a line wider than the request's maxWidth (ellipsize.c
    /// _pango_layout_line_ellipsize), or nil when the line fits.
    func placeEllipsis(
        on line: LineBreaker.Line, breaker: LineBreaker, text: UnsafeBufferPointer<UInt16>, paragraph: Int
    ) throws(FitTextError) -> EllipsisCut? {
        guard let maxWidth = request.maxWidth, !line.range.isEmpty else { return nil }
        let goal = Ellipsizer.units(maxWidth)
        var total: Int64 = 0
        for c in line.range { total += Ellipsizer.units(breaker.clusters[c].width) }
        guard total > goal else { return nil }
        // ellipsize.c removes glyph clusters, not grapheme clusters (EllipsisClusters).
        let units = EllipsisClusters(line: line.range, breaker: breaker, text: text) { c in
            guard let markup else { return (0, style) }
            let index = markup.styleOf[paragraph + breaker.start(of: c)]
            return (index, markup.styles[Int(index)])
        }
        // The ellipsis is shaped again each time the gap's start moves
        // (update_ellipsis_shape): it depends on that character's style and wideness.
        // One per style and wideness, asked as the gap grows; the one at the gap's start is
        // the one drawn.
        var known: [Int32: (String, Font, Double)] = [:]
        func ellipsisKept(at offset: Int) throws(FitTextError) -> (String, Font, Double) {
            let wide = UnicodeProperties.isWide(TextAnalyzer.scalar(at: offset, in: text))
            let key = (markup.map { $0.styleOf[paragraph + offset] } ?? 0) * 2 + (wide ? 1 : 0)
            if let found = known[key] { return found }
            let made = try ellipsis(at: offset, text: text, paragraph: paragraph)
            known[key] = made
            return made
        }
        let gap = try Ellipsizer.gap(
            widths: units.widths, mode: request.ellipsize, goal: goal, startsSpan: units.startsSpan, endsSpan: units.endsSpan
        ) { (k: Int) throws(FitTextError) -> Int64 in
            Ellipsizer.units(try ellipsisKept(at: units.starts[k]).2)
        }
        guard let gap else { return nil }
        let from = units.starts[gap.first]
        let to = units.starts[gap.last + 1]
        let (character, font, _) = try ellipsisKept(at: from)
        // The grapheme clusters shown, whole or in part: a glyph cluster cut off a
        // grapheme cluster (a mark) leaves the rest of it, and its run, on the line.
        var headEnd = line.range.lowerBound
        while headEnd < line.range.upperBound && breaker.start(of: headEnd) < from { headEnd += 1 }
        var tailStart = headEnd > line.range.lowerBound ? headEnd - 1 : headEnd
        while tailStart < line.range.upperBound && breaker.start(of: tailStart + 1) <= to { tailStart += 1 }
        // The ellipsis is padded so the line is exactly the goal (fixup_ellipsis_run),
        // unless even the ellipsis alone is wider.
        return EllipsisCut(
            head: line.range.lowerBound..<headEnd, tail: max(tailStart, headEnd)..<line.range.upperBound, from: from, to: to,
            text: character, font: font, width: Double(max(goal, gap.kept + gap.ellipsis)) / Font.unitsPerPixel)
    }

    /// The line's width less the letter spacing it loses at its ends: the spacing after its
    /// last cluster, or with markup or an ellipsis, pango-layout.c adjust_line_letter_spacing's
    /// (``lineLetterSpacing(head:tail:ellipsis:breaker:paragraph:)``).
    @inline(__always)
    func lineWidthLessSpacing(
        _ width: Double, line: LineBreaker.Line, head: Range<Int>, tail: Range<Int>, ellipsized: Bool, breaker: LineBreaker,
        letterSpacing: Double, paragraph: Int
    ) -> Double {
        let clusterCount = head.count + tail.count + (ellipsized ? 1 : 0)
        let zeroedSpace = line.wrapped && (line.range.last.map { breaker.isWhiteSpace($0) } ?? false)
        if letterSpacing != 0 && clusterCount > 0 && !ellipsized && !(zeroedSpace && clusterCount == 1) {
            return width - letterSpacing
        }
        guard ellipsized else { return width }
        // The ellipsized line is the goal, then loses the spacing at its visual ends like
        // any line (adjust_line_letter_spacing runs after _pango_layout_line_ellipsize);
        // the ellipsis run has the spacing at the gap: 60 px with 1 px spacing is 59.
        return width
            - (lineLetterSpacing(head: head, tail: tail, ellipsis: head.upperBound, breaker: breaker, paragraph: paragraph)
                ?? LineBreaker.pangoUnits(request.letterSpacing))
    }

    /// The ellipsis for a gap starting at UTF-16 offset `offset` of the paragraph: its text,
    /// font and advance. Pango (ellipsize.c shape_ellipsis) itemizes it with font fallback
    /// OFF, so it is drawn in the base font (the description's first font) whatever the text
    /// around the gap; only when that font lacks the character does it use "...", with
    /// fallback on. Its font counts in the line's height: `🔋 שינויים 🎉 👋` in Noto Sans 11 is
    /// 19.98 px high ellipsized, Noto Sans's height, though no Noto Sans glyph is left.
    func ellipsis(
        at offset: Int, text: UnsafeBufferPointer<UInt16>, paragraph: Int = 0
    ) throws(FitTextError) -> (String, Font, Double) {
        // With markup, the ellipsis takes the attributes at the gap (ellipsize.c: the
        // attributes of the first run it replaces), sizes and sub/sup's scale included.
        var baseSet = self.baseSet
        if let markup, offset < text.count {
            let index = Int(markup.styleOf[paragraph + offset])
            baseSet = ((index < markup.ellipsisStyles.count ? markup.ellipsisStyles[index] : nil) ?? markup.styles[index]).baseSet
        }
        // U+22EF when the first character replaced is wide (g_unichar_iswide), else U+2026.
        var scalar: UInt32 = 0x2026
        if offset < text.count, UnicodeProperties.isWide(TextAnalyzer.scalar(at: offset, in: text)) { scalar = 0x22EF }
        let base = try baseSet.font(at: 0)
        if base.face.covers(scalar), let character = Unicode.Scalar(scalar) {
            return (String(Character(character)), base, PixelTypesetter.advance(of: scalar, in: base))
        }
        let font = try baseSet.font(at: baseSet.faceIndex(covering: UInt32(0x2E)))
        return ("...", font, 3 * PixelTypesetter.advance(of: 0x2E, in: font))
    }
}
