import CFitShims
import Synchronization

/// What ICU and Pango's rules say about one paragraph of UTF-16 text: grapheme clusters
/// (UAX #29), line-break opportunities (UAX #14 as Pango's break.c implements it), bidi embedding levels (UAX #9) and resolved scripts (UAX #24).
/// Offsets are UTF-16 code units from the start of the paragraph.
struct ParagraphAnalysis {
    /// Start offsets of the grapheme clusters, then the paragraph length (count = clusters + 1).
    var graphemeStarts: [Int32]
    /// For each cluster: a line may break before it (UAX #14). Index 0 is never a break.
    var canBreakBefore: [Bool]
    /// For each cluster: it is white space (trailing white space hangs past the line end).
    var isWhiteSpace: [Bool]
    /// Bidi embedding level of each cluster (odd = right-to-left).
    var levels: [UInt8]
    /// Resolved script of each cluster (Common/Inherited take their neighbours' script).
    var scripts: [Int32]
    /// The paragraph's base level (0 = LTR, 1 = RTL).
    var baseLevel: UInt8
    /// For each cluster: breaking before it inside a word draws a hyphen (Pango's break.c:
    /// not at a word boundary, not next to white space or a hyphen, not after Common, Han,
    /// Hangul or kana characters). Empty unless asked for (only char and word-char wrapping need it).
    var hyphenBefore: [Bool] = []
    /// For each cluster: it continues the one before, cut at ``StreamSafeClusters/maxScalars``
    /// code points. Empty when no cluster was cut (all text but pathological input).
    var continuation: [Bool] = []

    func continues(_ cluster: Int) -> Bool { !continuation.isEmpty && continuation[cluster] }

    var clusterCount: Int { graphemeStarts.count - 1 }
}

/// ICU break iterators cost tens of microseconds to open; keep opened ones for reuse.
/// Each is used by one caller at a time (taken out of the pool while in use).
final class BreakIteratorPool: Sendable {
    private let kind: FitBreakKind
    // OpaquePointer is not Sendable; the pool owns the iterators and hands each to one
    // caller at a time under the mutex, which is what makes the sharing safe.
    private let idle: Mutex<[UInt]> = Mutex([])

    init(kind: FitBreakKind) { self.kind = kind }

    deinit {
        idle.withLock { list in
            for address in list { fit_breaker_close(OpaquePointer(bitPattern: address)) }
        }
    }

    /// Writes the boundaries of `text` after 0 (the last is its length) into `buffer`, which
    /// must hold text.count + 1 values, and returns how many there are.
    func boundaries(of text: UnsafeBufferPointer<UInt16>, into buffer: UnsafeMutablePointer<Int32>?) throws(FitTextError) -> Int {
        try withIterator { iterator throws(FitTextError) -> Int in
            var status: Int32 = 0
            let count = fit_breaker_boundaries(
                iterator, text.baseAddress, Int32(text.count), buffer, nil, Int32(text.count + 1), &status)
            guard count >= 0 else { throw .textAnalysisFailed(operation: "\(kindName) boundaries", code: status) }
            return Int(count)
        }
    }

    private var kindName: String {
        switch kind {
        case FIT_BREAK_LINE: return "line"
        case FIT_BREAK_WORD: return "word"
        default: return "grapheme"
        }
    }

    private func withIterator<R>(_ body: (OpaquePointer) throws(FitTextError) -> R) throws(FitTextError) -> R {
        var address = idle.withLock { $0.popLast() }
        if address == nil {
            var status: Int32 = 0
            guard let opened = fit_breaker_open(kind, "", &status) else {
                throw .textAnalysisFailed(operation: "ubrk_open", code: status)
            }
            address = UInt(bitPattern: opened)
        }
        let pointer = OpaquePointer(bitPattern: address!)!
        defer {
            let keep = idle.withLock { list -> Bool in
                guard list.count < 16 else { return false }
                list.append(address!)
                return true
            }
            if !keep { fit_breaker_close(pointer) }
        }
        return try body(pointer)
    }
}

struct TextAnalyzer: Sendable {
    let graphemes = BreakIteratorPool(kind: FIT_BREAK_GRAPHEME)
    let words = BreakIteratorPool(kind: FIT_BREAK_WORD)
    /// Which code units are clusters on their own (asked of the grapheme iterator once).
    let simpleGraphemes: SimpleGraphemes
    /// Whether this process's references break ASCII as the ASCII fast paths do (asked once).
    let asciiBreaksCheck = AsciiBreaksCheck()

    init() {
        simpleGraphemes = SimpleGraphemes(iterators: graphemes)
    }

    /// - Parameters:
    ///   - lineBreaks: whether line-break opportunities are needed (only to wrap).
    ///   - hyphenation: whether hyphen positions are needed (char and word-char wrapping).
    ///   - scratch: arrays to fill instead of allocating (see ``TypesetScratch``).
    ///   - pangoClusters: grapheme clusters as Pango makes them (``splitConjuncts``); terminal
    ///     cells keep ICU's, whose widths wcwidth-style terminals follow.
    func analyze(
        _ text: UnsafeBufferPointer<UInt16>, lineBreaks: Bool = true, hyphenation: Bool = false, scratch: TypesetScratch? = nil,
        pangoClusters: Bool = true
    ) throws(FitTextError) -> ParagraphAnalysis {
        let length = Int32(text.count)
        guard length > 0, let base = text.baseAddress else {
            return ParagraphAnalysis(
                graphemeStarts: [0], canBreakBefore: [], isWhiteSpace: [], levels: [],
                scripts: [], baseLevel: 0)
        }
        // What the text can contain decides which ICU passes it needs: below U+0300 there
        // are no combining marks, surrogates or joiners, so every code unit is a grapheme
        // cluster (CR LF cannot occur: paragraphs are split there); below U+0590 nothing is
        // right-to-left, so every level is 0.
        var highest: UInt16 = 0
        for unit in text where unit > highest { highest = unit }

        var starts: [Int32] = scratch.map { TypesetScratch.take(&$0.starts) } ?? []
        // Above it, text of code units that are each a cluster of their own (most text of
        // alphabetic scripts and CJK, see ``SimpleGraphemes``) needs no iterator either.
        var eachUnitACluster = highest < 0x300
        if !eachUnitACluster { eachUnitACluster = try simpleGraphemes.containsOnlySimple(text) }
        if eachUnitACluster {
            starts.append(contentsOf: 0...length)
        } else {
            try appendWindowedBoundaries(of: text, to: &starts)
        }
        if !eachUnitACluster && pangoClusters { TextAnalyzer.splitConjuncts(&starts, in: text) }
        // Clusters of more than 31 code points are cut (UAX #15's bound; see StreamSafeClusters).
        let continuation = eachUnitACluster ? [] : StreamSafeClusters.cut(&starts, in: text)
        let clusters = starts.count - 1

        var canBreak = scratch.map { TypesetScratch.take(&$0.canBreak, filledWith: false, count: clusters) } ?? .init(repeating: false, count: clusters)
        if lineBreaks { try markLineBreaks(text, graphemeStarts: starts, into: &canBreak) }

        var levels = scratch.map { TypesetScratch.take(&$0.levels, filledWith: 0, count: clusters) } ?? .init(repeating: 0, count: clusters)
        var paragraphLevel: Int32 = 0
        if highest >= 0x590 && TextAnalyzer.mayBeRightToLeft(text) {
            paragraphLevel = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.count) { unitLevels throws(FitTextError) -> Int32 in
                var status: Int32 = 0
                let level = fit_bidi_levels(base, length, 2, unitLevels.baseAddress, &status)
                guard level >= 0 else { throw .textAnalysisFailed(operation: "ubidi_setPara", code: status) }
                for c in 0..<clusters { levels[c] = unitLevels[Int(starts[c])] }
                return level
            }
        }

        var white = scratch.map { TypesetScratch.take(&$0.white, filledWith: false, count: clusters) } ?? .init(repeating: false, count: clusters)
        var scripts = scratch.map { TypesetScratch.take(&$0.scripts, filledWith: 0, count: clusters) } ?? .init(repeating: 0, count: clusters)
        for c in 0..<clusters {
            let start = Int(starts[c])
            let scalar = TextAnalyzer.scalar(at: start, in: text)
            white[c] = TextAnalyzer.isWhiteSpace(scalar)
            scripts[c] = scalar < 0x80 ? TextAnalyzer.asciiScript(scalar) : fit_script(scalar)
        }
        // Hyphen positions of plain ASCII come from its own rules; others need the raw scripts,
        // kept before they are resolved in place (a copy of the array).
        let asciiHyphen = hyphenation ? asciiHyphens(text, clusters: clusters) : nil
        let rawScripts = hyphenation && asciiHyphen == nil ? scripts : []
        ScriptRuns.resolve(&scripts) { c in ScriptRuns.pairIndex(TextAnalyzer.scalar(at: Int(starts[c]), in: text)) }
        var analysis = ParagraphAnalysis(
            graphemeStarts: starts, canBreakBefore: canBreak, isWhiteSpace: white, levels: levels,
            scripts: scripts, baseLevel: UInt8(paragraphLevel))
        analysis.continuation = continuation
        if let asciiHyphen {
            analysis.hyphenBefore = asciiHyphen
        } else if hyphenation {
            analysis.hyphenBefore = try hyphenPositions(text, graphemeStarts: starts, rawScripts: rawScripts)
        }
        return analysis
    }

    /// 0 and every grapheme boundary of `text` as ICU finds them, ICU asked only around the
    /// code units that are not simple (``SimpleGraphemes``): between two simple units there
    /// is always a boundary, so ICU reads each stretch of other units with one simple unit of
    /// context on either side, and decides the boundaries that touch a stretch. That context
    /// is enough: in UAX #29 a boundary depends on the pair around it, looking further back
    /// only through units that are not simple (GB11: an Extended_Pictographic, then Extend*
    /// ZWJ; GB12/13: regional indicators) — the pictograph that anchors GB11 is in the
    /// stretch or is the simple unit before it. The stretches and their context go to ICU
    /// as one text, end to end (where two meet, a simple unit meets a simple unit: a
    /// boundary ICU decides alone, and not one of this text): one iterator call a paragraph,
    /// over a few units instead of all of them (ICU's iterator took 76 M of `fitctl measure
    /// --batch`'s 20,000 lines). Checked against the whole-text way on random mixes
    /// (SimpleGraphemesTests).
    private func appendWindowedBoundaries(of text: UnsafeBufferPointer<UInt16>, to starts: inout [Int32]) throws(FitTextError) {
        let n = text.count
        func simple(_ i: Int) -> Bool { simpleGraphemes.isSimple(text[i]) }
        try withUnsafeTemporaryAllocation(of: UInt16.self, capacity: n) { joined throws(FitTextError) in
            // Each joined unit's place in `text` (n at most), then ICU's boundaries (n + 1 at most).
            try withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * n + 1) { scratch throws(FitTextError) in
                let origin = UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
                let found = UnsafeMutableBufferPointer(rebasing: scratch[n...])
                // The stretches with their context, end to end.
                var count = 0
                var copiedTo = 0  // units of `text` before this are copied or skipped
                var i = 0
                while i < n {
                    guard !simple(i) else {
                        i += 1
                        continue
                    }
                    var end = i
                    while end < n && !simple(end) { end += 1 }
                    for unit in max(i - 1, copiedTo)..<min(end + 1, n) {
                        joined[count] = text[unit]
                        origin[count] = Int32(unit)
                        count += 1
                    }
                    copiedTo = min(end + 1, n)
                    i = end
                }
                // ICU's boundaries as places in `text`, in order: between units j-1 and j of
                // the joined text, only where they were neighbours there.
                var kept = 0
                if count > 0 {
                    let boundaries = try graphemes.boundaries(of: UnsafeBufferPointer(rebasing: joined[0..<count]), into: found.baseAddress)
                    for b in 0..<boundaries {
                        let j = Int(found[b])
                        guard j > 0 && j < count, origin[j] == origin[j - 1] + 1 else { continue }
                        found[kept] = origin[j]
                        kept += 1
                    }
                }
                starts.reserveCapacity(n + 1)
                starts.append(0)
                var k = 0
                for position in 1...n {
                    while k < kept && Int(found[k]) < position { k += 1 }
                    let icuSays = k < kept && Int(found[k]) == position
                    if position == n || (simple(position - 1) && simple(position)) || icuSays {
                        starts.append(Int32(position))
                    }
                }
            }
        }
    }

    /// The line-break opportunities and/or the hyphen positions (nil: not asked for) of a
    /// paragraph analysed without them, as ``analyze`` would give them: a paragraph shaped
    /// unwrapped is wrapped later (``CachedParagraph``).
    func wrapping(
        _ text: UnsafeBufferPointer<UInt16>, graphemeStarts: [Int32], lineBreaks: Bool, hyphenation: Bool
    ) throws(FitTextError) -> (canBreakBefore: [Bool]?, hyphenBefore: [Bool]?) {
        let clusters = graphemeStarts.count - 1
        var canBreak: [Bool]? = nil
        var hyphen: [Bool]? = nil
        if lineBreaks {
            var opportunities = Array(repeatElement(false, count: clusters))
            if clusters > 0 { try markLineBreaks(text, graphemeStarts: graphemeStarts, into: &opportunities) }
            canBreak = opportunities
        }
        if hyphenation, let ascii = asciiHyphens(text, clusters: clusters) {
            hyphen = ascii
        } else if hyphenation {
            // The scripts as ICU gives them, before Common and Inherited take their
            // neighbours' (as ``analyze`` passes them).
            let rawScripts = (0..<clusters).map { c -> Int32 in
                let scalar = TextAnalyzer.scalar(at: Int(graphemeStarts[c]), in: text)
                return scalar < 0x80 ? TextAnalyzer.asciiScript(scalar) : fit_script(scalar)
            }
            hyphen = clusters > 0 ? try hyphenPositions(text, graphemeStarts: graphemeStarts, rawScripts: rawScripts) : []
        }
        return (canBreak, hyphen)
    }

    /// Line-break opportunities as Pango finds them (``PangoLineBreaks``, UAX #14 as break.c
    /// implements it), at cluster starts: `canBreak[c]` is set when a line may break before
    /// cluster `c` > 0.
    private func markLineBreaks(_ text: UnsafeBufferPointer<UInt16>, graphemeStarts starts: [Int32], into canBreak: inout [Bool]) throws(FitTextError) {
        let clusters = starts.count - 1
        // Plain ASCII, each code unit a cluster: from its own rules, without the pass over classes.
        if clusters == text.count && asciiBreaksCheck.fastPathsAgree(self) && AsciiLineBreaks.mark(text, into: &canBreak) { return }
        PangoLineBreaks.mark(text, graphemeStarts: starts, into: &canBreak)
        // Thai: libthai's dictionary breaks, as Pango's break_thai adds them.
        ComplexContextBreaks.tailor(text, graphemeStarts: starts, canBreak: &canBreak)
    }

    /// Pango's line-break opportunities of `text`, each code unit a cluster: for each, a break
    /// before it (the reference of the ASCII fast path's check and tests, AsciiLineBreaks).
    func pangoLineBreaks(_ text: [UInt16]) -> [Bool] {
        var breaks = [Bool](repeating: false, count: text.count)
        guard !text.isEmpty else { return breaks }
        let starts = (0...text.count).map { Int32($0) }
        text.withUnsafeBufferPointer { units in PangoLineBreaks.mark(units, graphemeStarts: starts, into: &breaks) }
        return breaks
    }

    /// The hyphen positions of ASCII `text` through ICU's word boundaries, each code unit a
    /// cluster (for the fast path's check and tests, AsciiHyphens).
    func icuHyphenPositions(_ text: [UInt16]) throws(FitTextError) -> [Bool] {
        let starts = (0...text.count).map { Int32($0) }
        let scripts = text.map { TextAnalyzer.asciiScript(UInt32($0)) }
        return try text.withUnsafeBufferPointer { units throws(FitTextError) in
            try hyphenPositions(units, graphemeStarts: starts, rawScripts: scripts)
        }
    }

    /// Whether both ASCII fast paths give what their references give for `text` (ASCII, each
    /// code unit a cluster; AsciiBreaksCheck's probes): the line breaks Pango's pass over the
    /// classes gives, the hyphen positions the path through ICU's word iterator gives.
    func fastPathsAgreeWithReference(_ text: [UInt16]) throws(FitTextError) -> Bool {
        var fast = [Bool](repeating: false, count: text.count)
        if text.withUnsafeBufferPointer({ AsciiLineBreaks.mark($0, into: &fast) }) {
            guard fast == pangoLineBreaks(text) else { return false }
        }
        let icu = try icuHyphenPositions(text)
        return text.withUnsafeBufferPointer { AsciiHyphens.positions($0) } == icu
    }

    /// Hyphen positions of plain ASCII, each code unit a cluster, where this ICU agrees
    /// (AsciiHyphens); nil otherwise.
    private func asciiHyphens(_ text: UnsafeBufferPointer<UInt16>, clusters: Int) -> [Bool]? {
        guard clusters == text.count, asciiBreaksCheck.fastPathsAgree(self) else { return nil }
        return AsciiHyphens.positions(text)
    }

    /// ICU's grapheme cluster starts of `text`, then its length (for tests of the fast paths).
    func icuGraphemeStarts(_ text: [UInt16]) throws(FitTextError) -> [Int32] {
        var out = [Int32](repeating: 0, count: text.count + 1)
        let count = try text.withUnsafeBufferPointer { units throws(FitTextError) -> Int in
            try out.withUnsafeMutableBufferPointer { buffer throws(FitTextError) -> Int in
                try graphemes.boundaries(of: units, into: buffer.baseAddress)
            }
        }
        return [0] + out[0..<Int(count)]
    }

    /// Hyphen positions from ICU's word boundaries and Pango's rules (plain ASCII takes
    /// ``asciiHyphens(_:clusters:)`` first, at the callers, before raw scripts are made).
    private func hyphenPositions(_ text: UnsafeBufferPointer<UInt16>, graphemeStarts: [Int32], rawScripts: [Int32]) throws(FitTextError) -> [Bool] {
        let clusters = graphemeStarts.count - 1
        guard text.baseAddress != nil else { return [] }
        // The word boundaries go to temporary buffers (on the stack when small), and the result
        // is made from a sequence: `[Bool](repeating:count:)` allocates through the generic,
        // unspecialized path, a metadata lookup per array, and this ran for every wrapped text.
        var hyphen = Array(repeatElement(false, count: clusters))
        try withUnsafeTemporaryAllocation(of: Int32.self, capacity: text.count + 1) { boundaries throws(FitTextError) in
            try withUnsafeTemporaryAllocation(of: Bool.self, capacity: max(clusters, 1)) { wordBoundary throws(FitTextError) in
                wordBoundary.initialize(repeating: false)
                let count = try words.boundaries(of: text, into: boundaries.baseAddress)
                var cluster = 0
                for i in 0..<Int(count) {
                    while cluster < clusters && graphemeStarts[cluster] < boundaries[i] { cluster += 1 }
                    if cluster < clusters && graphemeStarts[cluster] == boundaries[i] { wordBoundary[cluster] = true }
                }
                // Pango's break.c ("--- Hyphens ---"): no hyphen at a word boundary or next to a
                // space or hyphen; after a Common-script character (digits, punctuation) only
                // after a soft hyphen; never after Han, Hangul or kana; after every other script
                // (Tibetan too). ICU's word iterator has dictionary words in Thai, Lao, Khmer and
                // Myanmar, and none between other complex-context letters, where break.c's own
                // word pass has a boundary beside every such letter (``isComplexContextLetter``).
                // Each test only when the ones before it allow a hyphen (most positions are word
                // boundaries or fail the script test).
                for c in 1..<max(clusters, 1) where !wordBoundary[c] {
                    let before = TextAnalyzer.scalar(at: Int(graphemeStarts[c - 1]), in: text)
                    let previousScript = rawScripts[c - 1]
                    let inserts: Bool
                    switch previousScript {
                    case Int32(FIT_SCRIPT_COMMON): inserts = before == 0xAD
                    case Int32(FIT_SCRIPT_HAN), Int32(FIT_SCRIPT_HANGUL), Int32(FIT_SCRIPT_HIRAGANA), Int32(FIT_SCRIPT_KATAKANA):
                        inserts = false
                    default: inserts = !TextAnalyzer.isComplexContextLetter(before)
                    }
                    guard inserts, !TextAnalyzer.isSpaceOrHyphen(before) else { continue }
                    let after = TextAnalyzer.scalar(at: Int(graphemeStarts[c]), in: text)
                    guard !TextAnalyzer.isSpaceOrHyphen(after), !TextAnalyzer.isComplexContextLetter(after) else { continue }
                    // break.c decides the hyphen when it reaches the position, before WB6 (letter ×
                    // MidLetter/MidNumLet letter) takes back its word boundary: so none before such
                    // a character ("photo|.jpg"), unless WB7a held already (Hebrew letter × ').
                    let provisionalBoundary = TextAnalyzer.isWordMid(after)
                        && !(after == 0x27 && previousScript == Int32(FIT_SCRIPT_HEBREW) && fit_char_type(before) == 5 /* U_OTHER_LETTER */)
                    hyphen[c] = !provisionalBoundary
                }
            }
        }
        return hyphen
    }

    /// Pango 1.50's grapheme clusters where ICU's differ. Pango's own rules (break.c,
    /// "Grapheme Cluster Boundary Rules") follow general categories, not UAX #29's
    /// Grapheme_Cluster_Break property, and predate GB9c:
    /// - a letter after a virama starts a cluster (ICU 72 keeps Indic conjuncts whole, GB9c),
    ///   so char wrapping breaks `सेटिंग्स` as से|टिं|ग्|स; inside an ICU cluster of those
    ///   scripts a letter only follows GB9c or U+0D4E (Prepend), after which it stays;
    /// - U+0E33 and U+0EB3 (SARA AM, letters) start a cluster, where UAX #29 calls them
    ///   SpacingMark;
    /// - every spacing mark continues its cluster (GB9a), also the Myanmar, Tai Tham… ones
    ///   UAX #29 leaves out of SpacingMark (`များ` is one cluster);
    /// - break-indic.c (break_indic, default case): after a ZWJ or ZWNJ that does not start
    ///   the item, neither the next character nor, when that is a virama, the one after it
    ///   starts a cluster (`ಗ್‌ಗ` stays whole) — when they are in the joiner's item: break_indic
    ///   sees one item's text (break.c break_script), and its `next_wc` is 0 past the item's
    ///   end. A character of another script starts another item (`ല്‍a`: the `a` is a cluster
    ///   and a run of its own, in the Latin font); so does one in another font, which only
    ///   itemizing knows: here only characters of the Indic blocks are taken as the joiner's
    ///   item. A space after a joiner stays a cluster of its own too: Pango breaks lines by
    ///   character (is_white, is_line_break), so `ന്‍ ` ending a line drops its space, as a
    ///   white-space cluster does here.
    static func splitConjuncts(_ starts: inout [Int32], in text: UnsafeBufferPointer<UInt16>) {
        guard text.contains(where: { $0 >= 0x900 && $0 <= 0xD7F || $0 == 0xE33 || $0 == 0xEB3 || $0 >= 0x102B && $0 <= 0x109C
            || $0 >= 0x1A61 && $0 <= 0x1A64 || $0 == 0xAA7B || $0 == 0xAA7D || $0 == 0xD805 })
        else { return }
        var split: [Int32] = []
        for c in 0..<max(starts.count - 1, 0) {
            var unit = Int(starts[c]) + 1
            var previous = scalar(at: Int(starts[c]), in: text)
            if previous > 0xFFFF { unit += 1 }
            while unit < Int(starts[c + 1]) {
                let current = scalar(at: unit, in: text)
                let conjunct = current >= 0x900 && current <= 0xD7F && previous != 0xD4E && fit_char_type(current) == 5 /* U_OTHER_LETTER */
                if conjunct || current == 0xE33 || current == 0xEB3 {
                    if split.isEmpty { split.reserveCapacity(starts.count + 4) }
                    split.append(Int32(unit))
                }
                previous = current
                unit += current > 0xFFFF ? 2 : 1
            }
        }
        var joined = Set<Int32>()
        for c in 1..<max(starts.count - 1, 1) where isPangoSpacingMark(scalar(at: Int(starts[c]), in: text)) {
            joined.insert(starts[c])
        }
        if text.count > 1 {
            for unit in 1..<text.count where text[unit] == 0x200C || text[unit] == 0x200D {
                guard isIndicOrJoiner(text[unit - 1]), unit + 1 < text.count, isIndicOrJoiner(text[unit + 1]) else { continue }
                joined.insert(Int32(unit + 1))
                if unit + 2 < text.count, TextAnalyzer.viramas.contains(text[unit + 1]), isIndicOrJoiner(text[unit + 2]) {
                    joined.insert(Int32(unit + 2))
                }
            }
        }
        guard !split.isEmpty || !joined.isEmpty else { return }
        starts.append(contentsOf: split)
        starts.sort()
        if !joined.isEmpty {
            let last = starts.count - 1
            starts = starts.enumerated().filter { $0.offset == 0 || $0.offset == last || !joined.contains($0.element) }.map(\.element)
        }
    }

    /// A code unit of the Indic blocks break-indic.c serves (U+0900–U+0D7F), or a joiner.
    private static func isIndicOrJoiner(_ unit: UInt16) -> Bool {
        unit >= 0x900 && unit <= 0xD7F || unit == 0x200C || unit == 0x200D
    }

    /// The spacing marks (Mc) UAX #29 leaves out of SpacingMark, which Pango joins to the
    /// cluster before them like every other (break.c: G_UNICODE_SPACING_MARK → GB9a).
    static func isPangoSpacingMark(_ c: UInt32) -> Bool {
        switch c {
        case 0x102B, 0x102C, 0x1038, 0x1062...0x1064, 0x1067...0x106D, 0x1083, 0x1087...0x108C, 0x108F, 0x109A...0x109C,
            0x1A61, 0x1A63, 0x1A64, 0xAA7B, 0xAA7D, 0x11720, 0x11721:
            return true
        default:
            return false
        }
    }

    /// The viramas break-indic.c lists (Bengali, Gujarati, Devanagari, Kannada, Malayalam,
    /// Oriya, Gurmukhi, Tamil, Telugu).
    static let viramas: Set<UInt16> = [0x9CD, 0xACD, 0x94D, 0xCCD, 0xD4D, 0xB4D, 0xA4D, 0xBCD, 0xC4D]

    /// Whether UAX #9 can give any of `text` a level above 0. Without right-to-left letters
    /// (R, AL), Arabic digits (AN) and explicit embeddings, isolates or marks, the paragraph
    /// is left-to-right (P2–P3), European digits after its start become L (W7), and every
    /// level stays 0. The BMP's R, AL and AN characters all lie in U+0590–U+08FF,
    /// U+FB1D–U+FDFF and U+FE70–U+FEFF (DerivedBidiClass.txt, also for unassigned code
    /// points); outside the BMP (10800–10FFF, 1E800–1EFFF) they need surrogates, which are
    /// counted as possibly right-to-left.
    static func mayBeRightToLeft(_ text: UnsafeBufferPointer<UInt16>) -> Bool {
        for unit in text where unit >= 0x590 {
            switch unit {
            case 0x590...0x8FF, 0xD800...0xDFFF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                return true
            default: continue
            }
        }
        return false
    }

    /// `count` copies of `value`, in `array`'s storage when it has room.
    static func filled<T>(_ value: T, count: Int, reusing array: [T]?) -> [T] {
        guard var array else { return [T](repeating: value, count: count) }
        array.append(contentsOf: repeatElement(value, count: count))
        return array
    }

    /// break.c's space_or_hyphen: space separators, tab/CR/LF/FF, and the hyphen characters.
    static func isSpaceOrHyphen(_ c: UInt32) -> Bool {
        // ASCII from a bit mask (0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x2D): a hyphen is decided at
        // every position of every wrapped paragraph.
        if c < 0x80 { return c < 0x40 && (0x0000_2001_0000_3600 as UInt64) >> UInt64(c) & 1 == 1 }
        switch c {
        case 0x09, 0x0A, 0x0D, 0x0C, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return isHyphen(c)
        }
    }

    /// A complex-context character (Line_Break SA: Thai, Lao, Khmer, Myanmar, Tai Tham…) that is
    /// not a mark or format character: break.c's word pass makes a letter ALetter only when its
    /// line-break class is not SA, so such a character is WB "Other", with a word boundary on
    /// either side (WB999) — and no hyphen there. Their digits are NU, not SA: WB8 joins them,
    /// and a break between two takes a hyphen (`๑๒‐`).
    static func isComplexContextLetter(_ c: UInt32) -> Bool {
        guard c >= 0xE00, fit_is_complex_context(c) != 0 else { return false }
        switch fit_char_type(c) {
        case 6, 7, 8, 16: return false  // Mn, Me, Mc, Cf: Extend and Format to the word rules
        default: return true
        }
    }

    /// Pango's word-break classes MidLetter, MidNumLet (with the apostrophe) and MidNum
    /// (break.c, "Find the WordBreakType of wc"), and U+0022: the characters at which break.c's
    /// word boundary is still set when the hyphens are decided (WB999; WB6/7b/12 clear it later).
    static func isWordMid(_ c: UInt32) -> Bool {
        // ASCII from a bit mask: 0x22, 0x27, 0x2C, 0x2E, 0x3A, 0x3B.
        if c < 0x80 { return c < 0x40 && (0x0C00_5084_0000_0000 as UInt64) >> UInt64(c) & 1 == 1 }
        switch c {
        case 0x22, 0x27, 0x2C, 0x2E, 0x3A, 0x3B, 0xB7, 0x37E, 0x387, 0x55F, 0x589, 0x5F4, 0x60C, 0x60D, 0x66C, 0x7F8,
            0x2018, 0x2019, 0x2024, 0x2027, 0x2044, 0xFE10, 0xFE13, 0xFE14, 0xFE50, 0xFE52, 0xFE54, 0xFE55,
            0xFF07, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B:
            return true
        default: return false
        }
    }

    static func isHyphen(_ c: UInt32) -> Bool {
        switch c {
        case 0x2D, 0x58A, 0x1400, 0x1806, 0x2010, 0x2E17, 0x2E40, 0x30A0, 0xFE63, 0xFF0D: return true
        default: return false
        }
    }

    /// ASCII letters are Latin, everything else in ASCII is Common (UAX #24).
    static func asciiScript(_ c: UInt32) -> Int32 {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) ? Int32(FIT_SCRIPT_LATIN) : Int32(FIT_SCRIPT_COMMON)
    }

    /// The code point starting at `index` (a lone surrogate reads as itself).
    static func scalar(at index: Int, in text: UnsafeBufferPointer<UInt16>) -> UInt32 {
        let unit = text[index]
        if UTF16.isLeadSurrogate(unit), index + 1 < text.count, UTF16.isTrailSurrogate(text[index + 1]) {
            return 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(text[index + 1]) - 0xDC00)
        }
        return UInt32(unit)
    }

    /// White space that hangs at the end of a wrapped line: Pango's `is_white` (break.c,
    /// default_break: general category Zs, Zl, Zp, and tab, LF, CR, FF). The no-break spaces
    /// U+00A0, U+2007 and U+202F are Zs: they glue at line-break opportunities (GL), but a char
    /// break after one drops its width like a space's (`find_break_extra_width`,
    /// `zero_line_final_space`; PANGO_RULES.md, "Pango's line breaking over GLib's classes").
    static func isWhiteSpace(_ c: UInt32) -> Bool {
        switch c {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
}
