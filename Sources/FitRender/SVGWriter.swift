import FitText

/// Writes a glyph layout as SVG 1.1 text: each distinct (font, glyph) once in `<defs>` (a
/// `<path>`, or an `<image>` of its PNG for a colour bitmap glyph), placed with `<use>`, so a
/// page of text costs one outline per letter it uses, not per letter it shows.
public struct SVGWriter {
    public var options: RenderOptions

    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    public func svg(_ layout: PositionedGlyphs, shapes: GlyphShapes = GlyphShapes()) throws(RenderError) -> String {
        let picture = try TextPicture(layout, options: options)
        let palette = options.palette
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\""
        out += " width=\"\(picture.width)\" height=\"\(picture.height)\" viewBox=\"0 0 \(picture.width) \(picture.height)\">\n"

        // The defs: one entry per glyph shown, in order of first use.
        var defined: [String: Bool] = [:]  // id → drawable
        var defs = ""
        var names = GlyphNames()
        for g in picture.glyphs {
            let id = names.id(g)
            if defined[id] != nil { continue }
            switch shapes.shape(of: g.glyph, in: g.font) {
            case .outline(let commands):
                defs += "<path id=\"\(id)\" d=\"\(SVGWriter.pathData(commands))\"/>\n"
                defined[id] = true
            case .bitmap(let png, let x, let y, let width, let height):
                defs += "<image id=\"\(id)\" x=\"\(SVGWriter.number(x))\" y=\"\(SVGWriter.number(y))\" width=\"\(SVGWriter.number(width))\""
                defs += " height=\"\(SVGWriter.number(height))\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,\(Base64.encode(png))\"/>\n"
                defined[id] = true
            case .empty:
                defined[id] = false
            }
        }
        if !defs.isEmpty { out += "<defs>\n" + defs + "</defs>\n" }
        out += "<rect width=\"100%\" height=\"100%\" fill=\"\(SVGWriter.color(palette.background))\"/>\n"
        if !picture.lineBoxes.isEmpty {
            out += "<g fill=\"none\" stroke=\"\(SVGWriter.color(palette.box))\" stroke-width=\"1\">\n"
            for r in picture.lineBoxes { out += SVGWriter.rect(r) }
            out += "</g>\n<g stroke=\"\(SVGWriter.color(palette.baseline))\" stroke-width=\"1\">\n"
            for (x0, x1, y) in picture.baselines {
                out += "<line x1=\"\(SVGWriter.number(x0))\" y1=\"\(SVGWriter.number(y))\" x2=\"\(SVGWriter.number(x1))\" y2=\"\(SVGWriter.number(y))\"/>\n"
            }
            out += "</g>\n"
        }
        out += "<g fill=\"\(SVGWriter.color(palette.text))\">\n"
        for g in picture.glyphs {
            let id = names.id(g)
            guard defined[id] == true else { continue }
            out += "<use xlink:href=\"#\(id)\" x=\"\(SVGWriter.number(g.x))\" y=\"\(SVGWriter.number(g.y))\"/>\n"
        }
        out += "</g>\n"
        if !picture.hexBoxes.isEmpty {
            out += "<g fill=\"none\" stroke=\"\(SVGWriter.color(palette.text))\" stroke-width=\"1\">\n"
            for r in picture.hexBoxes { out += SVGWriter.rect(r) }
            out += "</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// A glyph's `<defs>` id: "f" and its font's number in this picture, in order of first
    /// use, then "g" and the glyph. Numbered per picture, not by the engine's font ids (which
    /// count every font the engine loaded before), so the same text gives the same SVG from a
    /// fresh engine (the daemon's case) and from one that measured other texts first (--local).
    struct GlyphNames {
        private var fonts: [Int: Int] = [:]
        mutating func id(_ g: TextPicture.PlacedGlyph) -> String {
            let number: Int
            if let known = fonts[g.font.id] {
                number = known
            } else {
                number = fonts.count
                fonts[g.font.id] = number
            }
            return "f\(number)g\(g.glyph)"
        }
    }

    static func rect(_ r: TextPicture.Rect) -> String {
        "<rect x=\"\(number(r.x))\" y=\"\(number(r.y))\" width=\"\(number(r.width))\" height=\"\(number(r.height))\"/>\n"
    }

    static func color(_ c: (Double, Double, Double)) -> String {
        func hex(_ v: Double) -> String {
            let n = Int((min(1, max(0, v)) * 255).rounded())
            let digits = Array("0123456789abcdef")
            return String([digits[n >> 4], digits[n & 15]])
        }
        return "#" + hex(c.0) + hex(c.1) + hex(c.2)
    }

    /// SVG path data, coordinates to 1/100 px.
    public static func pathData(_ commands: [PathCommand]) -> String {
        var d = ""
        for command in commands {
            switch command {
            case .move(let x, let y): d += "M\(number(x)) \(number(y))"
            case .line(let x, let y): d += "L\(number(x)) \(number(y))"
            case .quadratic(let cx, let cy, let x, let y): d += "Q\(number(cx)) \(number(cy)) \(number(x)) \(number(y))"
            case .cubic(let a, let b, let c, let e, let x, let y):
                d += "C\(number(a)) \(number(b)) \(number(c)) \(number(e)) \(number(x)) \(number(y))"
            case .close: d += "Z"
            }
        }
        return d
    }

    /// A number to 1/100, without trailing zeros ("12", "3.5", "-0.25").
    static func number(_ value: Double) -> String {
        // A font's coordinates are untrusted floats: beyond ±1e12 px (no real glyph) they
        // are written as 0 rather than overflow the conversion to Int.
        guard value.isFinite, value.magnitude < 1e12 else { return "0" }
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let whole = magnitude / 100
        let fraction = magnitude % 100
        if fraction == 0 { return sign + String(whole) }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

enum Base64 {
    static func encode(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], table[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
