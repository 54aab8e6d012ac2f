import CFontconfig
import CHarfBuzz

/// One font at one size, ready to shape with: a HarfBuzz font at Pango's scale and the
/// vertical metrics cairo reports for it (which is what Pango's logical extents use).
///
/// Immutable after creation. HarfBuzz documents an `hb_font_t` as safe to shape with from
/// several threads once it is set up (no setters are called after `init`).
final class Font: Sendable {
    /// Unique while the engine lives; part of shaping cache keys.
    let id: Int
    let face: FontFaceInfo
    let pixelSize: Double
    /// Logical ascent and descent in px (positive numbers), as cairo's font extents give them.
    let ascent: Double
    let descent: Double
    /// Owned (`hb_font_destroy` in deinit).
    nonisolated(unsafe) let hbFont: OpaquePointer
    /// `[face.family]`, made once: most results use one font, and sharing this array spares
    /// each of them an allocation.
    let familyList: [String]
    /// The advance of the hyphen a break inside a word adds (``PixelTypesetter/hyphenAdvance``),
    /// a metric of the font like its ascent: asked for once per line of text wrapped inside
    /// words — at width 0, once per character — it cost two HarfBuzz calls each time.
    let hyphenAdvance: Double
    /// The toolkit context it was loaded for (``ToolkitProfile/rendering``): whether each
    /// glyph's advance is rounded to a whole pixel (shape.c pango_shape_with_flags,
    /// PANGO_SHAPE_ROUND_POSITIONS) and whether ascent and descent are (hint metrics).
    let rendering: GlyphRendering
    /// Its baselines, to align runs on a line's dominant baseline (``BaselineShift``).
    let baselines: FontBaselines
    /// Whether it has a BASE table (else its roman baseline is 0): asked per run of every
    /// line, so a field of its own.
    let hasBaseTable: Bool

    /// What makes this font shape as it does, the same in every process: file, face index,
    /// size, hinting and variations (the resolver's key of it). Shaped runs saved for a warm
    /// start name their font by it (``PersistedShapeCoding``), since `id` is this process's.
    let identity: [UInt8]

    init(
        id: Int, face: FontFaceInfo, pixelSize: Double, ascent: Double, descent: Double, hbFont: OpaquePointer,
        rendering: GlyphRendering = .unrounded, variations: String? = nil
    ) {
        self.id = id
        var identity = PersistedResultCoding.Writer()
        identity.string(face.file)
        identity.int(face.index)
        identity.f64(pixelSize)
        identity.bool(rendering.roundsPositions)
        identity.bool(rendering.hintsMetrics)
        identity.optional(face.variations) { $0.string($1) }
        identity.optional(variations) { $0.string($1) }
        self.identity = identity.bytes
        self.face = face
        self.familyList = [face.family]
        self.pixelSize = pixelSize
        self.ascent = ascent
        self.descent = descent
        self.hbFont = hbFont
        self.rendering = rendering
        hyphenAdvance = Font.glyphWidth(PixelTypesetter.hyphenAdvance(hbFont) * Font.unitsPerPixel, rounded: rendering.roundsPositions)
        baselines = FontBaselines(hbFont: hbFont)
        hasBaseTable = baselines.hasTable
    }

    deinit { hb_font_destroy(hbFont) }

    /// What one loaded font costs: the hb_font_t with HarfBuzz's per-font caches (hb-ot-font's
    /// cmap and advance caches), this object and its strings. An estimate checked as part of
    /// what a new size costs, a set and its font together: 50.5 KB by mallinfo2, 52.7 KB
    /// accounted (FontCacheTests.measuredCost, 1,000 sizes).
    static let byteCount = 4096

    /// HarfBuzz units per px: Pango shapes at size × PANGO_SCALE (1024) so advances keep
    /// 1/1024 px of precision (pangofc-font.c, pango_fc_font_create_hb_font).
    static let unitsPerPixel = 1024.0

    /// A glyph's advance in px from HarfBuzz units: PANGO_UNITS_ROUND (to the nearest whole
    /// pixel, halves up) when positions are rounded.
    @inline(__always)
    static func glyphWidth(_ units: Double, rounded: Bool) -> Double {
        rounded ? ((units + 512) / 1024).rounded(.down) : units / unitsPerPixel
    }

    /// ``glyphWidth(_:rounded:)`` in HarfBuzz's integer units.
    @inline(__always)
    func glyphUnits(_ units: Int64) -> Int64 { rendering.roundsPositions ? (units + 512) & ~1023 : units }

    /// A shaped glyph's advance as Pango keeps it: a negative one made positive (shape.c
    /// pango_shape_internal, "Shift glyph if width is negative, and negate width": the glyph
    /// moves right by as much in x_offset), then rounded like any (the rounding comes after,
    /// shape.c:705). A font may give a mark a negative advance to pull what follows back
    /// (Noto Serif Kannada's below-base forms: `ನ್ಕೋ` is 25.43 px in Pango, not 23.19).
    @inline(__always)
    func advanceUnits(_ hbAdvance: Int32) -> Int64 { glyphUnits(abs(Int64(hbAdvance))) }
}

/// A HarfBuzz face (one font file's tables, mapped from the file), released when the last
/// holder lets go: the resolver's face cache, or none once it evicted it (each hb_font_t keeps
/// its own reference, hb-font.cc).
final class HarfBuzzFace: Sendable {
    nonisolated(unsafe) let face: OpaquePointer
    init(_ face: OpaquePointer) { self.face = face }
    deinit { hb_face_destroy(face) }

    /// The hb_face_t and its lazily loaded table accelerators (cmap, hmtx, GSUB/GPOS), plus
    /// the shape plans HarfBuzz caches on it. The font file itself is mapped, not copied.
    static let byteCount = 64 << 10
}

/// What fontconfig says about one font file of a sorted set: where it is, what it is called,
/// which characters it covers.
final class FontFaceInfo: Sendable {
    let file: String
    /// Face index in the file; the high 16 bits name a variable font's named instance.
    let index: Int
    let family: String
    let style: String
    let weight: Double
    /// FC_FONT_VARIATIONS of the prepared pattern: a variable face's coordinates as
    /// fontconfig matched them ("wght=550"), or nil.
    let variations: String?
    /// Owned reference (`FcCharSetCopy` / `FcCharSetDestroy`). FcCharSetHasChar only reads.
    nonisolated(unsafe) let charset: OpaquePointer?

    init(
        file: String, index: Int, family: String, style: String, weight: Double, charset: OpaquePointer?,
        variations: String? = nil
    ) {
        self.variations = variations
        self.file = file
        self.index = index
        self.family = family
        self.style = style
        self.weight = weight
        self.charset = charset
    }

    deinit { if let charset { FcCharSetDestroy(charset) } }

    /// This object and its strings (``HeapBytes``); the charset is fontconfig's, shared.
    var byteCount: Int {
        96 + HeapBytes.string(file) + HeapBytes.string(family) + HeapBytes.string(style) + (variations.map(HeapBytes.string) ?? 0)
    }

    func covers(_ scalar: UInt32) -> Bool {
        guard let charset else { return false }
        return FcCharSetHasChar(charset, scalar) != 0
    }
}

/// How line ascent and descent are rounded, which is the one place where GTK 4 and GTK 3
/// measure differently.
public enum VerticalMetricsRounding: String, Sendable, Hashable, Codable {
    /// Unrounded (to 1/1024 px): GTK 4's default (`gtk-hint-font-metrics` off, so cairo's
    /// hint metrics are off).
    case none
    /// Whole pixels: cairo hint metrics on, as GTK 3 and plain PangoCairo contexts have it.
    case wholePixels = "whole-pixels"
}
