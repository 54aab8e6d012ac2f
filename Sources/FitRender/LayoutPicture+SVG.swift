import FitText

/// Colours of a layout picture, per theme.
struct LayoutPalette {
    typealias RGB = (Double, Double, Double)
    var background: RGB
    var sheet: RGB
    var area: RGB
    var text: RGB
    var label: RGB
    var container: RGB
    var modifier: RGB
    var decision: RGB
    var textFrame: RGB
    var spacer: RGB
    var image: RGB
    var imageFill: RGB
    var proposal: RGB

    static func of(_ theme: RenderOptions.Theme) -> LayoutPalette {
        switch theme {
        case .light:
            return LayoutPalette(
                background: (0.93, 0.94, 0.95), sheet: (1, 1, 1), area: (0.97, 0.975, 0.98), text: (0, 0, 0), label: (0.3, 0.32, 0.36),
                container: (0.62, 0.66, 0.74), modifier: (0.2, 0.6, 0.5), decision: (0.9, 0.45, 0.05), textFrame: (0.25, 0.45, 0.9),
                spacer: (0.7, 0.7, 0.7), image: (0.5, 0.55, 0.7), imageFill: (0.86, 0.88, 0.94), proposal: (0.85, 0.2, 0.25))
        case .dark:
            return LayoutPalette(
                background: (0.07, 0.07, 0.08), sheet: (0.12, 0.12, 0.13), area: (0.15, 0.15, 0.17), text: (0.93, 0.93, 0.93),
                label: (0.7, 0.72, 0.76), container: (0.42, 0.46, 0.54), modifier: (0.3, 0.75, 0.62), decision: (1, 0.6, 0.2),
                textFrame: (0.45, 0.65, 1), spacer: (0.45, 0.45, 0.45), image: (0.55, 0.6, 0.78), imageFill: (0.22, 0.24, 0.3), proposal: (1, 0.4, 0.45))
        }
    }

    func stroke(_ style: LayoutScene.Style) -> RGB {
        switch style {
        case .container: return container
        case .modifier: return modifier
        case .decision: return decision
        case .text: return textFrame
        case .spacer: return spacer
        case .image: return image
        }
    }

    /// Spacers and hidden nodes are dashed: they take room and draw nothing.
    static func dashed(_ outline: LayoutScene.Outline) -> Bool { outline.hidden || outline.style == .spacer }
}

extension LayoutPicture {
    /// The picture as SVG 1.1 (valid against its DTD, so no data-* attributes): each sheet a
    /// `<g class="sheet">` whose `<desc>` is "category C; width W", its title and each decision
    /// a `<g class="label title|decision|truncated">` titled with its words; each shown node's frame a
    /// `<rect class="node KIND">` (plus " hidden") at its layout coordinates, in a group moved
    /// to the layout's origin, its `<title>` the node's id. Glyphs are defined once for all
    /// sheets in `<defs>` and placed with `<use>`.
    public func svg() -> String {
        let palette = LayoutPalette.of(options.theme)
        let color = SVGWriter.color, n = SVGWriter.number
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\""
        out += " width=\"\(scene.width)\" height=\"\(scene.height)\" viewBox=\"0 0 \(scene.width) \(scene.height)\">\n"
        var defined: [String: Bool] = [:]
        var defs = ""
        var names = SVGWriter.GlyphNames()
        for sheet in scene.sheets {
            for g in sheet.labels.flatMap(\.glyphs) + sheet.glyphs {
                let id = names.id(g)
                if defined[id] != nil { continue }
                defined[id] = SVGWriter.definition(id: id, shape: shapes.shape(of: g.glyph, in: g.font), into: &defs)
            }
        }
        if !defs.isEmpty { out += "<defs>\n" + defs + "</defs>\n" }
        out += "<rect width=\"100%\" height=\"100%\" fill=\"\(color(palette.background))\"/>\n"
        func uses(_ glyphs: [TextPicture.PlacedGlyph], fill: LayoutPalette.RGB) {
            out += "<g fill=\"\(color(fill))\">\n"
            for g in glyphs {
                let id = names.id(g)
                guard defined[id] == true else { continue }
                out += "<use xlink:href=\"#\(id)\" x=\"\(n(g.x))\" y=\"\(n(g.y))\"/>\n"
            }
            out += "</g>\n"
        }
        func boxes(_ rects: [TextPicture.Rect], stroke: LayoutPalette.RGB) {
            guard !rects.isEmpty else { return }
            out += "<g fill=\"none\" stroke=\"\(color(stroke))\" stroke-width=\"1\">\n"
            for r in rects { out += SVGWriter.rect(r) }
            out += "</g>\n"
        }
        for sheet in scene.sheets {
            out += "<g class=\"sheet\" transform=\"translate(\(n(sheet.x)) \(n(sheet.y)))\">\n"
            out += "<title>\(Self.escaped(sheet.title))</title>\n"
            out += "<desc>category \(Self.escaped(sheet.category)); width \(Self.escaped(sheet.proposal))</desc>\n"
            out += "<rect width=\"\(n(sheet.width))\" height=\"\(n(sheet.height))\" fill=\"\(color(palette.sheet))\"/>\n"
            // Each label line a titled group: the words are readable (and testable) as text.
            for label in sheet.labels {
                out += "<g class=\"label \(label.role.rawValue)\"><title>\(Self.escaped(label.text))</title>\n"
                uses(label.glyphs, fill: palette.label)
                boxes(label.hexBoxes, stroke: palette.label)
                out += "</g>\n"
            }
            out += "<g class=\"layout\" transform=\"translate(\(n(sheet.layoutX)) \(n(sheet.layoutY)))\">\n"
            out += "<rect width=\"\(n(sheet.layoutWidth))\" height=\"\(n(sheet.layoutHeight))\" fill=\"\(color(palette.area))\"/>\n"
            if let x = sheet.proposalX {
                out += "<line class=\"proposal\" x1=\"\(n(x))\" y1=\"0\" x2=\"\(n(x))\" y2=\"\(n(sheet.layoutHeight))\""
                out += " stroke=\"\(color(palette.proposal))\" stroke-width=\"1\" stroke-dasharray=\"2 2\"><title>proposed width</title></line>\n"
            }
            for o in sheet.outlines {
                let fill = o.style == .image && !o.hidden ? color(palette.imageFill) : "none"
                out += "<rect class=\"node \(o.kind.rawValue)\(o.hidden ? " hidden" : "")\" x=\"\(n(o.rect.x))\" y=\"\(n(o.rect.y))\""
                out += " width=\"\(n(o.rect.width))\" height=\"\(n(o.rect.height))\" fill=\"\(fill)\" stroke=\"\(color(palette.stroke(o.style)))\""
                out += " stroke-width=\"1\"\(LayoutPalette.dashed(o) ? " stroke-dasharray=\"3 2\"" : "")>"
                out += "<title>\(Self.escaped(o.nodeID))</title></rect>\n"
            }
            uses(sheet.glyphs, fill: palette.text)
            boxes(sheet.hexBoxes, stroke: palette.text)
            out += "</g>\n</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// Text for XML character data and attribute values. Node ids are the document's
    /// (untrusted): characters XML 1.0 cannot carry at all (controls but tab and newlines,
    /// U+FFFE, U+FFFF) become U+FFFD.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

extension SVGWriter {
    /// Appends a glyph's `<defs>` entry; whether it draws anything.
    static func definition(id: String, shape: GlyphShape, into defs: inout String) -> Bool {
        switch shape {
        case .outline(let commands):
            defs += "<path id=\"\(id)\" d=\"\(pathData(commands))\"/>\n"
            return true
        case .bitmap(let png, let x, let y, let width, let height):
            defs += "<image id=\"\(id)\" x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\""
            defs += " height=\"\(number(height))\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,\(Base64.encode(png))\"/>\n"
            return true
        case .empty:
            return false
        }
    }
}
