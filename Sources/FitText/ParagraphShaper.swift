import CHarfBuzz

/// A paragraph reduced to what line breaking and metrics need: per grapheme cluster, its
/// advance (px, letter spacing included) and the font that drew it.
struct ShapedParagraph {
    var analysis: ParagraphAnalysis
    var widths: [Double]
    /// The font of each cluster; line height comes from the tallest font used on the line.
    var fonts: [Font]
}

/// Itemizes a paragraph into runs of one font, one script and one direction, and shapes each
/// run with HarfBuzz (through the shaped-run cache).
struct ParagraphShaper {
    /// The sorted set for the request's description in the language derived from a script.
    let fontSetForScript: (Int32) throws(FitTextError) -> FontSet
    /// The set for the same description with the family "emoji", which Pango 1.50 uses for
    /// emoji presentation runs (itemize.c; PANGO_RULES.md §3).
    let emojiFontSet: () throws(FitTextError) -> FontSet
    let features: [hb_feature_t]
    let featureKey: [String]
    let letterSpacing: Double
    /// Width of the hex box Pango draws for a missing glyph in a font (wide: six digits).
    let hexBoxWidth: (Font, Bool) throws(FitTextError) -> Double
    /// The context language; each run shapes with the language derived from its script.
    let language: LanguageContext
    let shapeCache: ByteBoundedCache<ShapeKey, ShapedRun>

    func shape(_ text: UnsafeBufferPointer<UInt16>, analysis: ParagraphAnalysis, primary: Font) throws(FitTextError) -> ShapedParagraph {
        let clusters = analysis.clusterCount
        guard clusters > 0 else { return ShapedParagraph(analysis: analysis, widths: [], fonts: []) }

        // 1. A font per cluster: the first of the sorted set that covers it. White space and
        // invisible clusters keep the font of the text around them, as in Pango, which never
        // switches fonts "just to render a space" (itemize.c).
        var fonts = [Font?](repeating: nil, count: clusters)
        var scalars: [UInt32] = []
        var isEmoji = [Bool](repeating: false, count: clusters)
        var emojiSet: FontSet? = nil
        var setScript: Int32 = -1
        var lastFont: (set: FontSet, index: Int, font: Font)? = nil
        var fontSet: FontSet? = nil
        for c in 0..<clusters {
            scalars.removeAll(keepingCapacity: true)
            var u = Int(analysis.graphemeStarts[c])
            let end = Int(analysis.graphemeStarts[c + 1])
            while u < end {
                let scalar = TextAnalyzer.scalar(at: u, in: text)
                scalars.append(scalar)
                u += scalar > 0xFFFF ? 2 : 1
            }
            let first = scalars[0]
            if analysis.isWhiteSpace[c] || UnicodeProperties.isControl(first) || FontSet.isDefaultIgnorable(first) {
                continue
            }
            if UnicodeProperties.isEmojiPresentation(scalars) {
                if emojiSet == nil { emojiSet = try emojiFontSet() }
                if let set = emojiSet {
                    fonts[c] = try set.font(at: set.faceIndex(covering: scalars))
                    isEmoji[c] = true
                    continue
                }
            }
            if fontSet == nil || setScript != analysis.scripts[c] {
                fontSet = try fontSetForScript(analysis.scripts[c])
                setScript = analysis.scripts[c]
            }
            if let set = fontSet {
                // Consecutive clusters mostly come from the same face: look it up once.
                let index = set.faceIndex(covering: scalars)
                if let last = lastFont, last.set === set, last.index == index {
                    fonts[c] = last.font
                } else {
                    let font = try set.font(at: index)
                    lastFont = (set, index, font)
                    fonts[c] = font
                }
            }
        }
        // Clusters without a font of their own (white space, invisibles) take the font of the
        // cluster before them in the same itemization run — one bidi level, one script, emoji
        // or not — or, at the start of a run, the next one's; a run with no font at all takes
        // its fontset's font for U+0020 (itemize.c, itemize_state_add_character/fill_font).
        var resolved = [Font](repeating: primary, count: clusters)
        var segmentStart = 0
        while segmentStart < clusters {
            var segmentEnd = segmentStart + 1
            while segmentEnd < clusters && analysis.levels[segmentEnd] == analysis.levels[segmentStart]
                && analysis.scripts[segmentEnd] == analysis.scripts[segmentStart]
                && isEmoji[segmentEnd] == isEmoji[segmentStart]
            {
                segmentEnd += 1
            }
            var current: Font? = nil
            var pending: [Int] = []
            for c in segmentStart..<segmentEnd {
                if let font = fonts[c] {
                    for p in pending { resolved[p] = font }
                    pending.removeAll()
                    current = font
                    resolved[c] = font
                } else if let current {
                    resolved[c] = current
                } else {
                    pending.append(c)
                }
            }
            if !pending.isEmpty {
                let set = try isEmoji[segmentStart] ? emojiFontSet() : fontSetForScript(analysis.scripts[segmentStart])
                let font = try set.font(at: set.faceIndex(covering: [0x20]))
                for p in pending { resolved[p] = font }
            }
            segmentStart = segmentEnd
        }

        // 2. Runs of one font, script and direction; shape each.
        var widths = [Double](repeating: 0, count: clusters)
        var runStart = 0
        while runStart < clusters {
            var runEnd = runStart + 1
            while runEnd < clusters && resolved[runEnd] === resolved[runStart]
                && analysis.scripts[runEnd] == analysis.scripts[runStart]
                && analysis.levels[runEnd] == analysis.levels[runStart]
            {
                runEnd += 1
            }
            try shapeRun(text, analysis: analysis, clusters: runStart..<runEnd, font: resolved[runStart], into: &widths)
            runStart = runEnd
        }

        // 3. Letter spacing goes between clusters (Pango's pango_glyph_item_letter_space: half
        // before, half after each cluster, none at the ends of a line — the caller removes
        // one spacing per line). Control characters other than tabs have no glyph in any
        // font and became hex boxes above, as in Pango; tabs are sized per line by the
        // line breaker, and here from the paragraph start (what ellipsizing uses).
        for c in 0..<clusters { widths[c] += letterSpacing }
        expandTabs(text, analysis: analysis, primary: primary, widths: &widths)
        return ShapedParagraph(analysis: analysis, widths: widths, fonts: resolved)
    }

    private func shapeRun(
        _ text: UnsafeBufferPointer<UInt16>, analysis: ParagraphAnalysis, clusters: Range<Int>,
        font: Font, into widths: inout [Double]
    ) throws(FitTextError) {
        let u0 = Int(analysis.graphemeStarts[clusters.lowerBound])
        let u1 = Int(analysis.graphemeStarts[clusters.upperBound])
        let key = ShapeKey(
            fontID: font.id, text: Array(text[u0..<u1]), rightToLeft: analysis.levels[clusters.lowerBound] & 1 == 1,
            script: analysis.scripts[clusters.lowerBound],
            language: language.derivedLanguage(script: analysis.scripts[clusters.lowerBound]),
            features: featureKey)
        let run: ShapedRun
        if let cached = shapeCache.value(for: key) {
            run = cached
        } else {
            run = Shaper.shape(key, font: font, features: features)
            shapeCache.insert(run, for: key, bytes: key.byteCount + run.byteCount)
        }
        // Give each HarfBuzz cluster's advance to the grapheme clusters that start inside it,
        // shared equally when a ligature spans several (as Pango's
        // pango_glyph_item_get_logical_widths does).
        var advances = run.clusterAdvances
        for entry in run.missing {
            // Pango replaces each .notdef glyph with a box showing the code point in hex.
            let narrow = entry.narrowBoxes > 0 ? try hexBoxWidth(font, false) : 0
            let wide = entry.wideBoxes > 0 ? try hexBoxWidth(font, true) : 0
            advances[entry.cluster] += Double(entry.narrowBoxes) * narrow + Double(entry.wideBoxes) * wide - entry.notdefAdvance
        }
        var g = clusters.lowerBound
        for k in 0..<run.clusterStarts.count {
            let start = u0 + Int(run.clusterStarts[k])
            let end = k + 1 < run.clusterStarts.count ? u0 + Int(run.clusterStarts[k + 1]) : u1
            while g < clusters.upperBound && Int(analysis.graphemeStarts[g]) < start { g += 1 }
            var members = 0
            var h = g
            while h < clusters.upperBound && Int(analysis.graphemeStarts[h]) < end { members += 1; h += 1 }
            if members == 0 {
                // A cluster starting inside a grapheme (cannot happen with monotone graphemes):
                // add to the grapheme it sits in.
                if g > clusters.lowerBound { widths[g - 1] += advances[k] }
                continue
            }
            let share = advances[k] / Double(members)
            for m in g..<h { widths[m] += share }
            g = h
        }
    }

    /// Tabs, sized as if the paragraph were one line (see ``LineBreaker/TabStops``).
    private func expandTabs(_ text: UnsafeBufferPointer<UInt16>, analysis: ParagraphAnalysis, primary: Font, widths: inout [Double]) {
        guard text.contains(0x09) else { return }
        let stops = TabStops(spaceWidth: ParagraphShaper.spaceWidth(of: primary))
        var x = 0.0
        for c in 0..<analysis.clusterCount {
            if text[Int(analysis.graphemeStarts[c])] == 0x09 { widths[c] = stops.advance(at: x) }
            x += widths[c]
        }
    }

    static func spaceWidth(of font: Font) -> Double {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font.hbFont, 0x20, &glyph) != 0 else { return font.pixelSize / 4 }
        return Double(hb_font_get_glyph_h_advance(font.hbFont, glyph)) / Font.unitsPerPixel
    }
}
