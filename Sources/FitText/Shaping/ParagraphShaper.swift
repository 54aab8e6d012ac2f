import CHarfBuzz

/// A paragraph reduced to what line breaking and metrics need: per grapheme cluster, its
/// advance (px, letter spacing included) and the font that drew it.
struct ShapedParagraph {
    var analysis: ParagraphAnalysis
    var widths: [Double]
    /// The fonts used, each once, and for each cluster the index of its font in that table
    /// (an index, not a reference: no reference counting per cluster). Line height comes
    /// from the tallest font used on the line.
    var fontTable: [Font]
    var fontOf: [Int32]
    /// For each cluster: no font has it, it is drawn as a hex box, whose logical rectangle is
    /// the box's, not the font's (``ResolvedStyle/hexBoxExtents``). Empty when there is none.
    var hexBox: [Bool] = []
    /// For each cluster: HarfBuzz shaped its run so that a line may end before it with no
    /// shaping again (``ShapedRun/Cluster/safeBefore``). Empty: not known anywhere.
    var safeBreak: [Bool] = []

    func font(of cluster: Int) -> Font { fontTable[Int(fontOf[cluster])] }
}

/// The code points of one grapheme cluster, read from the UTF-16 text in place (no array per
/// cluster).
struct ClusterScalars: Collection {
    let text: UnsafeBufferPointer<UInt16>
    let startIndex: Int
    let endIndex: Int

    subscript(position: Int) -> UInt32 { TextAnalyzer.scalar(at: position, in: text) }

    func index(after i: Int) -> Int { i + (self[i] > 0xFFFF ? 2 : 1) }
}

/// Itemizes a paragraph into runs of one font, one script and one direction, and shapes each
/// run with HarfBuzz (through the shaped-run cache).
struct ParagraphShaper {
    /// The request's description, size and features, with its fontsets per derived language.
    let style: ResolvedStyle
    let letterSpacing: Double
    let shapeCache: ByteBoundedCache<ShapeKey, ShapedRun>
    /// Markup's styled stretches (nil: the whole text in `style`), and where this paragraph
    /// starts in the text they index.
    var markup: MarkupRuns? = nil
    var unitOffset = 0
    /// Runs a previous daemon saved, asked when `shapeCache` misses (a warm start).
    var persistedShapes: PersistedShapes? = nil

    /// A run or word from the cache, else from the saved file.
    private func known(_ key: ShapeKey, font: Font) -> ShapedRun? {
        if let run = shapeCache.value(for: key) { return run }
        return persistedShapes?.run(key, font: font, features: style.features, cache: shapeCache)
    }

    /// The style of a cluster: its first code unit's stretch (Pango splits items at
    /// attribute changes, itemize.c itemize_state_update_for_new_run).
    private func styleIndex(_ analysis: ParagraphAnalysis, _ c: Int) -> Int32 {
        guard let markup else { return 0 }
        return markup.styleOf[unitOffset + Int(analysis.graphemeStarts[c])]
    }

    /// The cluster's item kind: its style, but styles differing only in font_features are
    /// one kind (they do not split Pango's items).
    private func itemKind(_ analysis: ParagraphAnalysis, _ c: Int) -> Int32 {
        guard let markup else { return 0 }
        return markup.itemOf[Int(markup.styleOf[unitOffset + Int(analysis.graphemeStarts[c])])]
    }

    /// An item starts at the cluster though its style is the one before (an itemizing tag
    /// opened or closed there: Pango's attribute iterator stops at every such boundary).
    private func startsItem(_ analysis: ParagraphAnalysis, _ c: Int) -> Bool {
        guard let markup, !markup.itemBreaks.isEmpty else { return false }
        return markup.itemBreaks[unitOffset + Int(analysis.graphemeStarts[c])]
    }

    private func style(_ index: Int32) -> ResolvedStyle {
        guard let markup else { return style }
        return markup.styles[Int(index)]
    }

    func shape(
        _ text: UnsafeBufferPointer<UInt16>, analysis: consuming ParagraphAnalysis, primary: Font, scratch: TypesetScratch? = nil
    ) throws(FitTextError) -> ShapedParagraph {
        let clusters = analysis.clusterCount
        guard clusters > 0 else { return ShapedParagraph(analysis: analysis, widths: [], fontTable: [primary], fontOf: []) }

        // 1. A font per cluster: the first of the sorted set that covers it. Spaces and
        // invisible clusters keep the font of the text around them, as in Pango, which never
        // switches fonts "just to render a space" (itemize.c). -1: no font of its own yet.
        var fontOf = scratch.map { TypesetScratch.take(&$0.fontOf, filledWith: -1, count: clusters) } ?? .init(repeating: -1, count: clusters)
        // Written through one buffer pointer: each subscripted write to the array checked its
        // uniqueness again (a call per write, 1.5 a cluster).
        var table = FontTable(primary: primary)
        try fontOf.withUnsafeMutableBufferPointer { (fontOf: inout UnsafeMutableBufferPointer<Int32>) throws(FitTextError) in
            let isEmoji = try assignFonts(text, analysis: analysis, primary: primary, fontOf: fontOf, table: &table)
            try placeSpaces(text, analysis: analysis, isEmoji: isEmoji, fontOf: fontOf, table: &table)
        }

        // 2. Runs of one font, script and direction; shape each.
        var widths = scratch.map { TypesetScratch.take(&$0.widths, filledWith: 0, count: clusters) } ?? .init(repeating: 0, count: clusters)
        // Clusters inside a HarfBuzz cluster that began before them (a conjunct's graphemes
        // in Pango's sense, TextAnalyzer.splitConjuncts): asked for only with letter spacing.
        let spaced = letterSpacing != 0 || markup?.letterSpacings.contains(where: { $0 != 0 }) == true
        var inner: [Bool] = spaced ? Array(repeatElement(false, count: clusters)) : []
        var boxes = Boxes()
        // Per cluster: a line may end before it without shaping the run again (HarfBuzz's
        // unsafe-to-break flags, ShapedRun.Cluster.safeBefore); false where not known.
        var safe = scratch.map { TypesetScratch.take(&$0.safe, filledWith: false, count: clusters) } ?? Array(repeatElement(false, count: clusters))
        var runStart = 0
        while runStart < clusters {
            var runEnd = runStart + 1
            while runEnd < clusters && fontOf[runEnd] == fontOf[runStart]
                && analysis.scripts[runEnd] == analysis.scripts[runStart]
                && analysis.levels[runEnd] == analysis.levels[runStart]
                && styleIndex(analysis, runEnd) == styleIndex(analysis, runStart)
                // A cluster cut at the stream-safe bound is a run of its own (StreamSafeClusters).
                && !analysis.continues(runEnd) && !analysis.continues(runEnd - 1)
            {
                runEnd += 1
            }
            try shapeRun(
                text, analysis: analysis, clusters: runStart..<runEnd, font: table.fonts[Int(fontOf[runStart])],
                style: style(styleIndex(analysis, runStart)), into: &widths, inner: &inner, boxes: &boxes, safe: &safe)
            runStart = runEnd
        }

        // 3. Letter spacing goes between clusters (Pango's pango_glyph_item_letter_space: half
        // before, half after each cluster, none at the ends of a line — the caller removes
        // one spacing per line). Control characters other than tabs have no glyph in any
        // font and became hex boxes above, as in Pango; tabs are sized per line by the
        // line breaker, and here from the paragraph start (what ellipsizing uses).
        // Pango spaces glyph clusters (pango_glyph_item_letter_space), and the logical widths
        // share a glyph cluster evenly: one spacing for a conjunct, shared by its graphemes.
        // With markup each stretch has its own spacing (its first cluster's).
        if spaced {
            var c = 0
            while c < clusters {
                var end = c + 1
                while end < clusters && inner[end] { end += 1 }
                let spacing = markup.map { $0.letterSpacings[Int(styleIndex(analysis, c))] } ?? letterSpacing
                let share = end - c == 1 ? spacing : spacing / Double(end - c)
                for m in c..<end { widths[m] += share }
                c = end
            }
        }
        expandTabs(text, analysis: analysis, primary: primary, widths: &widths)
        return ShapedParagraph(
            analysis: analysis, widths: widths, fontTable: table.fonts, fontOf: fontOf, hexBox: boxes.marks, safeBreak: safe)
    }

    /// Step 1 of ``shape``: each cluster's font, an index into `table`, or -1 for a cluster
    /// that keeps the font around it (spaces, invisibles: ``placeSpaces``). Answers which
    /// clusters are emoji (empty when none is).
    private func assignFonts(
        _ text: UnsafeBufferPointer<UInt16>, analysis: ParagraphAnalysis, primary: Font, fontOf: UnsafeMutableBufferPointer<Int32>,
        table: inout FontTable
    ) throws(FitTextError) -> [Bool] {
        let clusters = analysis.clusterCount
        // Read once: a class property read per cluster is a retain and a release.
        let baseSet = style.baseSet
        // Emoji presentation per cluster; empty while the paragraph has none.
        var isEmoji: [Bool] = []
        var emojiSet: FontSet? = nil
        var emojiStyle: Int32 = 0
        var setScript: Int32 = -1
        var setStyle: Int32 = 0
        // The last face looked up, by identity (no reference held: fewer retains per cluster).
        var lastSet: ObjectIdentifier? = nil
        var lastIndex = -1
        var lastEntry: Int32 = -1
        var fontSet: FontSet? = nil
        for c in 0..<clusters {
            let scalars = ClusterScalars(
                text: text, startIndex: Int(analysis.graphemeStarts[c]), endIndex: Int(analysis.graphemeStarts[c + 1]))
            let first = scalars[scalars.startIndex]
            // A cluster cut at the stream-safe bound goes on in its cluster's font.
            if analysis.continues(c) {
                fontOf[c] = fontOf[c - 1]
                continue
            }
            if UnicodeProperties.keepsRunFont(first) {
                continue
            }
            let single = scalars.index(after: scalars.startIndex) == scalars.endIndex
            // isEmojiPresentation's own first test, without the call (most clusters stop here).
            let plainText = single && (first < 0x231A || (first > 0x2B55 && first < 0x1F004))
            if !plainText && UnicodeProperties.isEmojiPresentation(scalars) {
                if emojiSet == nil || emojiStyle != styleIndex(analysis, c) {
                    emojiStyle = styleIndex(analysis, c)
                    emojiSet = try style(emojiStyle).emojiSet()
                }
                if let set = emojiSet {
                    fontOf[c] = table.entry(for: try set.font(at: set.faceIndex(covering: scalars)))
                    if isEmoji.isEmpty { isEmoji = [Bool](repeating: false, count: clusters) }
                    isEmoji[c] = true
                    continue
                }
            }
            if fontSet == nil || setScript != analysis.scripts[c] || setStyle != styleIndex(analysis, c) {
                setStyle = styleIndex(analysis, c)
                fontSet = try style(setStyle).fontSet(forScript: analysis.scripts[c])
                setScript = analysis.scripts[c]
            }
            if let set = fontSet {
                // Consecutive clusters mostly come from the same face: look it up once.
                let index = single ? set.faceIndex(covering: first) : set.faceIndex(covering: scalars)
                // No face has it (faceIndex answers 0): Pango draws it, as a hex box, in the
                // base font (itemize.c get_font → get_base_font: the description's first font
                // in the context language), not in the first face of this script's set. Only
                // another script's set can differ; its face 0 is asked once per such cluster.
                if index == 0 && set !== baseSet && !FontSet.isDefaultIgnorable(first), !set.faceCovers(0, first) {
                    fontOf[c] = table.entry(for: primary)
                    continue
                }
                if lastSet == ObjectIdentifier(set) && lastIndex == index {
                    fontOf[c] = lastEntry
                } else {
                    lastEntry = table.entry(for: try set.font(at: index))
                    lastSet = ObjectIdentifier(set)
                    lastIndex = index
                    fontOf[c] = lastEntry
                }
            }
        }
        return isEmoji
    }

    /// The clusters ``assignFonts`` left without a font of their own (-1) get one.
    private func placeSpaces(
        _ text: UnsafeBufferPointer<UInt16>, analysis: ParagraphAnalysis, isEmoji: [Bool], fontOf: UnsafeMutableBufferPointer<Int32>,
        table: inout FontTable
    ) throws(FitTextError) {
        let clusters = analysis.clusterCount
        func emoji(_ c: Int) -> Bool { !isEmoji.isEmpty && isEmoji[c] }

        // Clusters without a font of their own (spaces, invisibles) go as in Pango's
        // itemize_state_add_character, within each itemization run (one bidi level, one
        // script, emoji or not, one style but for font_features): they stay in the item they are in; at the start of a run
        // they wait for the first font; a run with no font at all takes its set's font for
        // U+0020 (itemize_state_process_run). And when the font changes after spaces that
        // follow text, the spaces move to the new font if it comes earlier in the set (it is
        // less of a fallback: `\u{F007} Save` puts the space with "Save", not the icon font;
        // pango issue 249).
        var segmentStart = 0
        while segmentStart < clusters {
            var segmentEnd = segmentStart + 1
            while segmentEnd < clusters && analysis.levels[segmentEnd] == analysis.levels[segmentStart]
                && analysis.scripts[segmentEnd] == analysis.scripts[segmentStart]
                && emoji(segmentEnd) == emoji(segmentStart)
                && itemKind(analysis, segmentEnd) == itemKind(analysis, segmentStart)
                && !startsItem(analysis, segmentEnd)
            {
                segmentEnd += 1
            }
            var itemStart = segmentStart
            var itemFont: Int32 = -1
            // The cluster whose font the item has (its place in the set is asked for only
            // where spaces could move).
            var itemCluster = -1
            // The first of the spaces that end the item so far, or -1.
            var firstSpace = -1
            for c in segmentStart..<segmentEnd {
                var font = fontOf[c]
                let spacesBefore = firstSpace
                if font < 0 {
                    if firstSpace < 0 { firstSpace = c }
                } else {
                    firstSpace = -1
                }
                if c > segmentStart {
                    if itemFont < 0 && font >= 0 {
                        for p in itemStart..<c { fontOf[p] = font }
                        itemFont = font
                        itemCluster = c
                    } else if itemFont >= 0 && font < 0 {
                        font = itemFont
                    }
                    if font == itemFont {
                        fontOf[c] = font
                        continue
                    }
                    // A new item; the old one's trailing spaces (if it is not only spaces)
                    // come along when the new font is earlier in the set.
                    if spacesBefore > itemStart, itemCluster >= 0,
                        try fontPosition(c, text: text, analysis: analysis, emoji: emoji(c))
                            < fontPosition(itemCluster, text: text, analysis: analysis, emoji: emoji(c))
                    {
                        for p in spacesBefore..<c { fontOf[p] = font }
                        itemStart = spacesBefore
                    } else {
                        itemStart = c
                    }
                }
                itemFont = font
                itemCluster = font >= 0 ? c : -1
                fontOf[c] = font
            }
            if itemFont < 0 {
                let own = style(styleIndex(analysis, segmentStart))
                let set = try emoji(segmentStart) ? own.emojiSet() : own.fontSet(forScript: analysis.scripts[segmentStart])
                let entry = table.entry(for: try set.font(at: set.faceIndex(covering: CollectionOfOne(UInt32(0x20)))))
                for p in itemStart..<segmentEnd { fontOf[p] = entry }
            }
            segmentStart = segmentEnd
        }
    }

    /// Pango's font_position of cluster `c`: the place in its set of the face that draws it
    /// (as step 1 chose it), or, when no face has the character (Pango then draws it in the
    /// base font), the number of faces: itemize.c get_font_foreach counts every face it
    /// passes, while ``FontSet/faceIndex`` answers 0. Asked only where spaces could move (a
    /// font change after spaces), so rarely; nothing is kept per cluster for it.
    private func fontPosition(
        _ c: Int, text: UnsafeBufferPointer<UInt16>, analysis: ParagraphAnalysis, emoji: Bool
    ) throws(FitTextError) -> Int {
        // (A cluster cut at the stream-safe bound never follows spaces, nor starts an item:
        // it has its cluster's font. Looked at as it is, without walking back: constant time.)
        let scalars = ClusterScalars(
            text: text, startIndex: Int(analysis.graphemeStarts[c]), endIndex: Int(analysis.graphemeStarts[c + 1]))
        let first = scalars[scalars.startIndex]
        let set = try emoji ? style.emojiSet() : style.fontSet(forScript: analysis.scripts[c])
        let index = set.faceIndex(covering: scalars)
        guard index == 0, !set.faceCovers(0, first), !FontSet.isDefaultIgnorable(first) else { return index }
        return set.count
    }

    /// Which clusters are hex boxes; allocated when the first one is found.
    struct Boxes {
        var marks: [Bool] = []
        mutating func mark(_ cluster: Int, of count: Int) {
            if marks.isEmpty { marks = [Bool](repeating: false, count: count) }
            marks[cluster] = true
        }
    }

    /// The distinct fonts of a paragraph (a handful), found by identity.
    private struct FontTable {
        var fonts: [Font]

        init(primary: Font) { fonts = [primary] }

        mutating func entry(for font: Font) -> Int32 {
            for (i, known) in fonts.enumerated() where known === font { return Int32(i) }
            fonts.append(font)
            return Int32(fonts.count - 1)
        }
    }

    private func shapeRun(
        _ text: UnsafeBufferPointer<UInt16>, analysis: ParagraphAnalysis, clusters: Range<Int>,
        font: Font, style: ResolvedStyle, into widths: inout [Double], inner: inout [Bool], boxes: inout Boxes, safe: inout [Bool]
    ) throws(FitTextError) {
        let u0 = Int(analysis.graphemeStarts[clusters.lowerBound])
        let u1 = Int(analysis.graphemeStarts[clusters.upperBound])
        let script = analysis.scripts[clusters.lowerBound]
        let rightToLeft = analysis.levels[clusters.lowerBound] & 1 == 1
        let language = style.language.hbLanguage(script: script)
        let continuation = analysis.continues(clusters.lowerBound)
        func key(_ from: Int, _ to: Int) -> ShapeKey {
            ShapeKey(
                fontID: Int32(truncatingIfNeeded: font.id), script: script, language: language, features: style.featureID,
                rightToLeft: rightToLeft, continuation: continuation, text: UnsafeBufferPointer(rebasing: text[from..<to]))
        }

        // The cache holds runs and their words: a run is cut after each stretch of white
        // space (the word cache of Chromium, Skia and cosmic-text), so a new string made of
        // known words is not shaped again. A run whose words are all known is assembled from
        // them; otherwise it is shaped whole — one HarfBuzz call, which costs far more per
        // call than per glyph — and it and its words, cut from the result, are stored.
        // Words shape alike alone and in a run unless a font kerns or ligates across white
        // space: on the oracle corpus no result changed (Benchmarks/README.md). The run
        // itself is looked up first, so a known string, re-wrapped, costs one lookup.
        let runKey = key(u0, u1)
        if let cached = known(runKey, font: font) {
            try distribute(cached, text: text, analysis: analysis, clusters: clusters, font: font, style: style, into: &widths, inner: &inner, boxes: &boxes, safe: &safe)
            return
        }
        // Words end where white space ends. No arrays of word starts, keys or runs: the words
        // are walked again when needed (cheaper than allocating three arrays per run).
        func wordEnd(from start: Int) -> Int {
            var c = start + 1
            while c < clusters.upperBound && !(analysis.isWhiteSpace[c - 1] && !analysis.isWhiteSpace[c]) { c += 1 }
            return c
        }
        func units(_ start: Int, _ end: Int) -> (Int, Int) {
            (Int(analysis.graphemeStarts[start]), Int(analysis.graphemeStarts[end]))
        }
        let firstEnd = wordEnd(from: clusters.lowerBound)
        if firstEnd < clusters.upperBound {
            // Known words go straight to the widths, until the first unknown one.
            var start = clusters.lowerBound
            var end = firstEnd
            var unknown: (start: Int, key: ShapeKey)? = nil
            while start < clusters.upperBound {
                let (from, to) = units(start, end)
                let wordKey = key(from, to)
                guard let known = known(wordKey, font: font) else {
                    unknown = (start, wordKey)
                    break
                }
                try distribute(known, text: text, analysis: analysis, clusters: start..<end, font: font, style: style, into: &widths, inner: &inner, boxes: &boxes, safe: &safe)
                start = end
                if start < clusters.upperBound { end = wordEnd(from: start) }
            }
            guard let unknown else { return }
            // The run is shaped whole: take back what the known words gave (each cluster
            // belongs to one run, so its width was 0 before).
            for c in clusters.lowerBound..<unknown.start { widths[c] = 0 }
            let run = Shaper.shape(
                UnsafeBufferPointer(rebasing: text[u0..<u1]), font: font, rightToLeft: rightToLeft, script: script,
                language: language, features: style.features, continuation: continuation)
            shapeCache.insert(run, for: runKey, bytes: runKey.byteCount + run.byteCount)
            if run.missing.isEmpty {
                // The unknown word and every one after it, cut from the run.
                var start = unknown.start
                var wordKey: ShapeKey? = unknown.key
                var cursor = 0
                while start < clusters.upperBound {
                    let end = wordEnd(from: start)
                    let (from, to) = units(start, end)
                    // A HarfBuzz cluster across the cut (not seen in practice) keeps the word out.
                    if let word = run.slice(from: Int32(from - u0), to: Int32(to - u0), cursor: &cursor) {
                        let storedKey = wordKey ?? key(from, to)
                        shapeCache.insert(word, for: storedKey, bytes: storedKey.byteCount + word.byteCount)
                    }
                    wordKey = nil
                    start = end
                }
            }
            try distribute(run, text: text, analysis: analysis, clusters: clusters, font: font, style: style, into: &widths, inner: &inner, boxes: &boxes, safe: &safe)
            return
        }

        let run = Shaper.shape(
            UnsafeBufferPointer(rebasing: text[u0..<u1]), font: font, rightToLeft: rightToLeft, script: script,
            language: language, features: style.features, continuation: continuation)
        shapeCache.insert(run, for: runKey, bytes: runKey.byteCount + run.byteCount)
        try distribute(run, text: text, analysis: analysis, clusters: clusters, font: font, style: style, into: &widths, inner: &inner, boxes: &boxes, safe: &safe)
    }

    /// Gives the advances of a shaped run to the grapheme clusters it covers.
    private func distribute(
        _ run: ShapedRun, text: UnsafeBufferPointer<UInt16>, analysis: ParagraphAnalysis, clusters: Range<Int>,
        font: Font, style: ResolvedStyle, into widths: inout [Double], inner: inout [Bool], boxes: inout Boxes, safe: inout [Bool]
    ) throws(FitTextError) {
        let u0 = Int(analysis.graphemeStarts[clusters.lowerBound])
        let u1 = Int(analysis.graphemeStarts[clusters.upperBound])
        // Give each HarfBuzz cluster's advance to the grapheme clusters that start inside it,
        // shared equally when a ligature spans several, in whole Pango units, truncated, the
        // residue to the first, as pango_glyph_item_get_logical_widths shares among characters
        // (pango-glyph-item.c; the same where each grapheme is one character, as in "ffi").
        // Shares of a third of a unit made a line's sum miss its whole-unit width by 1e-14, and
        // at its own width the text broke ("office fluffy", UnwrappedReuseContractTests).
        var extra: [Double] = []
        if !run.missing.isEmpty {
            extra = [Double](repeating: 0, count: run.clusters.count)
            for entry in run.missing {
                // Pango replaces each .notdef glyph with a box showing the code point in hex.
                let narrow = entry.narrowBoxes > 0 ? try style.hexBoxWidth(font: font, wide: false) : 0
                let wide = entry.wideBoxes > 0 ? try style.hexBoxWidth(font: font, wide: true) : 0
                extra[entry.cluster] += Double(entry.narrowBoxes) * narrow + Double(entry.wideBoxes) * wide - entry.notdefAdvance
            }
        }
        if !run.missing.isEmpty {
            // The grapheme cluster a missing glyph's HarfBuzz cluster starts in is a box
            // (found by bisection: the entries need not come in text order).
            for entry in run.missing {
                let start = Int32(u0) + run.clusters[entry.cluster].start
                var low = clusters.lowerBound
                var high = clusters.upperBound - 1
                while low < high {
                    let mid = (low + high + 1) / 2
                    if analysis.graphemeStarts[mid] <= start { low = mid } else { high = mid - 1 }
                }
                boxes.mark(low, of: analysis.clusterCount)
            }
        }
        var g = clusters.lowerBound
        let shapedClusters = run.clusters
        // Written through buffer pointers: each subscripted write to an inout array checked
        // its uniqueness and bounds again (2 K instructions a string, FitBenchRatios fitd-cold).
        // Every index is below the paragraph's cluster count, which all three arrays have.
        let starts = analysis.graphemeStarts
        widths.withUnsafeMutableBufferPointer { widths in
            safe.withUnsafeMutableBufferPointer { safe in
                for k in 0..<shapedClusters.count {
                    let advance = extra.isEmpty ? shapedClusters[k].advance : shapedClusters[k].advance + extra[k]
                    let start = u0 + Int(shapedClusters[k].start)
                    let end = k + 1 < shapedClusters.count ? u0 + Int(shapedClusters[k + 1].start) : u1
                    while g < clusters.upperBound && Int(starts[g]) < start { g += 1 }
                    var members = 0
                    var h = g
                    while h < clusters.upperBound && Int(starts[h]) < end { members += 1; h += 1 }
                    if members == 0 {
                        // A cluster starting inside a grapheme (cannot happen with monotone
                        // graphemes): add to the grapheme it sits in.
                        if g > clusters.lowerBound { widths[g - 1] += advance }
                        continue
                    }
                    safe[g] = shapedClusters[k].safeBefore
                    if members == 1 {
                        widths[g] += advance
                    } else {
                        let units = Int64((advance * Font.unitsPerPixel).rounded())
                        let share = units / Int64(members)
                        for m in g..<h { widths[m] += Double(share) / Font.unitsPerPixel }
                        widths[g] += Double(units - share * Int64(members)) / Font.unitsPerPixel
                        if !inner.isEmpty { for m in g + 1..<h { inner[m] = true } }
                    }
                    g = h
                }
            }
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
        // Shaped like any glyph (pango-layout.c ensure_tab_width shapes a space): whole
        // pixels under GTK 3's rounded positions.
        return Font.glyphWidth(Double(hb_font_get_glyph_h_advance(font.hbFont, glyph)), rounded: font.rendering.roundsPositions)
    }
}
