import CHarfBuzz
import Synchronization

/// A run shaped by HarfBuzz, reduced to what measuring needs: the advance of every cluster
/// HarfBuzz formed (kerning, ligatures and marks already applied), in logical order.
struct ShapedRun: Sendable {
    struct Cluster: Sendable {
        /// UTF-16 offset (within the run) where the cluster starts; ascending over the run.
        var start: Int32
        /// Advance in px.
        var advance: Double
        /// HarfBuzz says the run may be cut before this cluster without shaping either side
        /// again (no glyph of it has HB_GLYPH_FLAG_UNSAFE_TO_BREAK: no kerning, ligature or
        /// context reaches across). false when not known (a run from a warm-start file).
        var safeBefore = false
    }

    /// One array, not one per field: a run costs one allocation (measured: allocation and
    /// release were a fifth of a cold measurement).
    var clusters: [Cluster]
    /// Clusters holding glyphs the font does not have (.notdef), where Pango draws a hex box
    /// instead: index into `clusters`, the advance of those glyphs, how many of them show a
    /// code point above U+FFFF (three columns of digits) and how many not (two).
    var missing: [MissingGlyphs] = []

    struct MissingGlyphs: Sendable {
        var cluster: Int
        var notdefAdvance: Double
        var narrowBoxes: Int
        var wideBoxes: Int
    }

    var width: Double { clusters.reduce(0) { $0 + $1.advance } }

    /// The clusters starting in `from..<to` (UTF-16 offsets in the run), rebased to `from`;
    /// nil when a cluster crosses either end, or when glyphs are missing.
    ///
    /// The search starts at cluster `cursor`, which is left where the slice ends: cutting a
    /// run into its words in order reads each cluster once. (Searching from 0 for every word
    /// would make cutting an n-word run cost n², seconds for 256 KiB of prose.)
    func slice(from: Int32, to: Int32, cursor: inout Int) -> ShapedRun? {
        guard missing.isEmpty else { return nil }
        var first = min(max(cursor, 0), clusters.count)
        // A cursor past `from` (not how words are cut): start over.
        if first > 0 && clusters[first - 1].start >= from { first = 0 }
        while first < clusters.count && clusters[first].start < from { first += 1 }
        var end = first
        while end < clusters.count && clusters[end].start < to { end += 1 }
        cursor = end
        guard first < clusters.count, clusters[first].start == from, end == clusters.count || clusters[end].start == to
        else { return nil }
        // Copied whole (one allocation of the exact size, one copy), then rebased in place:
        // `map` appended element by element (FitBenchRatios fitd-cold, callgrind).
        var word = Array(clusters[first..<end])
        word.withUnsafeMutableBufferPointer { word in
            for k in word.indices { word[k].start -= from }
        }
        return ShapedRun(clusters: word)
    }

    func slice(from: Int32, to: Int32) -> ShapedRun? {
        var cursor = 0
        return slice(from: from, to: to, cursor: &cursor)
    }

    /// Approximate memory held, for the byte-bounded cache.
    /// By capacity, not count: an array grown by appending holds up to twice what it counts,
    /// and by count a run of a 1 MiB paragraph is 16 MB short (RSS must match GetStats).
    var byteCount: Int { 64 + clusters.capacity * MemoryLayout<Cluster>.stride + missing.capacity * 32 }
}

/// Everything that changes how a run shapes; the key of the shaped-run cache. Compact: the
/// language and the feature list are interned ids, so hashing a key reads the text and four
/// integers (the key once held the language and the features as strings, whose hashing was
/// most of a lookup). Text of up to 16 code units — most words, most short strings — is held
/// inline: a key built for a lookup allocates nothing, and a stored one frees nothing.
struct ShapeKey: Hashable, Sendable {
    var fontID: Int32
    var script: Int32
    /// The item's derived language (PANGO_RULES.md §3) as HarfBuzz's interned `hb_language_t`
    /// (its address; HarfBuzz keeps each language for the life of the process).
    var language: UInt
    /// Id of the feature list (``FeatureTable``).
    var features: Int32
    var rightToLeft: Bool
    /// The run continues a cluster cut at the stream-safe bound (``StreamSafeClusters``): it
    /// is shaped without a dotted circle before a leading mark.
    var continuation: Bool
    /// Code units of the text; the unused tail of `inline` is zero.
    private(set) var count: Int32
    private var inline: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The text when longer than 16 code units; empty otherwise (no allocation).
    private var spilled: [UInt16] = []

    static let inlineCapacity = 16

    init(
        fontID: Int32, script: Int32, language: UInt, features: Int32, rightToLeft: Bool, continuation: Bool = false,
        text: UnsafeBufferPointer<UInt16>
    ) {
        self.fontID = fontID
        self.script = script
        self.language = language
        self.features = features
        self.rightToLeft = rightToLeft
        self.continuation = continuation
        count = Int32(text.count)
        if text.count <= ShapeKey.inlineCapacity {
            withUnsafeMutableBytes(of: &inline) { $0.copyMemory(from: UnsafeRawBufferPointer(text)) }
        } else {
            spilled = Array(text)
        }
    }

    /// Where the key goes among a cache's shards (ByteBoundedCache): its first code units,
    /// length and font mixed by a multiply each (Fibonacci hashing), far cheaper than a second
    /// run of ``hash(into:)`` over the whole text.
    var shardHint: Int {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var x = (UInt64(UInt32(bitPattern: count)) << 32 | UInt64(UInt32(bitPattern: fontID))) &* k
        x = (x ^ inline.0) &* k
        x = (x ^ inline.1) &* k
        if spilled.count >= 4 {
            // A long text: its first, middle and last four code units.
            spilled.withUnsafeBytes { bytes in
                let end = bytes.count - 8
                x = (x ^ bytes.loadUnaligned(as: UInt64.self)) &* k
                x = (x ^ bytes.loadUnaligned(fromByteOffset: end / 2, as: UInt64.self)) &* k
                x = (x ^ bytes.loadUnaligned(fromByteOffset: end, as: UInt64.self)) &* k
            }
        } else {
            x = (x ^ inline.2 ^ inline.3) &* k
        }
        return Int(truncatingIfNeeded: x >> 32)
    }

    /// The text, for tests and diagnostics.
    var text: [UInt16] {
        if !spilled.isEmpty || count == 0 { return spilled }
        return withUnsafeBytes(of: inline) { Array($0.bindMemory(to: UInt16.self).prefix(Int(count))) }
    }

    static func == (a: ShapeKey, b: ShapeKey) -> Bool {
        a.fontID == b.fontID && a.script == b.script && a.language == b.language && a.features == b.features
            && a.rightToLeft == b.rightToLeft && a.continuation == b.continuation && a.count == b.count
            && a.inline.0 == b.inline.0 && a.inline.1 == b.inline.1 && a.inline.2 == b.inline.2 && a.inline.3 == b.inline.3
            && a.spilled == b.spilled
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(UInt32(bitPattern: fontID)) << 32 | UInt64(UInt32(bitPattern: script)))
        hasher.combine(language)
        hasher.combine(
            UInt64(UInt32(bitPattern: features)) << 32 | UInt64(UInt32(bitPattern: count)) << 2 | (continuation ? 2 : 0)
                | (rightToLeft ? 1 : 0))
        if spilled.isEmpty {
            hasher.combine(inline.0)
            if count > 4 { hasher.combine(inline.1) }
            if count > 8 { hasher.combine(inline.2) }
            if count > 12 { hasher.combine(inline.3) }
        } else {
            spilled.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    var byteCount: Int { 64 + spilled.capacity * 2 }
}

enum Shaper {
    /// Shapes `text` with `font`. Runs are one font, one script, one direction (the
    /// itemizer's contract), so the buffer properties are set, not guessed.
    /// `continuation`: the run goes on from a cluster cut at the stream-safe bound
    /// (``StreamSafeClusters``), so a leading mark gets no dotted circle. `characters`: the
    /// clusters Pango's own shaping makes (HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS, shape.c:
    /// a mark is its own cluster unless the font joins it), which ellipsizing removes
    /// (``EllipsisClusters``); otherwise grapheme clusters, what fitd measures by.
    static func shape(
        _ text: UnsafeBufferPointer<UInt16>, font: Font, rightToLeft: Bool, script: Int32, language: UInt,
        features: [hb_feature_t], continuation: Bool = false, characters: Bool = false, pieces: RunPieces = .standard
    ) -> ShapedRun {
        buffers.withBuffer { buffer in
            if text.count > pieces.units {
                if let run = shapeInPieces(
                    text, in: buffer, font: font, rightToLeft: rightToLeft, script: script, language: language, features: features,
                    continuation: continuation, characters: characters, pieces: pieces)
                {
                    return run
                }
                hb_buffer_clear_contents(buffer)
            }
            return shape(
                text, item: 0..<text.count, in: buffer, font: font, rightToLeft: rightToLeft, script: script, language: language,
                features: features, continuation: continuation, characters: characters
            ).run
        } ?? ShapedRun(clusters: [])
    }

    /// How a long run is shaped: in pieces of `units` UTF-16 units, each cut at the last
    /// cluster HarfBuzz marks safe to break before that is at least `margin` units from the
    /// piece's end; what lies beyond the cut is shaped with the next piece. A piece cannot
    /// see a lookup that reaches past its end, which the margin leaves to lookups spanning
    /// hundreds of characters (none in practice: kerning, ligatures and contextual forms
    /// reach a few glyphs).
    struct RunPieces: Sendable {
        var units: Int
        var margin: Int
        /// 4,096 units: HarfBuzz's buffer for a 1 MiB run held some 43 MB (its glyph infos
        /// and positions, 40 bytes a glyph: valgrind --tool=massif on fitctl measuring 1 MB
        /// of prose), and two workers' worth of it took the release daemon to 235 and 267 MB
        /// under isolation.sh's flood (its budget: 256). A piece's buffer is the pool's
        /// largest kept buffer.
        static let standard = RunPieces(units: Int(BufferPool.largestKept), margin: 256)
    }

    /// `text` shaped piece by piece (``RunPieces``), each piece with the text around it as
    /// HarfBuzz's context (it keeps five code points each side, HB_BUFFER_CONTEXT_LENGTH), so
    /// that the clusters before each cut are those of the whole run. A piece without a cut
    /// (a long stretch HarfBuzz marks unsafe throughout: kerned pairs in a row, tatweels) is
    /// shaped with the rest of the run, from the last cut. nil when a piece's clusters are
    /// out of order (a font reordering glyphs): then the run is shaped whole, as before.
    /// (Internal for tests, which must know that a run was cut, not shaped whole.)
    static func shapeInPieces(
        _ text: UnsafeBufferPointer<UInt16>, font: Font, rightToLeft: Bool, script: Int32, language: UInt,
        features: [hb_feature_t], continuation: Bool = false, pieces: RunPieces
    ) -> ShapedRun? {
        buffers.withBuffer { buffer in
            shapeInPieces(
                text, in: buffer, font: font, rightToLeft: rightToLeft, script: script, language: language, features: features,
                continuation: continuation, characters: false, pieces: pieces)
        } ?? nil
    }

    private static func shapeInPieces(
        _ text: UnsafeBufferPointer<UInt16>, in buffer: OpaquePointer, font: Font, rightToLeft: Bool, script: Int32,
        language: UInt, features: [hb_feature_t], continuation: Bool, characters: Bool, pieces: RunPieces
    ) -> ShapedRun? {
        // At most a cluster a unit, reserved at once: grown by doubling, the array held the
        // old copy and a new one twice the size at the same time (72 MB for 1 MiB, massif).
        var clusters: [ShapedRun.Cluster] = []
        clusters.reserveCapacity(text.count)
        var missing: [ShapedRun.MissingGlyphs] = []
        var start = 0
        while start < text.count {
            var end = text.count - start > pieces.units ? start + pieces.units : text.count
            var piece: ShapedRun
            // The cut: the first cluster the next piece shapes. The last piece keeps all.
            var cut: Int
            while true {
                hb_buffer_clear_contents(buffer)
                let shaped = shape(
                    text, item: start..<end, in: buffer, font: font, rightToLeft: rightToLeft, script: script,
                    language: language, features: features, continuation: continuation, characters: characters)
                guard shaped.sorted else { return nil }
                piece = shaped.run
                cut = piece.clusters.count
                if end == text.count { break }
                let latest = Int32(end - pieces.margin)
                if let safe = piece.clusters.lastIndex(where: { $0.safeBefore && $0.start <= latest }), safe > 0,
                    piece.clusters[safe].start > Int32(start)
                {
                    cut = safe
                    break
                }
                // No cut here: `start` is one, so the rest of the run from it is a piece.
                end = text.count
            }
            // The first cluster of a later piece starts at a cut chosen as safe in the piece
            // before: HarfBuzz, given only context before it, may not say so itself.
            if start > 0, !piece.clusters.isEmpty { piece.clusters[0].safeBefore = true }
            for var glyphs in piece.missing where glyphs.cluster < cut {
                glyphs.cluster += clusters.count
                missing.append(glyphs)
            }
            clusters.append(contentsOf: piece.clusters[..<cut])
            start = cut < piece.clusters.count ? Int(piece.clusters[cut].start) : end
        }
        return ShapedRun(clusters: clusters, missing: missing)
    }

    /// Shapes `text[item]`, with the text around it as context; cluster starts are offsets
    /// in `text`. The buffer is empty on entry. `sorted`: HarfBuzz's clusters came in order
    /// (else they were merged, and none is known to be safe to break before).
    private static func shape(
        _ text: UnsafeBufferPointer<UInt16>, item: Range<Int>, in buffer: OpaquePointer, font: Font, rightToLeft: Bool,
        script: Int32, language: UInt, features: [hb_feature_t], continuation: Bool, characters: Bool = false
    ) -> (run: ShapedRun, sorted: Bool) {
        fill(
            buffer, text, item: item, rightToLeft: rightToLeft, script: script, language: language, continuation: continuation,
            characters: characters)
        features.withUnsafeBufferPointer { list in
            hb_shape(font.hbFont, buffer, list.baseAddress, UInt32(list.count))
        }

        var glyphCount: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &glyphCount),
            let positions = hb_buffer_get_glyph_positions(buffer, &glyphCount)
        else { return (ShapedRun(clusters: []), true) }

        // Sum advances per cluster (in integer units, then to px: exact), straight into the
        // run's one array. Glyphs of a cluster are contiguous; RTL output is in visual
        // (reversed) order, so it is read backwards.
        let count = Int(glyphCount)
        var clusters: [ShapedRun.Cluster] = []
        clusters.reserveCapacity(count)
        var anyMissing = false
        var sorted = true
        var current: Int32 = 0
        var sum: Int64 = 0
        // The .notdef glyphs of the cluster being summed, and of those before (rare: only text
        // no font covers), gathered in the same pass: a table by cluster made this a hash
        // lookup per glyph, a fifth of measuring a long text of tabs (FitBenchCost).
        var missing: [ShapedRun.MissingGlyphs] = []
        let none = ShapedRun.MissingGlyphs(cluster: -1, notdefAdvance: 0, narrowBoxes: 0, wideBoxes: 0)
        var pending = none
        var unsafe = false
        let unsafeToBreak = HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue
        for k in 0..<count {
            let i = rightToLeft ? count - 1 - k : k
            let cluster = Int32(bitPattern: infos[i].cluster)
            let advance = font.advanceUnits(positions[i].x_advance)
            if k > 0 && cluster == current {
                sum += advance
                if infos[i].mask & unsafeToBreak != 0 { unsafe = true }
            } else {
                if k > 0 {
                    clusters.append(ShapedRun.Cluster(start: current, advance: Double(sum) / Font.unitsPerPixel, safeBefore: !unsafe))
                    if pending.cluster >= 0 {
                        pending.cluster = clusters.count - 1
                        missing.append(pending)
                        pending = none
                    }
                    if cluster <= current { sorted = false }
                }
                current = cluster
                sum = advance
                unsafe = infos[i].mask & unsafeToBreak != 0
            }
            if infos[i].codepoint == 0 {
                anyMissing = true
                pending.cluster = 0
                // Pango replaces each .notdef glyph with a box showing the code point in hex:
                // three columns of digits above U+FFFF (a surrogate pair), two below.
                pending.notdefAdvance += Double(advance) / Font.unitsPerPixel
                let unit = Int(cluster) < text.count ? text[Int(cluster)] : 0
                if UTF16.isLeadSurrogate(unit) { pending.wideBoxes += 1 } else { pending.narrowBoxes += 1 }
            }
        }
        if count > 0 {
            clusters.append(ShapedRun.Cluster(start: current, advance: Double(sum) / Font.unitsPerPixel, safeBefore: !unsafe))
            if pending.cluster >= 0 {
                pending.cluster = clusters.count - 1
                missing.append(pending)
            }
        }
        if !sorted { clusters = unsortedClusters(infos: infos, positions: positions, count: count, rightToLeft: rightToLeft, font: font) }
        var run = ShapedRun(clusters: clusters)
        if anyMissing {
            run.missing = sorted ? missing : missingGlyphs(infos: infos, positions: positions, count: count, text: text, clusters: run.clusters)
        }
        return (run, sorted)
    }

    /// Puts `text[item]` in the empty buffer, the text around it as context, with the
    /// direction, script, language, cluster level and flags Pango shapes an item with.
    @inline(__always)
    private static func fill(
        _ buffer: OpaquePointer, _ text: UnsafeBufferPointer<UInt16>, item: Range<Int>, rightToLeft: Bool, script: Int32,
        language: UInt, continuation: Bool, characters: Bool
    ) {
        hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), UInt32(item.lowerBound), Int32(item.count))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, Shaper.hbScript(script))
        hb_buffer_set_language(buffer, OpaquePointer(bitPattern: language))
        hb_buffer_set_cluster_level(
            buffer, characters ? HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS : HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
        // Pango shapes every item as the beginning and end of text (shape.c): a leading mark
        // gets HarfBuzz's dotted circle, as it does in GTK. A later piece of a long run
        // (shapeInPieces) begins mid-text, at a cluster: neither BOT (its context is read)
        // nor DO_NOT_INSERT_DOTTED_CIRCLE, which would also drop the circles of broken
        // syllables inside it that the whole run gets. Only the last piece ends the text.
        let start =
            continuation
            ? HB_BUFFER_FLAG_DO_NOT_INSERT_DOTTED_CIRCLE.rawValue : item.lowerBound == 0 ? HB_BUFFER_FLAG_BOT.rawValue : 0
        let end = item.upperBound == text.count ? HB_BUFFER_FLAG_EOT.rawValue : 0
        hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: start | end))
    }

    /// The clusters of output whose clusters are not monotone (a font is untrusted input): each
    /// cluster value's advances summed wherever its glyphs are (``mergeUnsorted(_:)``).
    private static func unsortedClusters(
        infos: UnsafeMutablePointer<hb_glyph_info_t>, positions: UnsafeMutablePointer<hb_glyph_position_t>, count: Int,
        rightToLeft: Bool, font: Font
    ) -> [ShapedRun.Cluster] {
        var totals: [(cluster: Int32, advance: Int64)] = []
        for k in 0..<count {
            let i = rightToLeft ? count - 1 - k : k
            totals.append((Int32(bitPattern: infos[i].cluster), font.advanceUnits(positions[i].x_advance)))
        }
        return mergeUnsorted(totals).map { ShapedRun.Cluster(start: $0.cluster, advance: Double($0.advance) / Font.unitsPerPixel) }
    }

    /// The .notdef glyphs per cluster, for output whose clusters are not monotone.
    private static func missingGlyphs(
        infos: UnsafeMutablePointer<hb_glyph_info_t>, positions: UnsafeMutablePointer<hb_glyph_position_t>, count: Int,
        text: UnsafeBufferPointer<UInt16>, clusters: [ShapedRun.Cluster]
    ) -> [ShapedRun.MissingGlyphs] {
        var missing: [Int32: ShapedRun.MissingGlyphs] = [:]
        for i in 0..<count where infos[i].codepoint == 0 {
            let cluster = Int32(bitPattern: infos[i].cluster)
            var entry = missing[cluster] ?? ShapedRun.MissingGlyphs(cluster: 0, notdefAdvance: 0, narrowBoxes: 0, wideBoxes: 0)
            entry.notdefAdvance += Double(positions[i].x_advance) / Font.unitsPerPixel
            // A cluster is an index into the text HarfBuzz was given; checked both ways anyway
            // (Int32(bitPattern:) of a value ≥ 2^31 is negative, and text[-1] would trap).
            let unit = cluster >= 0 && Int(cluster) < text.count ? text[Int(cluster)] : 0
            if UTF16.isLeadSurrogate(unit) { entry.wideBoxes += 1 } else { entry.narrowBoxes += 1 }
            missing[cluster] = entry
        }
        var result: [ShapedRun.MissingGlyphs] = []
        for (index, cluster) in clusters.enumerated() {
            if var entry = missing[cluster.start] {
                entry.cluster = index
                result.append(entry)
            }
        }
        return result
    }

    /// For the rare output whose clusters are not monotone (it cannot happen with the
    /// monotone cluster level, but a font is untrusted input): merge by cluster value.
    private static func mergeUnsorted(_ pairs: [(cluster: Int32, advance: Int64)]) -> [(cluster: Int32, advance: Int64)] {
        var totals: [Int32: Int64] = [:]
        for (cluster, advance) in pairs { totals[cluster, default: 0] += advance }
        return totals.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Buffers are reused: creating and destroying one per run was a tenth of HarfBuzz's
    /// share of a cold measurement.
    static let buffers = BufferPool()

    private static let scriptCache = ScriptTagCache()

    static func hbScript(_ icuScript: Int32) -> hb_script_t {
        scriptCache.hbScript(icuScript)
    }

    /// Parses "tnum,-liga,ss01=2" (HarfBuzz's feature syntax, which Pango's font-features
    /// attribute also uses) into features; unknown syntax is an error, not ignored.
    static func parseFeatures(_ list: [String]) throws(FitTextError) -> [hb_feature_t] {
        guard list.count <= TextLimits.maxFeatures else {
            throw .invalidArgument(name: "features", reason: "\(list.count) features; at most \(TextLimits.maxFeatures)")
        }
        var features: [hb_feature_t] = []
        for text in list {
            var feature = hb_feature_t()
            let ok = text.withCString { hb_feature_from_string($0, -1, &feature) }
            guard ok != 0, text.utf8.count <= 64 else {
                throw .invalidArgument(name: "features", reason: "\"\(text)\" is not an OpenType feature setting (e.g. \"tnum\", \"-liga\", \"ss01=2\")")
            }
            features.append(feature)
        }
        return features
    }
}

/// HarfBuzz buffers kept for reuse, each used by one caller at a time (taken out of the pool
/// while in use, cleared before it goes back).
final class BufferPool: Sendable {
    // Owned buffers, by address (OpaquePointer is not Sendable); the mutex makes the hand-over
    // between threads safe.
    private let idle: Mutex<[UInt]> = Mutex([])
    /// Glyphs of the largest buffer kept for reuse (a paragraph of a few pages).
    static let largestKept: UInt32 = 4096

    deinit {
        idle.withLock { list in
            for address in list { hb_buffer_destroy(OpaquePointer(bitPattern: address)) }
        }
    }

    /// nil only if HarfBuzz cannot allocate a buffer at all.
    func withBuffer<R>(_ body: (OpaquePointer) -> R) -> R? {
        guard let buffer = idle.withLock({ $0.popLast() }).flatMap({ OpaquePointer(bitPattern: $0) }) ?? hb_buffer_create()
        else { return nil }
        let result = body(buffer)
        // A buffer keeps the arrays it grew to (hb_buffer_clear_contents frees nothing): one
        // that shaped a 1 MiB paragraph held some 40 MB for good, counted by no cache. Only
        // buffers of an ordinary run go back to the pool.
        let large = hb_buffer_get_length(buffer) > BufferPool.largestKept
        // clear_contents also resets the properties and flags set above.
        hb_buffer_clear_contents(buffer)
        let kept = !large && idle.withLock { list -> Bool in
            guard list.count < 16 else { return false }
            list.append(UInt(bitPattern: buffer))
            return true
        }
        if !kept { hb_buffer_destroy(buffer) }
        return result
    }
}
