import CHarfBuzz

/// A measured text as the engine laid it out, glyph by glyph: what a picture of it draws
/// (FitRender). The measurement keeps only cluster advances; the glyphs are shaped again per
/// run of each line (same font, script, direction, language and features) and placed so that
/// every cluster ends exactly where the measurement put it (letter spacing, tabs and rounded
/// GTK 3 advances included).
public struct PositionedGlyphs: Sendable {
    /// The measurement the glyphs belong to (the same as ``TextEngine/measure(_:)``'s).
    public var metrics: TextMetrics
    public var lines: [GlyphLine]
}

/// One line: its runs in visual order, left to right, starting at `x`.
public struct GlyphLine: Sendable {
    /// Distance from the top of the layout to the baseline, px.
    public var baseline: Double
    public var ascent: Double
    public var descent: Double
    /// Logical width, px.
    public var width: Double
    /// Left edge of the line's logical box, px (non-zero for a right-to-left line in a wider
    /// layout, which Pango aligns right). Glyph x is from here, and may be negative: a
    /// wrapped right-to-left line's trailing space hangs off its left end.
    public var x: Double
    public var runs: [GlyphRun]
}

/// Glyphs of one font, in visual order; `x` of each is from the line's left edge.
public struct GlyphRun: Sendable {
    public var font: GlyphFont
    public var glyphs: [PositionedGlyph]
}

public struct PositionedGlyph: Sendable, Hashable {
    /// The font's glyph id (meaningless for a hex box).
    public var id: UInt32
    /// Pen position plus the glyph's offset, px from the line's left edge.
    public var x: Double
    /// Offset above the baseline, px (HarfBuzz's y_offset: up is positive).
    public var y: Double
    /// The horizontal space the glyph's cluster takes, px (the last glyph of a cluster carries
    /// what the measurement adds: letter spacing, tab stops).
    public var advance: Double
    /// No font has the character: Pango draws a box showing this code point in hex, `advance`
    /// wide; ``GlyphFont/hexBoxExtents`` gives its height.
    public var hexBox: UInt32?
}

/// A font of positioned glyphs, as far as drawing needs it.
public struct GlyphFont: Sendable, Hashable {
    let font: Font
    let hexBox: (ascent: Double, descent: Double)

    /// Unique while the engine lives: a key for sharing outlines between glyphs.
    public var id: Int { font.id }
    public var family: String { font.face.family }
    public var pixelSize: Double { font.pixelSize }
    public var ascent: Double { font.ascent }
    public var descent: Double { font.descent }
    /// The font file, its face index (the high 16 bits a named instance) and a variable
    /// face's coordinates ("wght=550"), as fontconfig matched them: what a renderer hands
    /// FreeType to draw the glyphs as Pango does.
    public var file: String { font.face.file }
    public var faceIndex: Int { font.face.index }
    public var variations: String? { font.face.variations }
    /// The extents of this font's hex boxes above and below the baseline, px.
    public var hexBoxExtents: (ascent: Double, descent: Double) { hexBox }
    /// The `hb_font_t` the engine shapes with, at 1024 units per px (Pango's scale): glyph
    /// outlines and colour tables are read from it. Valid while the layout is held.
    public var hbFont: OpaquePointer { font.hbFont }

    public static func == (a: GlyphFont, b: GlyphFont) -> Bool { a.font === b.font }
    public func hash(into hasher: inout Hasher) { hasher.combine(font.id) }
}

/// Collects the lines of one typesetter while it runs.
final class GlyphSink {
    var lines: [GlyphLine] = []
    /// The paragraph whose direction was last worked out (its first UTF-16 offset in the
    /// text) and that direction.
    var paragraph: (start: Int, rightToLeft: Bool)?
}

extension PixelTypesetter {
    /// The glyphs of one laid line: `head`, the ellipsis (if any), then `tail`, in logical
    /// order, reordered to visual order by bidi level (UAX #9 L2).
    func glyphLine(
        line: LineBreaker.Line, head: Range<Int>, tail: Range<Int>, ellipsis: (text: String, font: Font)?,
        breaker: LineBreaker, text: UnsafeBufferPointer<UInt16>, metrics: LineMetrics, paragraph: Int,
        markupRaises: [Double]? = nil
    ) -> GlyphLine {
        let rightToLeft = paragraphIsRightToLeft(breaker, paragraph: paragraph)
        let runs = LineRuns(line: line, breaker: breaker, text: text, rightToLeft: rightToLeft, style: style, markupRaises: markupRaises)
        var items: [GlyphItem] = []
        runs.add(head, to: &items, typesetter: self)
        if let ellipsis {
            items.append(ellipsisItem(ellipsis, head: head, tail: tail, breaker: breaker, lineWidth: metrics.width))
        }
        runs.add(tail, to: &items, typesetter: self)
        GlyphItem.reorder(&items)
        var drawn = 0.0
        for item in items { drawn += item.width }
        // A right-to-left paragraph's lines sit at the right of a wider layout; a wrapped
        // line's trailing white space (not in its width) hangs off its left end, as Pango
        // draws it (measured with pango-view: the lines' last letters align on the right).
        let layoutWidth = request.maxWidth ?? metrics.width
        let left = rightToLeft ? layoutWidth - metrics.width : 0
        var placed: [GlyphRun] = []
        placed.reserveCapacity(items.count)
        var x = rightToLeft ? metrics.width - drawn : 0
        for item in items {
            var run = item.run
            for k in run.glyphs.indices { run.glyphs[k].x += x }
            x += item.width
            placed.append(run)
        }
        return GlyphLine(
            baseline: 0, ascent: metrics.ascent, descent: metrics.descent, width: metrics.width, x: left, runs: placed)
    }

    /// The ellipsis as one item, at the level of the text before it (else after it), padded so
    /// that the line is as wide as the measurement says (`lineWidth`).
    private func ellipsisItem(
        _ ellipsis: (text: String, font: Font), head: Range<Int>, tail: Range<Int>, breaker: LineBreaker, lineWidth: Double
    ) -> GlyphItem {
        let units = Array(ellipsis.text.utf16)
        let level = head.last.map { breaker.clusters[$0].level } ?? tail.first.map { breaker.clusters[$0].level } ?? 0
        let shaped = units.withUnsafeBufferPointer {
            Shaper.glyphs($0, font: ellipsis.font, rightToLeft: false, script: 0, language: style.language.hbLanguage(script: 0), features: [])
        }
        var x = 0.0
        var glyphs: [PositionedGlyph] = []
        for g in shaped {
            glyphs.append(PositionedGlyph(id: g.id, x: x + g.xOffset, y: g.yOffset, advance: g.advance, hexBox: nil))
            x += g.advance
        }
        let kept = breaker.clusters[head].reduce(0) { $0 + $1.width } + breaker.clusters[tail].reduce(0) { $0 + $1.width }
        let width = max(x, lineWidth - kept)
        return GlyphItem(level: level, run: GlyphRun(font: glyphFont(ellipsis.font), glyphs: glyphs), width: width)
    }

    /// Whether the paragraph's base direction is right to left: its lowest bidi level is odd
    /// (the first strong character, UAX #9 P2–P3, has the base level). Worked out once per
    /// paragraph, not per line.
    private func paragraphIsRightToLeft(_ breaker: LineBreaker, paragraph: Int) -> Bool {
        guard let sink = glyphSink else { return false }
        if sink.paragraph?.start == paragraph, let known = sink.paragraph?.rightToLeft { return known }
        var lowest = UInt8.max
        for cluster in breaker.clusters where cluster.level < lowest { lowest = cluster.level }
        let rightToLeft = lowest != .max && lowest & 1 == 1
        sink.paragraph = (paragraph, rightToLeft)
        return rightToLeft
    }

    func glyphFont(_ font: Font) -> GlyphFont {
        GlyphFont(font: font, hexBox: style.hexBoxExtents(font: font))
    }

    /// One run of clusters shaped again, glyph x from the run's left edge; each HarfBuzz
    /// cluster's glyphs together take the width the measurement gave its grapheme clusters.
    fileprivate func glyphRun(
        clusters: Range<Int>, font: Font, script: Int32, level: UInt8, breaker: LineBreaker,
        text: UnsafeBufferPointer<UInt16>, hyphen: Bool
    ) -> (run: GlyphRun, width: Double) {
        let u0 = breaker.start(of: clusters.lowerBound)
        let u1 = breaker.start(of: clusters.upperBound)
        let rightToLeft = level & 1 == 1
        let language = style.language.hbLanguage(script: script)
        guard u0 <= u1, u1 <= text.count else { return (GlyphRun(font: glyphFont(font), glyphs: []), 0) }
        let slice = UnsafeBufferPointer(rebasing: text[u0..<u1])
        let shaped = Shaper.glyphs(slice, font: font, rightToLeft: rightToLeft, script: script, language: language, features: style.features)
        // The measured width of each HarfBuzz cluster: its grapheme clusters' widths.
        var measured: [Int32: Double] = [:]
        let starts = Set(shaped.map(\.cluster)).sorted()
        var s = 0
        for c in clusters {
            let start = Int32(breaker.start(of: c) - u0)
            while s + 1 < starts.count && starts[s + 1] <= start { s += 1 }
            let key = starts.isEmpty ? 0 : starts[s]
            measured[key, default: 0] += breaker.clusters[c].width
        }
        var glyphs: [PositionedGlyph] = []
        glyphs.reserveCapacity(shaped.count)
        var x = 0.0
        var k = 0
        while k < shaped.count {
            let cluster = shaped[k].cluster
            var end = k
            var sum = 0.0
            while end < shaped.count && shaped[end].cluster == cluster {
                sum += shaped[end].advance
                end += 1
            }
            let extra = (measured[cluster] ?? sum) - sum
            for g in k..<end {
                var advance = shaped[g].advance
                if g == end - 1 { advance += extra }
                var box: UInt32? = nil
                if shaped[g].id == 0 {
                    let unit = Int(cluster)
                    box = unit >= 0 && unit < slice.count ? TextAnalyzer.scalar(at: unit, in: slice) : 0xFFFD
                }
                glyphs.append(PositionedGlyph(id: shaped[g].id, x: x + shaped[g].xOffset, y: shaped[g].yOffset, advance: advance, hexBox: box))
                x += advance
            }
            k = end
        }
        if hyphen {
            var glyph: hb_codepoint_t = 0
            if hb_font_get_nominal_glyph(font.hbFont, 0x2010, &glyph) != 0 || hb_font_get_nominal_glyph(font.hbFont, 0x2D, &glyph) != 0 {
                let advance = font.hyphenAdvance
                let at = rightToLeft ? 0 : x
                if rightToLeft { for g in glyphs.indices { glyphs[g].x += advance } }
                glyphs.append(PositionedGlyph(id: glyph, x: at, y: 0, advance: advance, hexBox: nil))
                x += advance
            }
        }
        return (GlyphRun(font: glyphFont(font), glyphs: glyphs), x)
    }
}

/// A run of a line's glyphs before reordering, with its bidi level and the width it takes.
private struct GlyphItem {
    var level: UInt8
    var run: GlyphRun
    var width: Double

    /// UAX #9 L2: from the highest level down to the lowest odd one (the lowest level, made
    /// odd), reverse every sequence of items at that level or above.
    static func reorder(_ items: inout [GlyphItem]) {
        guard let highest = items.map(\.level).max(), let lowest = items.map(\.level).min(), highest > 0 else { return }
        let lowestOdd = lowest | 1
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < items.count {
                if items[i].level >= level {
                    var j = i
                    while j < items.count && items[j].level >= level { j += 1 }
                    items[i..<j].reverse()
                    i = j
                } else {
                    i += 1
                }
            }
            level -= 1
        }
    }
}

/// A line's clusters cut into glyph runs: one font, script and bidi level, and with markup one
/// raise, each shaped again (``PixelTypesetter/glyphRun``) and raised as the line's extents were.
private struct LineRuns {
    let line: LineBreaker.Line
    let breaker: LineBreaker
    let text: UnsafeBufferPointer<UInt16>
    let rightToLeft: Bool
    /// UAX #9 L1: white space ending the line takes the paragraph's level (in a
    /// right-to-left paragraph it goes to the line's left end); it starts here.
    let trailing: Int
    /// Runs aligned on the dominant baseline of the line's first run (``BaselineShift``),
    /// as the line's ascent and descent were.
    let shift: BaselineShift?
    /// Markup's rise and sub/sup baseline shifts, per cluster: the raises the line's extents
    /// were measured with (PixelTypesetter's apply_baseline_shift walk over the line's items).
    let raises: [Double]?

    init(
        line: LineBreaker.Line, breaker: LineBreaker, text: UnsafeBufferPointer<UInt16>, rightToLeft: Bool, style: ResolvedStyle,
        markupRaises: [Double]?
    ) {
        self.line = line
        self.breaker = breaker
        self.text = text
        self.rightToLeft = rightToLeft
        var trailing = line.range.upperBound
        while trailing > line.range.lowerBound && breaker.isWhiteSpace(trailing - 1) { trailing -= 1 }
        self.trailing = trailing
        shift = BaselineShift(line: line.range, breaker: breaker, style: style)
        raises = markupRaises
    }

    func level(_ c: Int) -> UInt8 { c >= trailing ? (rightToLeft ? 1 : 0) : breaker.clusters[c].level }

    func markupRaise(_ c: Int) -> Double {
        guard let raises else { return 0 }
        let k = c - line.range.lowerBound
        return k >= 0 && k < raises.count ? raises[k] : 0
    }

    /// The runs of the clusters `range`, in logical order.
    func add(_ range: Range<Int>, to items: inout [GlyphItem], typesetter: PixelTypesetter) {
        var start = range.lowerBound
        while start < range.upperBound {
            let first = breaker.clusters[start]
            let firstLevel = level(start)
            let firstRaise = markupRaise(start)
            var end = start + 1
            while end < range.upperBound {
                let c = breaker.clusters[end]
                if c.font != first.font || c.script != first.script || level(end) != firstLevel { break }
                if raises != nil && markupRaise(end) != firstRaise { break }
                end += 1
            }
            let font = breaker.fonts[Int(first.font)]
            let hyphen = line.hyphenated && end == line.range.upperBound && end == range.upperBound
            let run = typesetter.glyphRun(
                clusters: start..<end, font: font, script: first.script, level: first.level, breaker: breaker, text: text,
                hyphen: hyphen)
            var shifted = run.run
            let up = (shift?.raise(font, script: first.script) ?? 0) + firstRaise
            if up != 0 { for k in shifted.glyphs.indices { shifted.glyphs[k].y += up } }
            items.append(GlyphItem(level: firstLevel, run: shifted, width: run.width))
            start = end
        }
    }
}

extension Shaper {
    struct Glyph {
        var id: UInt32
        var cluster: Int32
        var advance: Double
        var xOffset: Double
        var yOffset: Double
    }

    /// The glyphs of a run in visual order, px (advances rounded as the measurement rounds them).
    static func glyphs(
        _ text: UnsafeBufferPointer<UInt16>, font: Font, rightToLeft: Bool, script: Int32, language: UInt,
        features: [hb_feature_t]
    ) -> [Glyph] {
        buffers.withBuffer { buffer -> [Glyph] in
            hb_buffer_add_utf16(buffer, text.baseAddress, Int32(text.count), 0, Int32(text.count))
            hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb_buffer_set_script(buffer, Shaper.hbScript(script))
            hb_buffer_set_language(buffer, OpaquePointer(bitPattern: language))
            hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
            hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: HB_BUFFER_FLAG_BOT.rawValue | HB_BUFFER_FLAG_EOT.rawValue))
            features.withUnsafeBufferPointer { list in
                hb_shape(font.hbFont, buffer, list.baseAddress, UInt32(list.count))
            }
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count) else { return [] }
            var positionCount: UInt32 = 0
            guard let positions = hb_buffer_get_glyph_positions(buffer, &positionCount), positionCount == count else { return [] }
            var result: [Glyph] = []
            result.reserveCapacity(Int(count))
            for i in 0..<Int(count) {
                // A negative advance is made positive and the glyph moved right by as much
                // (``Font/advanceUnits``), as Pango draws it.
                let backwards = positions[i].x_advance < 0 ? -Int64(positions[i].x_advance) : 0
                result.append(
                    Glyph(
                        id: infos[i].codepoint, cluster: Int32(bitPattern: infos[i].cluster),
                        advance: Double(font.advanceUnits(positions[i].x_advance)) / Font.unitsPerPixel,
                        xOffset: Double(Int64(positions[i].x_offset) + backwards) / Font.unitsPerPixel,
                        yOffset: Double(positions[i].y_offset) / Font.unitsPerPixel))
            }
            return result
        } ?? []
    }
}
