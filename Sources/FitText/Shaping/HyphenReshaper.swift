import CHarfBuzz

/// The width Pango gives a line that a break inside a word ends with a hyphen
/// (``LineBreaker/Reshape``): pango-layout.c process_item splits the item at the break and
/// shapes the part on the line again with PANGO_ANALYSIS_FLAG_NEED_HYPHEN, and shape.c adds
/// the hyphen after the text, which drops the text after it as context (hb_buffer_add clears
/// the post-context): the letter before the hyphen takes its final form, loses its kerning
/// with the next one. `الإشعارات` at 30 px breaks الإ‐/شعا‐/رات, not الإش‐ (PANGO_RULES.md,
/// "Breaking and GTK 3 metrics").
struct HyphenReshaper {
    let text: UnsafeBufferPointer<UInt16>
    let breaker: LineBreaker
    let style: ResolvedStyle
    let letterSpacing: Double
    let shapeCache: ByteBoundedCache<ShapeKey, ShapedRun>
    let clusterWidths: ByteBoundedCache<ClusterWidthKey, Double>
    /// Some markup stretch has letter spacing (which `letterSpacing`, the request's, does
    /// not tell).
    var markupSpaced = false

    /// nil (the summed width is used) where the line holds what this does not model: letter
    /// spacing, tabs, a soft hyphen before the break, a glyph no font has.
    func width(start: Int, end: Int, hyphen: Bool) -> Double? {
        guard letterSpacing == 0, !markupSpaced, start < end, end <= breaker.count else { return nil }
        let clusters = breaker.clusters
        let last = clusters[end - 1]
        // The run the break cuts: one font, script and level, back to the line's start.
        var runStart = end - 1
        while runStart > start && clusters[runStart - 1].font == last.font && clusters[runStart - 1].script == last.script
            && clusters[runStart - 1].level == last.level
        {
            runStart -= 1
        }
        var width = 0.0
        for c in start..<end {
            if clusters[c].flags.contains(.tab) { return nil }
            if c < runStart { width += clusters[c].width }
        }
        if LineBreaker.isSimple(last.script) {
            // Letters that keep their form (Latin, Cyrillic, CJK…): only the last cluster
            // changes — its kerning with the next letter goes, with a hyphen comes — so it
            // alone is shaped again, and kept in the shaped-run cache (a width-0 probe asks
            // this of every letter). "Voulez-vous" at 20 px: "ez-" is 20.01 without the
            // kerning of "-v", and does not fit.
            for c in runStart..<end - 1 { width += clusters[c].width }
            guard let part = hyphen ? lastClusterWithHyphen(end - 1) : lastClusterAlone(end - 1) else { return nil }
            return width + part
        }
        let from = breaker.start(of: runStart)
        let to = breaker.start(of: end)
        guard from < to, to <= text.count, text[to - 1] != 0xAD else { return nil }
        guard
            let part = Shaper.widthBeforeHyphen(
                text, from: from, to: to, hyphen: hyphen, font: breaker.fonts[Int(last.font)], rightToLeft: last.level & 1 == 1,
                script: last.script, language: style.language.hbLanguage(script: last.script), features: style.features)
        else { return nil }
        return width + part
    }

    /// A cluster shaped alone, as a run of its own (the shaped-run cache's ordinary entry for
    /// its text: Shaper.shape gives a run no context either, and a one-letter word shaped
    /// before is found there).
    private func lastClusterAlone(_ c: Int) -> Double? {
        let cluster = breaker.clusters[c]
        let from = breaker.start(of: c)
        let to = breaker.start(of: c + 1)
        guard from < to, to <= text.count else { return nil }
        let units = UnsafeBufferPointer(rebasing: text[from..<to])
        let font = breaker.fonts[Int(cluster.font)]
        let language = style.language.hbLanguage(script: cluster.script)
        let rightToLeft = cluster.level & 1 == 1
        let key = ShapeKey(
            fontID: Int32(truncatingIfNeeded: font.id), script: cluster.script, language: language, features: style.featureID,
            rightToLeft: rightToLeft, text: units)
        let run: ShapedRun
        if let known = shapeCache.value(for: key) {
            run = known
        } else {
            run = Shaper.shape(units, font: font, rightToLeft: rightToLeft, script: cluster.script, language: language, features: style.features)
            shapeCache.insert(run, for: key, bytes: key.byteCount + run.byteCount)
        }
        return run.missing.isEmpty ? run.width : nil
    }

    /// The last cluster of a line shaped alone with its hyphen: from `clusterWidths` for one
    /// code point, else from the shaped-run cache (keyed by its text, its font… and the
    /// complement of the feature list's id, which no ordinary run has: ids are never
    /// negative).
    private func lastClusterWithHyphen(_ c: Int) -> Double? {
        let cluster = breaker.clusters[c]
        let from = breaker.start(of: c)
        let to = breaker.start(of: c + 1)
        guard from < to, to <= text.count, text[to - 1] != 0xAD else { return nil }
        let units = UnsafeBufferPointer(rebasing: text[from..<to])
        let font = breaker.fonts[Int(cluster.font)]
        let language = style.language.hbLanguage(script: cluster.script)
        let rightToLeft = cluster.level & 1 == 1
        let small = ClusterWidthKey(
            units, font: font.id, script: cluster.script, language: language, features: style.featureID, rightToLeft: rightToLeft)
        if let small, let known = clusterWidths.value(for: small) { return known.isNaN ? nil : known }
        let key = ShapeKey(
            fontID: Int32(truncatingIfNeeded: font.id), script: cluster.script, language: language, features: ~style.featureID,
            rightToLeft: rightToLeft, text: units)
        if small == nil, let known = shapeCache.value(for: key) { return known.width }
        let width = Shaper.widthBeforeHyphen(
            units, from: 0, to: units.count, hyphen: true, font: font, rightToLeft: rightToLeft, script: cluster.script,
            language: language, features: style.features)
        if let small {
            clusterWidths.insert(width ?? .nan, for: small, bytes: ClusterWidthKey.entryBytes)
            return width
        }
        guard let width else { return nil }
        let run = ShapedRun(clusters: [ShapedRun.Cluster(start: 0, advance: width)])
        shapeCache.insert(run, for: key, bytes: key.byteCount + run.byteCount)
        return width
    }
}

/// A cluster of one code point shaped alone with a hyphen in a font: the key of
/// ``HyphenReshaper``'s width cache (such a width is never a run of the shaped-run cache's). Plain words (no text storage, no references): a
/// lookup at a width-0 probe, where every letter ends a line, costs a fraction of a
/// ``ShapeKey``'s (FitBenchLayout, callgrind).
struct ClusterWidthKey: Hashable, Sendable {
    /// The code point, the direction and the script.
    private var unit: UInt64
    /// The font's id and the feature list's id.
    private var face: UInt64
    /// HarfBuzz's interned language (its address).
    private var language: UInt

    /// A key and value, and the table's slot: what an entry costs, roughly.
    static let entryBytes = 64

    /// nil when `text` is not exactly one code point.
    init?(_ text: UnsafeBufferPointer<UInt16>, font: Int, script: Int32, language: UInt, features: Int32, rightToLeft: Bool) {
        let scalar: UInt32
        switch text.count {
        case 1:
            guard !UTF16.isSurrogate(text[0]) else { return nil }
            scalar = UInt32(text[0])
        case 2:
            guard UTF16.isLeadSurrogate(text[0]), UTF16.isTrailSurrogate(text[1]) else { return nil }
            scalar = 0x10000 + ((UInt32(text[0]) - 0xD800) << 10) + (UInt32(text[1]) - 0xDC00)
        default:
            return nil
        }
        unit = UInt64(scalar) | (rightToLeft ? 1 << 21 : 0) | UInt64(UInt32(bitPattern: script)) << 32
        face = UInt64(UInt32(truncatingIfNeeded: font)) | UInt64(UInt32(bitPattern: features)) << 32
        self.language = language
    }
}

extension Shaper {
    /// The advance of `text[from..<to]` shaped as Pango shapes a broken item (shape.c
    /// pango_hb_shape): the paragraph around it as context; with `hyphen`, U+2010 (or "-" when
    /// the font lacks it) in place of the context after it. nil when a glyph is missing.
    static func widthBeforeHyphen(
        _ text: UnsafeBufferPointer<UInt16>, from: Int, to: Int, hyphen addsHyphen: Bool, font: Font, rightToLeft: Bool, script: Int32,
        language: UInt, features: [hb_feature_t]
    ) -> Double? {
        var glyph: hb_codepoint_t = 0
        let hyphen: UInt32 =
            !addsHyphen ? 0 : hb_font_get_nominal_glyph(font.hbFont, 0x2010, &glyph) != 0
            ? 0x2010 : hb_font_get_nominal_glyph(font.hbFont, 0x2D, &glyph) != 0 ? 0x2D : 0
        let result = buffers.withBuffer { buffer -> Double? in
            hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), UInt32(from), Int32(to - from))
            if hyphen != 0 { hb_buffer_add(buffer, hyphen, UInt32(to - 1)) }
            hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb_buffer_set_script(buffer, Shaper.hbScript(script))
            hb_buffer_set_language(buffer, OpaquePointer(bitPattern: language))
            hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS)
            hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: HB_BUFFER_FLAG_BOT.rawValue | HB_BUFFER_FLAG_EOT.rawValue))
            features.withUnsafeBufferPointer { list in
                hb_shape(font.hbFont, buffer, list.baseAddress, UInt32(list.count))
            }
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                let positions = hb_buffer_get_glyph_positions(buffer, &count)
            else { return nil }
            var sum: Int64 = 0
            for i in 0..<Int(count) {
                if infos[i].codepoint == 0 { return nil }
                sum += font.advanceUnits(positions[i].x_advance)
            }
            return Double(sum) / Font.unitsPerPixel
        }
        return result ?? nil
    }
}
