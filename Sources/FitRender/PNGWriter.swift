import CCairo
import FitLayout
import FitText

/// Draws a glyph layout with cairo (what GTK 3 draws with, and the rasterizer of Pango's own
/// pango-view) into an ARGB image and writes it as PNG: the positions of ``SVGWriter``, each
/// outline glyph FreeType's mask as GTK draws it (``FreeTypeGlyphs``); colour glyphs are their
/// PNGs, decoded by cairo and scaled to the glyph. Encoded by ``PNGEncoder``.
public struct PNGWriter {
    public var options: RenderOptions

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// Draws the layout and writes it to `path`.
    public func write(_ layout: PositionedGlyphs, to path: String, shapes: GlyphShapes = GlyphShapes()) throws(RenderError) {
        let picture = try TextPicture(layout, options: options)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(picture.width), Int32(picture.height)) else {
            throw .cairo("no image surface")
        }
        defer { cairo_surface_destroy(surface) }
        try check(cairo_surface_status(surface))
        guard let cr = cairo_create(surface) else { throw .cairo("no context") }
        defer { cairo_destroy(cr) }
        draw(picture, on: cr, shapes: shapes)
        try check(cairo_status(cr))
        cairo_surface_flush(surface)
        try PNGEncoder.write(surface, to: path)
    }

    private func check(_ status: cairo_status_t) throws(RenderError) {
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }

    private func draw(_ picture: TextPicture, on cr: OpaquePointer, shapes: GlyphShapes) {
        let palette = options.palette
        func source(_ c: (Double, Double, Double)) { cairo_set_source_rgb(cr, c.0, c.1, c.2) }
        source(palette.background)
        cairo_paint(cr)
        cairo_set_line_width(cr, 1)
        if !picture.lineBoxes.isEmpty {
            source(palette.box)
            for r in picture.lineBoxes { cairo_rectangle(cr, r.x, r.y, r.width, r.height) }
            cairo_stroke(cr)
            source(palette.baseline)
            for (x0, x1, y) in picture.baselines {
                cairo_move_to(cr, x0, y)
                cairo_line_to(cr, x1, y)
            }
            cairo_stroke(cr)
        }
        source(palette.text)
        let freeType = shapes.freeType
        for g in picture.glyphs {
            switch shapes.shape(of: g.glyph, in: g.font) {
            case .outline(let commands):
                if freeType.show(g.glyph, font: g.font, x: g.x, y: g.y, on: cr) { continue }
                cairo_new_path(cr)
                PNGWriter.path(commands, at: g.x, g.y, on: cr)
                cairo_fill(cr)
            case .bitmap(let png, let x, let y, let width, let height):
                PNGWriter.paintBitmap(png, in: LayoutRect(x: g.x + x, y: g.y + y, width: width, height: height), on: cr)
                source(palette.text)
            case .empty:
                continue
            }
        }
        if !picture.hexBoxes.isEmpty {
            for r in picture.hexBoxes { cairo_rectangle(cr, r.x, r.y, r.width, r.height) }
            cairo_stroke(cr)
        }
    }

    /// Appends an outline to cairo's path at (x, y); quadratic curves become cubic ones
    /// (cairo has none), from the current point.
    static func path(_ commands: [PathCommand], at x: Double, _ y: Double, on cr: OpaquePointer) {
        var current = (0.0, 0.0)
        for command in commands {
            switch command {
            case .move(let px, let py):
                cairo_move_to(cr, x + px, y + py)
                current = (px, py)
            case .line(let px, let py):
                cairo_line_to(cr, x + px, y + py)
                current = (px, py)
            case .quadratic(let cx, let cy, let px, let py):
                let c1 = (current.0 + 2.0 / 3.0 * (cx - current.0), current.1 + 2.0 / 3.0 * (cy - current.1))
                let c2 = (px + 2.0 / 3.0 * (cx - px), py + 2.0 / 3.0 * (cy - py))
                cairo_curve_to(cr, x + c1.0, y + c1.1, x + c2.0, y + c2.1, x + px, y + py)
                current = (px, py)
            case .cubic(let ax, let ay, let bx, let by, let px, let py):
                cairo_curve_to(cr, x + ax, y + ay, x + bx, y + by, x + px, y + py)
                current = (px, py)
            case .close:
                cairo_close_path(cr)
            }
        }
    }

    private final class Reader {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// A PNG decoded by cairo; nil when it is not one.
    /// A colour glyph's PNG (CBDT) scaled into `rect`, smoothly, as a browser scales an
    /// <image>; nothing when the PNG does not decode. The source is left as it was.
    static func paintBitmap(_ png: [UInt8], in rect: LayoutRect, on cr: OpaquePointer) {
        guard let image = decode(png) else { return }
        defer { cairo_surface_destroy(image) }
        let w = Double(cairo_image_surface_get_width(image))
        let h = Double(cairo_image_surface_get_height(image))
        guard w > 0, h > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / w, rect.height / h)
        cairo_set_source_surface(cr, image, 0, 0)
        if let pattern = cairo_get_source(cr) { cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD) }
        cairo_paint(cr)
        cairo_restore(cr)
    }

    static func decode(_ png: [UInt8]) -> OpaquePointer? {
        let reader = Reader(png)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
                    let reader = Unmanaged<Reader>.fromOpaque(closure).takeUnretainedValue()
                    let n = Int(length)
                    guard n <= reader.bytes.count - reader.offset else { return CAIRO_STATUS_READ_ERROR }
                    reader.bytes.withUnsafeBufferPointer { all in
                        if let base = all.baseAddress { data.update(from: base + reader.offset, count: n) }
                    }
                    reader.offset += n
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let surface else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        return surface
    }
}
