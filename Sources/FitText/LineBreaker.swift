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
        /// ICU script code of its itemization run (pixels: the line's baseline,
        /// ``BaselineShift``); 0 (Common) where nobody asks. Fits in the struct's padding.
        var script: UInt8 = 0
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
        for cluster in clusters {
            if cluster.flags.contains(.tab) { hasTabs = true } else if !(cluster.width >= 0) { widthsGrow = false }
        }
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
    func lines(maxWidth: Double?, wrap: WrapMode, limit: Int) -> [Line] {
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
            let end = lineEnd(from: start, goal: goal, wrap: wrap)
            let wrapped = end < count
            lines.append(Line(range: start..<end, wrapped: wrapped, hyphenated: wrapped && breakInsertsHyphen(before: end, wrap: wrap)))
            start = end
        }
        return lines
    }

    static func pangoUnits(_ px: Double) -> Double { (px * 1024).rounded() / 1024 }

    /// Where the line that starts at `start` ends: the last break opportunity at which the line
    /// — without its final white space, with a hyphen if the break inserts one — fits.
    func lineEnd(from start: Int, goal: Double, wrap: WrapMode) -> Int {
        let count = clusters.count
        var width = 0.0
        var solid = 0.0  // width without the trailing white space
        var best: Int? = nil
        var i = start + 1
        var last = 0.0  // advance of cluster i - 1
        while i <= count {
            last = advance(i - 1, at: width)
            width += last
            if !isWhiteSpace(i - 1) { solid = width }
            if solid > goal { break }  // no later break can fit
            // The rest of the paragraph fits only with its trailing white space: it is not a
            // wrapped line, so nothing is zeroed (Pango's process_item measures the item whole).
            if i == count {
                if width <= goal { return count }
                break
            }
            if allowsBreak(before: i, wrap: wrap), lineWidth(width: width, last: last, end: i, wrap: wrap) <= goal {
                best = i
            }
            // A break further on leaves on the line at least all it has now, white space
            // included (only the final white space is not counted): when that is past the
            // goal, so is every later break. White space never raises `solid`, so without
            // this a run of spaces or tabs was read to its end for every line: n² for a
            // paragraph of them with char wrapping (FitBenchCost --search). Exact only when
            // widths never shrink.
            if widthsGrow && width > goal { break }
            // With negative widths no such bound exists, and a search that reads far past
            // the last break that fits, line after line, is n² again: it gives up
            // `shrinkingLookahead` clusters after that break. Only a paragraph with a
            // negative width (negative letter spacing beyond a cluster's advance) and a
            // stretch that long between fitting breaks can break differently from Pango.
            if !widthsGrow && i - (best ?? start) >= LineBreaker.shrinkingLookahead { break }
            i += 1
        }
        if let best { return best }
        return overflowEnd(from: start, goal: goal, wrap: wrap)
    }

    /// No break opportunity fits. WORD lets the word overflow up to the next opportunity;
    /// CHAR and WORD-CHAR break inside it, after the last cluster that fits with its hyphen
    /// (Pango re-breaks a word that does not fit on an empty line by characters), keeping
    /// at least one cluster so the layout advances.
    private func overflowEnd(from start: Int, goal: Double, wrap: WrapMode) -> Int {
        switch wrap {
        case .word:
            return nextOpportunity(after: start)
        case .char, .wordChar:
            var width = advance(start, at: 0)
            var end = start + 1
            while end < clusters.count {
                let next = width + advance(end, at: width)
                let hyphen = breakInsertsHyphen(before: end + 1, wrap: .char) ? hyphenWidth(end) : 0
                if next + hyphen > goal && !isWhiteSpace(end) { break }
                width = next
                end += 1
            }
            return end
        }
    }

    private func nextOpportunity(after start: Int) -> Int {
        var j = start + 1
        while j < clusters.count && !clusters[j].flags.contains(.breakBefore) { j += 1 }
        return j
    }

    private func lineWidth(width: Double, last: Double, end: Int, wrap: WrapMode) -> Double {
        var result = width
        if isWhiteSpace(end - 1) { result -= last }
        if breakInsertsHyphen(before: end, wrap: wrap) { result += hyphenWidth(end - 1) }
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
    func width(of line: Line) -> Double {
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

/// Which clusters of a line survive ellipsizing, and where the ellipsis goes.
struct EllipsizedLine: Equatable {
    /// Clusters kept before the ellipsis, and after it.
    var head: Range<Int>
    var tail: Range<Int>
    /// The first cluster the ellipsis replaces.
    var gapStart: Int
}

/// Replaces the clusters that do not fit with an ellipsis, keeping as much as fits, after
/// Pango's ellipsize.c: the gap starts at the cluster under the gap centre (the line's start,
/// middle or end) and grows one cluster at a time on the side that keeps it most centred,
/// until the rest and the ellipsis fit.
enum Ellipsizer {
    static func ellipsize(
        _ range: Range<Int>, widths: [Double], mode: EllipsizeMode, goal: Double, ellipsisWidth: Double
    ) -> EllipsizedLine? {
        guard mode != .none, !range.isEmpty else { return nil }
        var total = 0.0
        for i in range { total += widths[i] }
        guard total > goal else { return nil }

        let center: Double
        switch mode {
        case .none: return nil
        case .start: center = 0
        case .middle: center = total / 2
        case .end: center = total
        }
        // The initial gap: the cluster containing the centre (the last one for `end`).
        var x = 0.0
        var gapStart = range.lowerBound
        while gapStart < range.upperBound - 1 && x + widths[gapStart] <= center {
            x += widths[gapStart]
            gapStart += 1
        }
        var gapStartX = x
        var gapEnd = gapStart + 1
        var gapEndX = x + widths[gapStart]
        while total - (gapEndX - gapStartX) + ellipsisWidth > goal {
            let canLeft = gapStart > range.lowerBound
            let canRight = gapEnd < range.upperBound
            if !canLeft && !canRight { break }
            let newStartX = canLeft ? gapStartX - widths[gapStart - 1] : -Double.infinity
            let newEndX = canRight ? gapEndX + widths[gapEnd] : Double.infinity
            if canLeft && (!canRight || center - newStartX < newEndX - center) {
                gapStart -= 1
                gapStartX = newStartX
            } else {
                gapEndX = newEndX
                gapEnd += 1
            }
        }
        return EllipsizedLine(head: range.lowerBound..<gapStart, tail: gapEnd..<range.upperBound, gapStart: gapStart)
    }
}
