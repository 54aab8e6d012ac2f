import CHarfBuzz
import Synchronization

/// What a request's font description, text scale and feature settings resolve to: the size,
/// the sorted fontsets (per derived language), the parsed features. Worked out once per
/// combination and kept by the engine, as a widget keeps its font: before, every measurement
/// parsed its features, looked its fontset up by description and built closures, a tenth of
/// a cold measurement.
final class ResolvedStyle: Sendable {
    /// This object, its description and parsed features, the tables for scripts, emoji and
    /// hex boxes (estimated from the fields' layouts; the sets it holds are counted apart).
    static let ownBytes = 640

    /// Unique while the engine lives (never reused, unlike an object's address): the style in
    /// paragraph cache keys (``CachedParagraph/Key``).
    let id: Int
    let description: FontDescription
    let pixelSize: Double
    /// The resolver the fontsets came from, kept alive with them (a fontset loads fonts
    /// through it, and ``TextEngine/invalidateCaches()`` may replace the engine's).
    let resolver: FontResolver
    /// The fontset in the context language: the base font, the ellipsis.
    let baseSet: FontSet
    let primary: Font
    let features: [hb_feature_t]
    /// Id of the feature list in shaped-run cache keys (``FeatureTable``).
    let featureID: Int32
    let language: LanguageContext
    /// The toolkit context its fonts are loaded for (``Font/rendering``).
    let rendering: GlyphRendering
    private let emojiDescription: FontDescription
    private let setsByScript: Mutex<[Int32: FontSet]> = Mutex([:])
    private let emoji: Mutex<FontSet?> = Mutex(nil)
    private let hexBoxes: Mutex<[Int: Double]> = Mutex([:])
    /// Told when the style took another set (a script's, emoji), so the styles cache can
    /// count it: a style keeps its sets alive after the resolver's cache let go of them, and
    /// a text of many scripts gives one style a set for each.
    private let grew: @Sendable (ResolvedStyle) -> Void
    private let heldBytes = Atomic<Int>(0)

    /// This object, the base set, and every other set it took (at their size when taken).
    var byteCount: Int { ResolvedStyle.ownBytes + baseSet.byteCount + heldBytes.load(ordering: .relaxed) }

    private func held(_ set: FontSet) {
        heldBytes.add(set.byteCount + 64, ordering: .relaxed)
        grew(self)
    }

    init(
        id: Int, description: FontDescription, pixelSize: Double, resolver: FontResolver, features: [hb_feature_t],
        featureID: Int32, language: LanguageContext, rendering: GlyphRendering = .unrounded, grew: @escaping @Sendable (ResolvedStyle) -> Void = { _ in }
    ) throws(FitTextError) {
        self.grew = grew
        self.id = id
        self.description = description
        self.pixelSize = pixelSize
        self.resolver = resolver
        self.features = features
        self.featureID = featureID
        self.language = language
        self.rendering = rendering
        baseSet = try resolver.fontSet(for: description, pixelSize: pixelSize, language: language.tag, rendering: rendering)
        primary = try baseSet.font(at: 0)
        var emojiDescription = description
        emojiDescription.families = ["emoji"]
        self.emojiDescription = emojiDescription
    }

    /// The set for the language derived from a script (Pango: the item's language picks the
    /// fallback order).
    func fontSet(forScript script: Int32) throws(FitTextError) -> FontSet {
        if let set = setsByScript.withLock({ $0[script] }) { return set }
        let set = try resolver.fontSet(for: description, pixelSize: pixelSize, language: language.derivedLanguage(script: script), rendering: rendering)
        let added = setsByScript.withLock { sets -> Bool in
            guard sets[script] == nil else { return false }
            sets[script] = set
            return true
        }
        // The base set again (most scripts' language is the context's) costs nothing more.
        if added && set !== baseSet { held(set) }
        return set
    }

    /// The set for the same description with the family "emoji", which Pango 1.50 uses for
    /// emoji presentation runs (itemize.c; PANGO_RULES.md §3).
    func emojiSet() throws(FitTextError) -> FontSet {
        if let set = emoji.withLock({ $0 }) { return set }
        let set = try resolver.fontSet(for: emojiDescription, pixelSize: pixelSize, language: "und-zsye", rendering: rendering)
        let added = emoji.withLock { stored -> Bool in
            guard stored == nil else { return false }
            stored = set
            return true
        }
        if added { held(set) }
        return set
    }

    /// The logical width of the box Pango draws for a glyph no font has: two columns of hex
    /// digits (three above U+FFFF) in a "monospace" font of the same style at size / 2.2,
    /// padded (pangocairo-font.c, _pango_cairo_font_private_get_hex_box_info and
    /// _pango_cairo_font_get_glyph_extents_cache_entry; metrics unhinted, as in GTK 4).
    func hexBoxWidth(font: Font, wide: Bool) throws(FitTextError) -> Double {
        let key = font.id * 2 + (wide ? 1 : 0)
        if let cached = hexBoxes.withLock({ $0[key] }) { return cached }
        var mini = description
        mini.families = ["monospace"]
        let miniSize = (font.pixelSize / 2.2 * Font.unitsPerPixel).rounded() / Font.unitsPerPixel
        let miniSet = try resolver.fontSet(for: mini, pixelSize: miniSize, language: "en")
        let miniFont = try miniSet.font(at: 0)
        var digitWidth = 0.0
        for digit in "0123456789ABCDEF".unicodeScalars {
            var glyph: hb_codepoint_t = 0
            var extents = hb_glyph_extents_t()
            if hb_font_get_nominal_glyph(miniFont.hbFont, digit.value, &glyph) != 0,
                hb_font_get_glyph_extents(miniFont.hbFont, glyph, &extents) != 0
            {
                digitWidth = max(digitWidth, Double(extents.width) / Font.unitsPerPixel)
            }
        }
        let pad = min((font.ascent + font.descent) / 43, miniSize)
        let columns = wide ? 3.0 : 2.0
        // PANGO_SCALE * (…) is stored in an int: truncated to whole Pango units.
        let width = ((5 * pad + columns * (digitWidth + pad)) * Font.unitsPerPixel).rounded(.towardZero) / Font.unitsPerPixel
        hexBoxes.withLock { $0[key] = width }
        return width
    }
}

/// Feature lists as small integers, for shaped-run cache keys. An id is never reused for
/// another list: when the table is full (lists come from peers) it starts over with new ids,
/// and entries under the old ones age out of the cache.
final class FeatureTable: Sendable {
    private let ids: ByteBoundedCache<[String], Int32>
    /// Ids are never handed out twice (until Int32 wraps): a list evicted and seen again gets
    /// a new one, so shaped runs cached under the old id just miss.
    private let next = Mutex<Int32>(1)

    init(byteLimit: Int = 512 << 10) {
        ids = ByteBoundedCache(name: "features", byteLimit: byteLimit)
    }

    var statistics: CacheStatistics { ids.statistics }

    func release() { ids.removeAll(keepingCapacity: false) }

    func id(of features: [String]) -> Int32 {
        if features.isEmpty { return 0 }
        if let id = ids.value(for: features) { return id }
        return next.withLock { next in
            if let id = ids.peek(features) { return id }
            let id = next
            next = next == .max ? 1 : next + 1
            ids.insert(id, for: features, bytes: 96 + features.reduce(0) { $0 + 32 + $1.utf8.count })
            return id
        }
    }
}
