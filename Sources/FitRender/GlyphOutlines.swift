import CHarfBuzz
import FitText

/// One step of a glyph's outline, in px from the glyph's origin, y down (SVG's and cairo's
/// orientation).
public enum PathCommand: Sendable, Hashable {
    case move(Double, Double)
    case line(Double, Double)
    case quadratic(Double, Double, Double, Double)
    case cubic(Double, Double, Double, Double, Double, Double)
    case close
}

/// What a glyph looks like: an outline, a colour bitmap (PNG, from CBDT/sbix: Noto Color
/// Emoji) with the rectangle it covers, or nothing (a space).
public enum GlyphShape: Sendable {
    case outline([PathCommand])
    /// PNG bytes and their rectangle in px from the glyph's origin, y down.
    case bitmap(png: [UInt8], x: Double, y: Double, width: Double, height: Double)
    case empty
}

/// Glyph shapes: a colour glyph's PNG (HarfBuzz's colour tables), else the outline FreeType
/// loads through cairo, else, where cairo cannot load the font, HarfBuzz's outline (its draw
/// API: `hb_font_get_glyph_shape`, HarfBuzz ≥ 4.0; Debian 12 has 6.0, where
/// `hb_font_draw_glyph`, its 7.0 name, does not exist yet). Kept per (font, glyph) so a glyph
/// used many times is read once.
public final class GlyphShapes {
    private var shapes: [Key: GlyphShape] = [:]
    /// FreeType's fonts, through cairo: outlines are read from them, and PNGs draw with them.
    let freeType = FreeTypeGlyphs()
    /// Largest PNG taken from a colour table (a font is untrusted input).
    static let maxBitmapBytes = 4 << 20

    struct Key: Hashable {
        var font: Int
        var glyph: UInt32
    }

    public init() {}

    public func shape(of glyph: UInt32, in font: GlyphFont) -> GlyphShape {
        let key = Key(font: font.id, glyph: glyph)
        if let known = shapes[key] { return known }
        // A colour glyph's PNG; else the outline as FreeType loads it, which is what GTK
        // rasterizes: HarfBuzz's points rounded to FreeType's 26.6 fixed point, 1/64 px
        // (DejaVu Sans's Armenian "Բ" at 14 pt: x 1.6224 from HarfBuzz, 1.625 from FreeType).
        // Those 1/64 px put DejaVu's Armenian stems exactly on half pixels: a browser drawing
        // HarfBuzz's points matched 94.74 % of the PNG's ink, FreeType's 99.27 %
        // (Tests/render/compare_pango_view.py). HarfBuzz's outline only where cairo cannot load
        // the font, so it is not read for nothing.
        let made: GlyphShape
        if let bitmap = GlyphShapes.colorBitmap(glyph, hbFont: font.hbFont) {
            made = bitmap
        } else if let outline = freeType.outline(of: glyph, font: font) {
            made = outline.isEmpty ? .empty : .outline(outline)
        } else {
            made = GlyphShapes.harfBuzzOutline(glyph, hbFont: font.hbFont)
        }
        shapes[key] = made
        return made
    }

    static func harfBuzzOutline(_ glyph: UInt32, hbFont: OpaquePointer) -> GlyphShape {
        let sink = OutlineSink()
        withExtendedLifetime(sink) {
            hb_font_get_glyph_shape(hbFont, glyph, GlyphShapes.drawFuncs, Unmanaged.passUnretained(sink).toOpaque())
        }
        return sink.commands.isEmpty ? .empty : .outline(sink.commands)
    }

    /// A colour glyph's PNG, scaled to the glyph's extents (HarfBuzz reports a CBDT glyph's
    /// extents from its bitmap, at the font's scale).
    static func colorBitmap(_ glyph: UInt32, hbFont: OpaquePointer) -> GlyphShape? {
        guard let face = hb_font_get_face(hbFont), hb_ot_color_has_png(face) != 0,
            let blob = hb_ot_color_glyph_reference_png(hbFont, glyph)
        else { return nil }
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0, Int(length) <= maxBitmapBytes else { return nil }
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(hbFont, glyph, &extents) != 0, extents.width != 0, extents.height != 0 else { return nil }
        let png = UnsafeRawBufferPointer(start: data, count: Int(length)).map { $0 }
        let scale = 1.0 / 1024.0
        // HarfBuzz's extents: y_bearing is the top (y up), height negative.
        return .bitmap(
            png: png, x: Double(extents.x_bearing) * scale, y: -Double(extents.y_bearing) * scale,
            width: Double(extents.width) * scale, height: -Double(extents.height) * scale)
    }

    private final class OutlineSink {
        var commands: [PathCommand] = []
        /// A glyph of more points than any real font draws is cut off (a font is untrusted).
        static let maxCommands = 1 << 16
        func add(_ command: PathCommand) {
            if commands.count < OutlineSink.maxCommands { commands.append(command) }
        }
    }

    /// HarfBuzz's units are 1/1024 px (Pango's scale) with y up.
    private static let unit = 1.0 / 1024.0

    nonisolated(unsafe) private static let drawFuncs: OpaquePointer? = {
        guard let funcs = hb_draw_funcs_create() else { return nil }
        hb_draw_funcs_set_move_to_func(
            funcs, { _, data, _, x, y, _ in
                data.map { Unmanaged<OutlineSink>.fromOpaque($0).takeUnretainedValue() }?
                    .add(.move(Double(x) * GlyphShapes.unit, -Double(y) * GlyphShapes.unit))
            }, nil, nil)
        hb_draw_funcs_set_line_to_func(
            funcs, { _, data, _, x, y, _ in
                data.map { Unmanaged<OutlineSink>.fromOpaque($0).takeUnretainedValue() }?
                    .add(.line(Double(x) * GlyphShapes.unit, -Double(y) * GlyphShapes.unit))
            }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(
            funcs, { _, data, _, cx, cy, x, y, _ in
                let u = GlyphShapes.unit
                data.map { Unmanaged<OutlineSink>.fromOpaque($0).takeUnretainedValue() }?
                    .add(.quadratic(Double(cx) * u, -Double(cy) * u, Double(x) * u, -Double(y) * u))
            }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(
            funcs, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
                let u = GlyphShapes.unit
                data.map { Unmanaged<OutlineSink>.fromOpaque($0).takeUnretainedValue() }?
                    .add(.cubic(Double(c1x) * u, -Double(c1y) * u, Double(c2x) * u, -Double(c2y) * u, Double(x) * u, -Double(y) * u))
            }, nil, nil)
        hb_draw_funcs_set_close_path_func(
            funcs, { _, data, _, _ in
                data.map { Unmanaged<OutlineSink>.fromOpaque($0).takeUnretainedValue() }?.add(.close)
            }, nil, nil)
        hb_draw_funcs_make_immutable(funcs)
        return funcs
    }()
}
