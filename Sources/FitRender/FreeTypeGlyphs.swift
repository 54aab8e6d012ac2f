import CCairo
import FitText

/// Outline glyphs drawn into a PNG the way GTK and pango-view draw them: by cairo's FreeType
/// font backend, which rasterizes each glyph with FreeType's anti-aliasing and composites the
/// mask at the glyph's origin. Filling HarfBuzz's outlines as cairo paths gives the same shapes
/// through cairo's own scan converter, whose coverage of thin stems differs from FreeType's by
/// enough to flip pixels at the ink threshold: Armenian in DejaVu Sans matched 94.97 % of
/// pango-view's ink that way (Tests/render/compare_pango_view.py), other scripts 97.6–100 %.
///
/// Pango's cairo fonts are made the same way (pangocairo-fcfont.c: the fontset's pattern given
/// to `cairo_ft_font_face_create_for_pattern`, the size as the font matrix); the options are
/// GTK 4's: no hinting, grey anti-aliasing. One painter serves one picture; its fonts are
/// released with it.
final class FreeTypeGlyphs {
    private var fonts: [Int: OpaquePointer?] = [:]
    private let options: OpaquePointer?

    init() {
        options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    }

    deinit {
        if let cr = scratch.cr { cairo_destroy(cr) }
        if let surface = scratch.surface { cairo_surface_destroy(surface) }
        for case let font? in fonts.values { cairo_scaled_font_destroy(font) }
        cairo_font_options_destroy(options)
    }

    /// The cairo font for `font`; nil when cairo cannot load its file (the caller then fills
    /// the outline instead).
    func scaledFont(for font: GlyphFont) -> OpaquePointer? {
        if let known = fonts[font.id] { return known }
        let made = Self.make(font, options: options)
        fonts[font.id] = made
        return made
    }

    private static func make(_ font: GlyphFont, options: OpaquePointer?) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        let added = font.file.withCString { file in
            FcPatternAddString(pattern, FC_FILE, UnsafeRawPointer(file).assumingMemoryBound(to: FcChar8.self))
        }
        guard added != 0, FcPatternAddInteger(pattern, FC_INDEX, Int32(truncatingIfNeeded: font.faceIndex)) != 0 else { return nil }
        if let variations = font.variations {
            _ = variations.withCString { text in
                FcPatternAddString(pattern, FC_FONT_VARIATIONS, UnsafeRawPointer(text).assumingMemoryBound(to: FcChar8.self))
            }
        }
        guard let face = cairo_ft_font_face_create_for_pattern(pattern) else { return nil }
        defer { cairo_font_face_destroy(face) }
        guard cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else { return nil }
        var matrix = cairo_matrix_t()
        cairo_matrix_init_scale(&matrix, font.pixelSize, font.pixelSize)
        var identity = cairo_matrix_t()
        cairo_matrix_init_identity(&identity)
        guard let scaled = cairo_scaled_font_create(face, &matrix, &identity, options) else { return nil }
        guard cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS else {
            cairo_scaled_font_destroy(scaled)
            return nil
        }
        return scaled
    }

    /// A scratch context for reading outlines (cairo_glyph_path needs one).
    private lazy var scratch: (surface: OpaquePointer?, cr: OpaquePointer?) = {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        return (surface, surface.flatMap { cairo_create($0) })
    }()

    /// The glyph's outline as FreeType loads it (cairo_glyph_path), in px from its origin,
    /// y down; nil when there is no cairo font or cairo fails.
    func outline(of glyph: UInt32, font: GlyphFont) -> [PathCommand]? {
        guard let scaled = scaledFont(for: font), let cr = scratch.cr else { return nil }
        cairo_new_path(cr)
        cairo_set_scaled_font(cr, scaled)
        var one = cairo_glyph_t(index: UInt(glyph), x: 0, y: 0)
        cairo_glyph_path(cr, &one, 1)
        guard let path = cairo_copy_path(cr) else { return nil }
        defer { cairo_path_destroy(path) }
        guard path.pointee.status == CAIRO_STATUS_SUCCESS, let data = path.pointee.data else { return nil }
        var commands: [PathCommand] = []
        var index = 0
        let count = Int(path.pointee.num_data)
        // cairo_path_t: each element is a header (type, length in cairo_path_data_t units)
        // followed by its points; read no further than num_data says.
        while index < count {
            let header = data[index].header
            let length = Int(header.length)
            guard length >= 1, index + length <= count, commands.count < Self.maxCommands else { break }
            func point(_ n: Int) -> (Double, Double) { (data[index + n].point.x, data[index + n].point.y) }
            switch header.type {
            case CAIRO_PATH_MOVE_TO where length >= 2:
                // cairo adds a move to the subpath's start after each close; only a move that
                // starts something is kept.
                let p = point(1)
                if case .move? = commands.last { commands.removeLast() }
                commands.append(.move(p.0, p.1))
            case CAIRO_PATH_LINE_TO where length >= 2:
                let p = point(1)
                commands.append(.line(p.0, p.1))
            case CAIRO_PATH_CURVE_TO where length >= 4:
                let (a, b, p) = (point(1), point(2), point(3))
                commands.append(.cubic(a.0, a.1, b.0, b.1, p.0, p.1))
            case CAIRO_PATH_CLOSE_PATH:
                commands.append(.close)
            default:
                break
            }
            index += length
        }
        if case .move? = commands.last { commands.removeLast() }
        cairo_new_path(cr)
        return commands
    }

    /// A glyph of more points than any real font draws is cut off (a font is untrusted).
    static let maxCommands = 1 << 16

    /// Draws one glyph at (x, y) in the current source colour; false when its font has no
    /// cairo font (nothing drawn).
    func show(_ glyph: UInt32, font: GlyphFont, x: Double, y: Double, on cr: OpaquePointer) -> Bool {
        guard let scaled = scaledFont(for: font) else { return false }
        cairo_set_scaled_font(cr, scaled)
        var one = cairo_glyph_t(index: UInt(glyph), x: x, y: y)
        cairo_show_glyphs(cr, &one, 1)
        return true
    }
}
