import CHarfBuzz

/// A run shaped by HarfBuzz, reduced to what measuring needs: the advance of every cluster
/// HarfBuzz formed (kerning, ligatures and marks already applied), in logical order.
struct ShapedRun: Sendable {
    /// UTF-16 offset (within the run) where each cluster starts, ascending.
    var clusterStarts: [Int32]
    /// Advance of each cluster in px.
    var clusterAdvances: [Double]
    /// Clusters holding glyphs the font does not have (.notdef), where Pango draws a hex box
    /// instead: index into the arrays above, the advance of those glyphs, how many of them
    /// show a code point above U+FFFF (three columns of digits) and how many not (two).
    var missing: [MissingGlyphs] = []

    struct MissingGlyphs: Sendable {
        var cluster: Int
        var notdefAdvance: Double
        var narrowBoxes: Int
        var wideBoxes: Int
    }

    var width: Double { clusterAdvances.reduce(0, +) }

    /// Approximate memory held, for the byte-bounded cache.
    var byteCount: Int { 64 + clusterStarts.count * 4 + clusterAdvances.count * 8 }
}

/// Everything that changes how a run shapes; the key of the shaped-run cache.
struct ShapeKey: Hashable, Sendable {
    var fontID: Int
    var text: [UInt16]
    var rightToLeft: Bool
    var script: Int32
    /// The item's derived language (PANGO_RULES.md §3): HarfBuzz picks localized forms by it.
    var language: String
    var features: [String]

    var byteCount: Int { 64 + language.utf8.count + text.count * 2 + features.reduce(0) { $0 + $1.utf8.count + 16 } }
}

enum Shaper {
    /// Shapes `key.text` with `font`. Runs are one font, one script, one direction (the
    /// itemizer's contract), so the buffer properties are set, not guessed.
    static func shape(_ key: ShapeKey, font: Font, features: [hb_feature_t]) -> ShapedRun {
        guard let buffer = hb_buffer_create() else { return ShapedRun(clusterStarts: [], clusterAdvances: []) }
        defer { hb_buffer_destroy(buffer) }
        key.text.withUnsafeBufferPointer { units in
            hb_buffer_add_utf16(buffer, units.baseAddress, Int32(units.count), 0, Int32(units.count))
        }
        hb_buffer_set_direction(buffer, key.rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, Shaper.hbScript(key.script))
        hb_buffer_set_language(buffer, hb_language_from_string(key.language, -1))
        hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
        // Pango shapes every item as the beginning and end of text (shape.c): a leading mark
        // gets HarfBuzz's dotted circle, as it does in GTK.
        hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: HB_BUFFER_FLAG_BOT.rawValue | HB_BUFFER_FLAG_EOT.rawValue))
        features.withUnsafeBufferPointer { list in
            hb_shape(font.hbFont, buffer, list.baseAddress, UInt32(list.count))
        }

        var glyphCount: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &glyphCount),
            let positions = hb_buffer_get_glyph_positions(buffer, &glyphCount)
        else { return ShapedRun(clusterStarts: [], clusterAdvances: []) }

        // Sum advances per cluster. Glyphs of a cluster are contiguous; RTL output is in visual
        // (reversed) order, so collect then sort by cluster.
        var pairs: [(Int32, Int64)] = []
        pairs.reserveCapacity(Int(glyphCount))
        var missing: [Int32: ShapedRun.MissingGlyphs] = [:]
        for i in 0..<Int(glyphCount) {
            let cluster = Int32(bitPattern: infos[i].cluster)
            let advance = Int64(positions[i].x_advance)
            if infos[i].codepoint == 0 {
                var entry = missing[cluster] ?? ShapedRun.MissingGlyphs(cluster: 0, notdefAdvance: 0, narrowBoxes: 0, wideBoxes: 0)
                entry.notdefAdvance += Double(advance) / Font.unitsPerPixel
                let unit = Int(cluster) < key.text.count ? key.text[Int(cluster)] : 0
                if UTF16.isLeadSurrogate(unit) { entry.wideBoxes += 1 } else { entry.narrowBoxes += 1 }
                missing[cluster] = entry
            }
            if let last = pairs.last, last.0 == cluster {
                pairs[pairs.count - 1].1 += advance
            } else {
                pairs.append((cluster, advance))
            }
        }
        if key.rightToLeft { pairs.reverse() }
        if !pairs.isSorted() { pairs = mergeUnsorted(pairs) }
        var run = ShapedRun(
            clusterStarts: pairs.map { $0.0 },
            clusterAdvances: pairs.map { Double($0.1) / Font.unitsPerPixel })
        if !missing.isEmpty {
            for (index, start) in run.clusterStarts.enumerated() {
                if var entry = missing[start] {
                    entry.cluster = index
                    run.missing.append(entry)
                }
            }
        }
        return run
    }

    /// For the rare output whose clusters are not monotone (it cannot happen with the
    /// monotone cluster level, but a font is untrusted input): merge by cluster value.
    private static func mergeUnsorted(_ pairs: [(Int32, Int64)]) -> [(Int32, Int64)] {
        var totals: [Int32: Int64] = [:]
        for (cluster, advance) in pairs { totals[cluster, default: 0] += advance }
        return totals.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

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

private extension Array where Element == (Int32, Int64) {
    func isSorted() -> Bool {
        var previous = Int32.min
        for (cluster, _) in self {
            if cluster <= previous { return false }
            previous = cluster
        }
        return true
    }
}
