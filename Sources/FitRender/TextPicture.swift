import FitText

/// How a picture looks.
public struct RenderOptions: Sendable {
    public enum Theme: String, Sendable, CaseIterable {
        case light, dark
    }

    public var theme: Theme = .light
    /// Draw each line's logical box and its baseline.
    public var boxes = false
    /// Space around the text, px (pango-view's default margin is 10).
    public var margin = 10.0
    /// Glyph origins on whole pixels, as cairo 1.16 draws text — Debian 12's, under GTK 3,
    /// GTK 4's cairo renderer and pango-view: its image compositor rounds each glyph's
    /// position. Measured (Tests/render): pango-view's ink matches 97.6–100 % of fitctl's
    /// with it (but for two known differences) and 71–94 % without. Off: where the layout puts them, to 1/1024 px.
    public var pixelAlignedGlyphs = true

    public init(theme: Theme = .light, boxes: Bool = false, margin: Double = 10, pixelAlignedGlyphs: Bool = true) {
        self.theme = theme
        self.boxes = boxes
        self.margin = margin
        self.pixelAlignedGlyphs = pixelAlignedGlyphs
    }

    /// Colours as (r, g, b) in 0…1 and as SVG text.
    struct Palette {
        var background: (Double, Double, Double)
        var text: (Double, Double, Double)
        var box: (Double, Double, Double)
        var baseline: (Double, Double, Double)
    }

    var palette: Palette {
        switch theme {
        case .light: return Palette(background: (1, 1, 1), text: (0, 0, 0), box: (0.2, 0.45, 0.9), baseline: (0.9, 0.3, 0.2))
        case .dark:
            return Palette(background: (0.12, 0.12, 0.13), text: (0.93, 0.93, 0.93), box: (0.4, 0.65, 1), baseline: (1, 0.45, 0.35))
        }
    }
}

/// A glyph layout turned into what both writers draw: glyph shapes at absolute positions
/// (px, y down, the picture's top-left at 0,0), hex boxes and line boxes.
struct TextPicture {
    struct PlacedGlyph {
        var font: GlyphFont
        var glyph: UInt32
        var x: Double
        var y: Double
    }

    struct Rect {
        var x, y, width, height: Double
    }

    var width: Int
    var height: Int
    var glyphs: [PlacedGlyph] = []
    var hexBoxes: [Rect] = []
    var lineBoxes: [Rect] = []
    /// (x0, x1, y) of each baseline.
    var baselines: [(Double, Double, Double)] = []

    /// The largest picture drawn: px a side, and pixels in all (a PNG is drawn in memory at
    /// 4 bytes a pixel: 64 MB at most).
    static let maxSide = 16384.0
    static let maxPixels = 16.0 * 1024 * 1024

    init(_ layout: PositionedGlyphs, options: RenderOptions) throws(RenderError) {
        let m = options.margin.isFinite ? max(0, options.margin) : 0
        let contentWidth = max(layout.metrics.width, layout.lines.map { $0.x + $0.width }.max() ?? 0)
        let w = (contentWidth + 2 * m).rounded(.up)
        let h = (layout.metrics.height + 2 * m).rounded(.up)
        guard w.isFinite, h.isFinite, w <= TextPicture.maxSide, h <= TextPicture.maxSide, w * h <= TextPicture.maxPixels else {
            throw .tooLarge(width: w, height: h, limit: Int(TextPicture.maxSide), pixels: Int(TextPicture.maxPixels))
        }
        width = max(1, Int(w))
        height = max(1, Int(h))
        for line in layout.lines where options.boxes {
            let left = m + line.x
            let baseline = m + line.baseline
            lineBoxes.append(Rect(x: left, y: baseline - line.ascent, width: line.width, height: line.ascent + line.descent))
            baselines.append((left, left + line.width, baseline))
        }
        Self.place(layout, left: m, top: m, pixelAligned: options.pixelAlignedGlyphs, glyphs: &glyphs, hexBoxes: &hexBoxes)
    }

    /// The glyphs and hex boxes of `layout` with its top-left corner at (left, top); `lineX`
    /// gives a line's left edge in the layout instead of its own `x` (a layout's text aligned
    /// in its frame).
    static func place(
        _ layout: PositionedGlyphs, left: Double, top: Double, pixelAligned: Bool, lineX: ((GlyphLine) -> Double)? = nil,
        glyphs: inout [PlacedGlyph], hexBoxes: inout [Rect]
    ) {
        for line in layout.lines {
            let lineLeft = left + (lineX?(line) ?? line.x)
            let baseline = top + line.baseline
            for run in line.runs {
                for g in run.glyphs {
                    if g.hexBox != nil {
                        let extents = run.font.hexBoxExtents
                        // Pango's box is inset from its advance by a pad on each side (about a
                        // 43rd of the font's height, as in BaselineShift.hexBoxExtents).
                        let pad = (run.font.ascent + run.font.descent) / 43
                        hexBoxes.append(
                            Rect(
                                x: lineLeft + g.x + pad, y: baseline - extents.ascent + pad, width: max(0, g.advance - 2 * pad),
                                height: max(0, extents.ascent + extents.descent - 2 * pad)))
                    } else {
                        var x = lineLeft + g.x
                        var y = baseline - g.y
                        if pixelAligned {
                            x = x.rounded()
                            y = y.rounded()
                        }
                        glyphs.append(PlacedGlyph(font: run.font, glyph: g.id, x: x, y: y))
                    }
                }
            }
        }
    }
}

public enum RenderError: Error, CustomStringConvertible, Equatable {
    case tooLarge(width: Double, height: Double, limit: Int, pixels: Int)
    case cairo(String)
    case write(path: String, reason: String)
    case unknownFormat(String)
    /// A label or text of a layout picture the engine could not lay out.
    case text(String)

    public var description: String {
        switch self {
        case .tooLarge(let w, let h, let limit, let pixels):
            return "the picture would be \(w) × \(h) px; at most \(limit) px a side and \(pixels) px in all"
        case .cairo(let reason): return "cairo: \(reason)"
        case .write(let path, let reason): return "cannot write \(path): \(reason)"
        case .unknownFormat(let name): return "\(name): unknown picture format (the output must end in .svg or .png)"
        case .text(let reason): return reason
        }
    }
}
