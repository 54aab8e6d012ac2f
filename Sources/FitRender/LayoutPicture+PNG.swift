import CCairo
import FitLayout
import FitText

extension LayoutPicture {
    /// Draws the picture with cairo, as ``svg()`` describes it, and writes it as PNG
    /// (``PNGEncoder``: zlib's fastest level, for speed).
    public func writePNG(to path: String) throws(RenderError) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(scene.width), Int32(scene.height)) else {
            throw .cairo("no image surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            throw .cairo(String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        }
        defer { cairo_destroy(cr) }
        draw(on: cr)
        let drawn = cairo_status(cr)
        guard drawn == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(drawn))) }
        cairo_surface_flush(surface)
        try PNGEncoder.write(surface, to: path)
    }

    private func draw(on cr: OpaquePointer) {
        let palette = LayoutPalette.of(options.theme)
        func source(_ c: LayoutPalette.RGB) { cairo_set_source_rgb(cr, c.0, c.1, c.2) }
        func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill c: LayoutPalette.RGB) {
            source(c)
            cairo_rectangle(cr, x, y, w, h)
            cairo_fill(cr)
        }
        source(palette.background)
        cairo_paint(cr)
        cairo_set_line_width(cr, 1)
        for sheet in scene.sheets {
            cairo_save(cr)
            cairo_translate(cr, sheet.x, sheet.y)
            rect(0, 0, sheet.width, sheet.height, fill: palette.sheet)
            for label in sheet.labels { glyphs(label.glyphs, label.hexBoxes, color: palette.label, on: cr) }
            cairo_translate(cr, sheet.layoutX, sheet.layoutY)
            rect(0, 0, sheet.layoutWidth, sheet.layoutHeight, fill: palette.area)
            for o in sheet.outlines {
                if o.style == .image && !o.hidden { rect(o.rect.x, o.rect.y, o.rect.width, o.rect.height, fill: palette.imageFill) }
                source(palette.stroke(o.style))
                if LayoutPalette.dashed(o) {
                    let dashes = [3.0, 2.0]
                    cairo_set_dash(cr, dashes, 2, 0)
                } else {
                    cairo_set_dash(cr, nil, 0, 0)
                }
                cairo_rectangle(cr, o.rect.x, o.rect.y, o.rect.width, o.rect.height)
                cairo_stroke(cr)
            }
            if let x = sheet.proposalX {
                source(palette.proposal)
                cairo_set_dash(cr, [2.0, 2.0], 2, 0)
                cairo_move_to(cr, x, 0)
                cairo_line_to(cr, x, sheet.layoutHeight)
                cairo_stroke(cr)
            }
            cairo_set_dash(cr, nil, 0, 0)
            glyphs(sheet.glyphs, sheet.hexBoxes, color: palette.text, on: cr)
            cairo_restore(cr)
        }
    }

    private func glyphs(_ placed: [TextPicture.PlacedGlyph], _ hexBoxes: [TextPicture.Rect], color: LayoutPalette.RGB, on cr: OpaquePointer) {
        cairo_set_source_rgb(cr, color.0, color.1, color.2)
        // Outline glyphs as GTK draws them, FreeType's masks from cairo's glyph cache
        // (FreeTypeGlyphs); a glyph whose font cairo cannot load is filled from its outline,
        // all such in one path and one fill (a fill per glyph cost most of a PNG's time).
        cairo_new_path(cr)
        for g in placed {
            if case .outline(let commands) = shapes.shape(of: g.glyph, in: g.font),
                !shapes.freeType.show(g.glyph, font: g.font, x: g.x, y: g.y, on: cr)
            {
                PNGWriter.path(commands, at: g.x, g.y, on: cr)
            }
        }
        cairo_fill(cr)
        for g in placed {
            switch shapes.shape(of: g.glyph, in: g.font) {
            case .outline:
                continue
            case .bitmap(let png, let x, let y, let width, let height):
                PNGWriter.paintBitmap(png, in: LayoutRect(x: g.x + x, y: g.y + y, width: width, height: height), on: cr)
                cairo_set_source_rgb(cr, color.0, color.1, color.2)
            case .empty:
                continue
            }
        }
        if !hexBoxes.isEmpty {
            for r in hexBoxes { cairo_rectangle(cr, r.x, r.y, r.width, r.height) }
            cairo_stroke(cr)
        }
    }
}
