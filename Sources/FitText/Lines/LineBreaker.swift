/// Breaks a paragraph into lines at a maximum width, following Pango 1.50's process_item
/// (pango-layout.c) as Tests/oracle/PANGO_RULES.md §4–6 records it. It sees only numbers — a
/// width per grapheme cluster, where a line may break, which clusters are white space,
/// where a break would insert a hyphen — so pixels and terminal cells share it.
///
/// An immutable class holding what it knows of each cluster in one array: a cached paragraph
/// is its breaker (``CachedParagraph``), used through one reference by every measurement of
/// it, and made and freed with two allocations — a struct of seven arrays was copied by each
/// use (an atomic retain and release per array) and cost seven allocations to keep.
final class LineBreaker: Sendable {
    /// One grapheme cluster.
    struct Cluster: Sendable {
        /// Advance (px or cells), letter spacing included; a tab's is from the line start.
        var width: Double
        /// UTF-16 offset in the paragraph where the cluster starts (pixels: line texts, the
        /// ellipsis); 0 where nobody asks (cells, tests).
        var start: Int32
        /// Index in `fonts` of the font that drew it (pixels; 0 otherwise).
        var font: Int32
        var flags: Flags
        /// Bidi level and resolved script (pixels: a run of one font, script and level is what
        /// a break inside a word shapes again; the script also picks the line's baseline,
        /// ``BaselineShift``); 0 where nobody asks. They fit in the padding
        /// after `flags`: the stride stays 24 bytes.
        var level: UInt8 = 0
        var script: Int32 = 0
    }

    /// The exact width of the line `start..<end` whose end cuts a run inside a word — with a
    /// hyphen (`hyphen`) or not — or nil for the sum of its clusters (and the hyphen):
    /// pango-layout.c process_item shapes the broken run again, shape.c with the text after
    /// it as context, or, with a hyphen, without (an Arabic letter before the hyphen takes
    /// its final form). Pixels only.
    typealias Reshape = (_ start: Int, _ end: Int, _ hyphen: Bool) -> Double?

    /// Whether a break before `i` cuts a run of one font, script and level after a cluster
    /// that is not white space, where HarfBuzz did not call the cut safe: where Pango's line
    /// ends in a run shaped again with a different result. At a safe cut (no
    /// HB_GLYPH_FLAG_UNSAFE_TO_BREAK, ``Flags/safeBreakBefore``) the part shapes to the
    /// advances it has in the run, so the summed width is exact and nothing is shaped again.
    func cutsRun(before i: Int) -> Bool {
        guard i > 0, i < clusters.count, !isWhiteSpace(i - 1) else { return false }
        let a = clusters[i - 1]
        let b = clusters[i]
        return a.font == b.font && a.script == b.script && a.level == b.level && !b.flags.contains(.safeBreakBefore)
    }

    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        /// A line may break before it (UAX #14). Never set on the first cluster.
        static let breakBefore = Flags(rawValue: 1 << 0)
        /// It is white space: trailing white space hangs past the line end.
        static let whiteSpace = Flags(rawValue: 1 << 1)
        /// Breaking before it inside a word (char and word-char wrapping) draws a hyphen at
        /// the end of the line.
        static let hyphenBefore = Flags(rawValue: 1 << 2)
        /// It is a tab: its width depends on where it falls on its line.
        static let tab = Flags(rawValue: 1 << 3)
        /// No font has it: a hex box, whose logical height is the box's (pixels).
        static let hexBox = Flags(rawValue: 1 << 4)
        /// Its font, script or hex-box state differs from the cluster before (pixels): where
        /// a line's height looks at the next run, one bit test per cluster.
        static let runStart = Flags(rawValue: 1 << 5)
        /// A line may end before this cluster without shaping its run again: HarfBuzz put no
        /// unsafe-to-break flag on it (``ShapedRun/Cluster/safeBefore``).
        static let safeBreakBefore = Flags(rawValue: 1 << 6)
    }

    let clusters: [Cluster]
    /// The paragraph's length in UTF-16: where a cluster after the last would start.
    let end: Int32
    /// The fonts `Cluster.font` names, whose hyphens a break inside a word draws (U+2010 in the
    /// font of the cluster before the break); empty when every hyphen is `uniformHyphen` wide.
    let fonts: [Font]
    let uniformHyphen: Double
    let tabStops: TabStops
    let hasTabs: Bool
    /// No advance or hyphen is negative (tabs always advance): a line's width only grows as it
    /// takes more clusters, which lets ``lineEnd`` stop looking once it is past the goal.
    /// Negative letter spacing (or a font's negative advance) can make it false.
    let widthsGrow: Bool
    /// Some cluster is of a script whose letters change form at a break inside a word
    /// (joining, conjuncts: anything but ``simpleScripts``): only then do pixel layouts
    /// shape broken lines again (``Reshape``). In the simple scripts that only loses or gains
    /// the kerning at the break, a fraction of a pixel, and shaping again per candidate break
    /// made a cold measurement at width 0 (SwiftUI's minimum probe) five times slower.
    let hasComplexScripts: Bool
    /// How far past the last break that fits ``lineEnd`` reads when widths can shrink.
    static let shrinkingLookahead = 256

    init(clusters: [Cluster], end: Int32, fonts: [Font], uniformHyphen: Double = 0, tabStops: TabStops) {
        self.clusters = clusters
        self.end = end
        self.fonts = fonts
        self.uniformHyphen = uniformHyphen
        self.tabStops = tabStops
        var hasTabs = false
        var widthsGrow = uniformHyphen >= 0 && fonts.allSatisfy { $0.hyphenAdvance >= 0 }
        var complex = false
        for cluster in clusters {
            if cluster.flags.contains(.tab) { hasTabs = true } else if !(cluster.width >= 0) { widthsGrow = false }
            if !complex && !LineBreaker.isSimple(cluster.script) { complex = true }
        }
        self.hasComplexScripts = complex
        self.hasTabs = hasTabs
        self.widthsGrow = widthsGrow
    }

    /// A breaker from one array per property (terminal cells, tests): an empty array is all
    /// false, and every hyphen is `hyphenWidth` wide.
    convenience init(
        widths: [Double], canBreakBefore: [Bool], isWhiteSpace: [Bool], hyphenBefore: [Bool], hyphenWidth: Double,
        isTab: [Bool] = [], tabStops: TabStops = TabStops(spaceWidth: 1)
    ) {
        func flag(_ array: [Bool], _ i: Int, _ flag: Flags) -> Flags { i < array.count && array[i] ? flag : [] }
        let clusters = widths.indices.map { i in
            Cluster(
                width: widths[i], start: 0, font: 0,
                flags: flag(canBreakBefore, i, .breakBefore).union(flag(isWhiteSpace, i, .whiteSpace))
                    .union(flag(hyphenBefore, i, .hyphenBefore)).union(flag(isTab, i, .tab)))
        }
        self.init(clusters: clusters, end: 0, fonts: [], uniformHyphen: hyphenWidth, tabStops: tabStops)
    }

    var count: Int { clusters.count }

    /// Scripts (ICU codes) without contextual forms: Common, Inherited, Armenian, Cyrillic,
    /// Ethiopic, Georgian, Greek, Han, Hangul, Hebrew, Hiragana, Katakana, Latin.
    static func isSimple(_ script: Int32) -> Bool {
        switch script {
        case 0, 1, 3, 8, 11, 12, 14, 17, 18, 19, 20, 22, 25: return true
        default: return false
        }
    }

    func isWhiteSpace(_ i: Int) -> Bool { clusters[i].flags.contains(.whiteSpace) }

    /// Where cluster `i` starts in the paragraph (UTF-16); `count` gives the paragraph's end.
    func start(of i: Int) -> Int { i < clusters.count ? Int(clusters[i].start) : Int(end) }

    /// The widths alone, for the ellipsizer.
    var widths: [Double] { clusters.map(\.width) }

    /// The width of the hyphen a break inside a word draws after cluster `i`.
    func hyphenWidth(_ i: Int) -> Double {
        fonts.isEmpty ? uniformHyphen : fonts[Int(clusters[i].font)].hyphenAdvance
    }

    /// The advance of cluster `i` when its line has reached `x` before it.
    func advance(_ i: Int, at x: Double) -> Double {
        if hasTabs && clusters[i].flags.contains(.tab) { return tabStops.advance(at: x) }
        return clusters[i].width
    }

    /// A line as the breaker ends it.
    struct Line: Equatable {
        var range: Range<Int>
        /// Ended by wrapping (not by the end of the paragraph): its final white space is not
        /// counted, and a hyphen may end it.
        var wrapped: Bool
        var hyphenated: Bool
    }

    /// Lines covering the paragraph; at most `limit`, the last of which then takes all the
    /// rest of the paragraph unwrapped (the caller ellipsizes it).
    func lines(maxWidth: Double?, wrap: WrapMode, limit: Int, reshape: Reshape? = nil) -> [Line] {
        let count = clusters.count
        guard count > 0 else { return [Line(range: 0..<0, wrapped: false, hyphenated: false)] }
        guard let maxWidth else { return [Line(range: 0..<count, wrapped: false, hyphenated: false)] }
        // Pango compares in whole Pango units (1/1024 px).
        let goal = LineBreaker.pangoUnits(maxWidth)
        var lines: [Line] = []
        // At width 0 (SwiftUI's minimum probe) nearly every cluster is a line of its own.
        lines.reserveCapacity(min(count, 256))
        var start = 0
        while start < count {
            if lines.count == limit - 1 {
                lines.append(Line(range: start..<count, wrapped: false, hyphenated: false))
                break
            }
            let end = lineEnd(from: start, goal: goal, wrap: wrap, reshape: reshape)
            let wrapped = end < count
            lines.append(Line(range: start..<end, wrapped: wrapped, hyphenated: wrapped && breakInsertsHyphen(before: end, wrap: wrap)))
            start = end
        }
        return lines
    }

    static func pangoUnits(_ px: Double) -> Double { (px * 1024).rounded() / 1024 }

    /// Where the line that starts at `start` ends: the last break opportunity at which the line
    /// — without its final white space, with a hyphen if the break inserts one — fits.
    func lineEnd(from start: Int, goal: Double, wrap: WrapMode, reshape: Reshape? = nil) -> Int {
        var budget = LineBreaker.reshapeBudget
        return lineEnd(from: start, goal: goal, wrap: wrap, reshape: reshape, budget: &budget)
    }

    /// `budget`: how many more candidates may be shaped again in this line's search (shared
    /// with the search by characters that WORD_CHAR falls back to, which spends the rest).
    private func lineEnd(from start: Int, goal: Double, wrap: WrapMode, reshape: Reshape?, budget: inout Int) -> Int {
        let count = clusters.count
        // With re-shaping, breaks up to Pango's safe distance past the goal are looked at
        // (process_item: 3 × the approximate character width, here 1.5 em of the largest
        // font): a word's last letter before a hyphen may shape narrower than in the word.
        let slack = reshape == nil ? 0 : safeDistance
        var width = 0.0
        var solid = 0.0  // width without the trailing white space
        var best: Int? = nil
        var i = start + 1
        var last = 0.0  // advance of cluster i - 1
        while i <= count {
            last = advance(i - 1, at: width)
            width += last
            if !isWhiteSpace(i - 1) { solid = width }
            if solid > goal + slack { break }  // no later break can fit
            // The rest of the paragraph: it fits when it does without its final white space
            // (process_item: the end of the text is a break, and find_break_extra_width takes
            // the last white space off), but it is not a wrapped line, so nothing is zeroed
            // in its width. Seen with whole-pixel widths (GTK 3), where equality happens.
            if i == count {
                if (isWhiteSpace(count - 1) ? width - last : width) <= goal { return count }
                break
            }
            if allowsBreak(before: i, wrap: wrap),
                lineWidth(width: width, last: last, start: start, end: i, wrap: wrap, goal: goal, reshape: reshape, budget: &budget) <= goal
            {
                best = i
            }
            // A break further on leaves on the line at least all it has now, white space
            // included (only the final white space is not counted): when that is past the
            // goal, so is every later break. White space never raises `solid`, so without
            // this a run of spaces or tabs was read to its end for every line: n² for a
            // paragraph of them with char wrapping (FitBenchCost --search). Exact only when
            // widths never shrink.
            if widthsGrow && width > goal + slack { break }
            // With negative widths no such bound exists, and a search that reads far past
            // the last break that fits, line after line, is n² again: it gives up
            // `shrinkingLookahead` clusters after that break. Only a paragraph with a
            // negative width (negative letter spacing beyond a cluster's advance) and a
            // stretch that long between fitting breaks can break differently from Pango.
            if !widthsGrow && i - (best ?? start) >= LineBreaker.shrinkingLookahead { break }
            i += 1
        }
        if let best { return best }
        return overflowEnd(from: start, goal: goal, wrap: wrap, reshape: reshape, budget: &budget)
    }

    /// Whether shaping the line again may move it across the goal. In scripts that keep
    /// their letters' forms it moves only the kerning at the break, under a quarter em: a
    /// line farther from the goal keeps its summed width while breaking (the line's own width
    /// is still shaped again) — at width 0 no candidate is near, and shaping every one of them
    /// more than doubled a cold measurement.
    private func mayChangeFit(_ width: Double, goal: Double, last: Int) -> Bool {
        let cluster = clusters[last]
        guard LineBreaker.isSimple(cluster.script), !fonts.isEmpty else { return true }
        return abs(width - goal) < 0.25 * fonts[Int(cluster.font)].pixelSize
    }

    /// At most `reshapeBudget` lines shaped again per line searched, the rest summed: each
    /// shapes the line's run, and zero-width clusters (a run of ZWSP) keep every candidate
    /// within the safe distance, which made a line's search n² HarfBuzz work. A counter
    /// passed down, not a closure wrapping `reshape`: that closure and its box were two
    /// allocations per line searched, 7 % of a cold layout's instructions (FitBenchLayout).
    static let reshapeBudget = 32

    /// 1.5 em of the largest font: past Pango's safe distance (three approximate character
    /// widths of the item's font), so no break Pango measures is left out.
    private var safeDistance: Double {
        var size = 0.0
        for font in fonts { size = max(size, font.pixelSize) }
        return 1.5 * size
    }

    /// No break opportunity fits. WORD lets the word overflow up to the next opportunity;
    /// CHAR and WORD-CHAR break inside it, after the last cluster that fits with its hyphen
    /// (Pango re-breaks a word that does not fit on an empty line by characters), keeping
    /// at least one cluster so the layout advances.
    private func overflowEnd(from start: Int, goal: Double, wrap: WrapMode, reshape: Reshape?, budget: inout Int) -> Int {
        switch wrap {
        case .word:
            return nextOpportunity(after: start)
        case .wordChar:
            // pango-layout.c process_item: WORD_CHAR with nothing that fits "tries again with
            // wrap-char" — every char break, each measured as a line (its final white space
            // not counted), so a break between two spaces counts (PANGO_RULES.md, "Breaking and GTK 3 metrics").
            return lineEnd(from: start, goal: goal, wrap: .char, reshape: reshape, budget: &budget)
        case .char:
            // process_item when no char break fits: the first one, replaced by a later one
            // only when that is strictly narrower (a hyphen saved before a space, a ligature
            // kept whole: "لإ" is narrower than "ل‐"), looked for up to the safe distance past
            // the goal. A trailing space is not taken on (its break is no narrower): it
            // starts the next line, where it fits at width 0.
            let limit = goal + safeDistance
            var width = 0.0
            var best = start + 1
            var bestWidth = Double.infinity
            var i = start + 1
            while i <= clusters.count {
                let last = advance(i - 1, at: width)
                width += last
                let candidate = i == clusters.count
                    ? (isWhiteSpace(i - 1) ? width - last : width)
                    : lineWidth(width: width, last: last, start: start, end: i, wrap: .char, goal: goal, reshape: reshape, budget: &budget)
                if i > start + 1 && min(candidate, width) > limit { break }
                if candidate < bestWidth {
                    best = i
                    bestWidth = candidate
                }
                if i - start >= LineBreaker.shrinkingLookahead { break }
                i += 1
            }
            // A tab is an item of its own, always taken whole (process_item: "tab run,
            // all-fit"): tabs right after the break stay on the line ("b\t" at width 0).
            while best < clusters.count && clusters[best].flags.contains(.tab) { best += 1 }
            return best
        }
    }

    private func nextOpportunity(after start: Int) -> Int {
        var j = start + 1
        while j < clusters.count && !clusters[j].flags.contains(.breakBefore) { j += 1 }
        return j
    }

    private func lineWidth(
        width: Double, last: Double, start: Int, end: Int, wrap: WrapMode, goal: Double, reshape: Reshape?, budget: inout Int
    ) -> Double {
        var result = width
        if isWhiteSpace(end - 1) { result -= last }
        let hyphen = breakInsertsHyphen(before: end, wrap: wrap)
        if hyphen { result += hyphenWidth(end - 1) }
        // Pango accepts a break well inside the goal on its summed widths and shapes again
        // only near the goal (process_item's "trivial accept").
        if let reshape, hyphen || cutsRun(before: end), result >= goal - safeDistance, mayChangeFit(result, goal: goal, last: end - 1),
            budget > 0
        {
            budget -= 1
            if let exact = reshape(start, end, hyphen) { result = exact }
        }
        return result
    }

    private func allowsBreak(before i: Int, wrap: WrapMode) -> Bool {
        switch wrap {
        case .char: return true
        case .word, .wordChar: return clusters[i].flags.contains(.breakBefore)
        }
    }

    func breakInsertsHyphen(before i: Int, wrap: WrapMode) -> Bool {
        guard wrap != .word, i > 0, i < clusters.count else { return false }
        return clusters[i].flags.contains(.hyphenBefore)
    }

    /// The logical width of a laid-out line (PANGO_RULES.md §4, §6): everything on it, less
    /// the final white space of a wrapped line, plus the hyphen.
    func width(of line: Line, reshape: Reshape? = nil) -> Double {
        if let reshape, !line.range.isEmpty, line.hyphenated || (line.wrapped && cutsRun(before: line.range.upperBound)),
            let exact = reshape(line.range.lowerBound, line.range.upperBound, line.hyphenated)
        {
            return exact
        }
        var total = 0.0
        var lastAdvance = 0.0
        for i in line.range {
            lastAdvance = advance(i, at: total)
            total += lastAdvance
        }
        if line.wrapped, let last = line.range.last, isWhiteSpace(last) { total -= lastAdvance }
        if line.hyphenated, let last = line.range.last { total += hyphenWidth(last) }
        return total
    }
}
