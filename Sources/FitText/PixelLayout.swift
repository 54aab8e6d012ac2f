import CHarfBuzz

/// One request laid out in pixels: paragraphs → shaped clusters → lines → metrics.
struct PixelLayout {
    let request: MeasureRequest
    /// The fontset of the description in the context language (the base font, the ellipsis).
    let baseSet: FontSet
    let fontSetForScript: (Int32) throws(FitTextError) -> FontSet
    let emojiFontSet: () throws(FitTextError) -> FontSet
    let features: [hb_feature_t]
    let featureKey: [String]
    let shapeCache: ByteBoundedCache<ShapeKey, ShapedRun>
    let analyzer: TextAnalyzer
    let language: LanguageContext
    let hexBoxWidth: (Font, Bool) throws(FitTextError) -> Double

    func run() throws(FitTextError) -> TextMetrics {
        let units = Array(request.text.utf16)
        let primary = try baseSet.font(at: 0)
        let ellipsizing = request.ellipsize != .none && request.maxWidth != nil
        let hyphenation = request.maxWidth != nil && request.wrap != .word
        let letterSpacing = LineBreaker.pangoUnits(request.letterSpacing)
        let shaper = ParagraphShaper(
            fontSetForScript: fontSetForScript, emojiFontSet: emojiFontSet, features: features,
            featureKey: featureKey, letterSpacing: letterSpacing, hexBoxWidth: hexBoxWidth, language: language, shapeCache: shapeCache)
        let codePoints = request.includeLines ? CodePointIndex(units) : nil

        var result = TextMetrics(
            width: 0, height: 0, baseline: 0, lineCount: 0, ellipsized: false, truncated: false,
            unit: .px, lines: [], fontsUsed: [])
        var families: [String] = []

        for paragraph in Paragraphs.split(units) {
            if !ellipsizing, let maxLines = request.maxLines, result.lineCount >= maxLines {
                result.truncated = true
                break
            }
            try units.withUnsafeBufferPointer { (all: UnsafeBufferPointer<UInt16>) throws(FitTextError) in
                let text = UnsafeBufferPointer(rebasing: all[paragraph])
                let analysis = try analyzer.analyze(text, lineBreaks: request.maxWidth != nil, hyphenation: hyphenation)
                let shaped = try shaper.shape(text, analysis: analysis, primary: primary)
                var breaker = LineBreaker(
                    widths: shaped.widths, canBreakBefore: analysis.canBreakBefore, isWhiteSpace: analysis.isWhiteSpace,
                    hyphenBefore: analysis.hyphenBefore,
                    hyphenWidth: { cluster in PixelLayout.hyphenAdvance(shaped.fonts[cluster]) })
                if text.contains(0x09) {
                    breaker.isTab = (0..<analysis.clusterCount).map { text[Int(analysis.graphemeStarts[$0])] == 0x09 }
                    breaker.tabStops = TabStops(spaceWidth: ParagraphShaper.spaceWidth(of: primary))
                }
                // Pango's set_height(-N): N lines per paragraph, the last taking the rest and
                // ellipsized; without ellipsizing, the first N lines of the layout are shown.
                let limit = ellipsizing ? (request.maxLines ?? 1) : Int.max
                var lines = breaker.lines(maxWidth: request.maxWidth, wrap: request.wrap, limit: limit)
                if !ellipsizing, let maxLines = request.maxLines, result.lineCount + lines.count > maxLines {
                    lines.removeLast(result.lineCount + lines.count - maxLines)
                    result.truncated = true
                }
                for (k, line) in lines.enumerated() {
                    var laid = try layLine(
                        line, breaker: breaker, shaped: shaped, text: text, primary: primary,
                        ellipsize: ellipsizing && k == limit - 1, letterSpacing: letterSpacing, families: &families)
                    laid.baseline = result.height + laid.ascent
                    if result.lineCount == 0 { result.baseline = laid.ascent }
                    result.height += laid.ascent + laid.descent
                    result.width = max(result.width, laid.width)
                    result.lineCount += 1
                    if laid.ellipsized { result.ellipsized = true; result.truncated = true }
                    if let codePoints {
                        let first = paragraph.lowerBound + Int(analysis.graphemeStarts[line.range.lowerBound])
                        let last = paragraph.lowerBound + Int(analysis.graphemeStarts[line.range.upperBound])
                        laid.start = codePoints.codePoints(at: first)
                        laid.length = codePoints.codePoints(at: last) - laid.start
                        result.lines.append(laid)
                    }
                }
            }
        }
        result.fontsUsed = families.isEmpty ? [primary.face.family] : families
        return result
    }

    /// Width, ascent and descent of one line; the line's text when lines were asked for.
    private func layLine(
        _ line: LineBreaker.Line, breaker: LineBreaker, shaped: ShapedParagraph, text: UnsafeBufferPointer<UInt16>,
        primary: Font, ellipsize: Bool, letterSpacing: Double, families: inout [String]
    ) throws(FitTextError) -> LineMetrics {
        var kept = [line.range]
        var width = breaker.width(of: line)
        var ellipsisFont: Font? = nil
        var ellipsized = false
        var ellipsisText = ""

        if ellipsize, let maxWidth = request.maxWidth {
            let goal = LineBreaker.pangoUnits(maxWidth)
            // The ellipsis is U+2026, or U+22EF when the first character it replaces is wide,
            // in the font the fallback chain picks for it (ellipsize.c shape_ellipsis).
            var (character, font, ellipsisWidth) = try ellipsis(replacing: line.range.last ?? 0, shaped: shaped, text: text)
            if var cut = Ellipsizer.ellipsize(line.range, widths: shaped.widths, mode: request.ellipsize, goal: goal, ellipsisWidth: ellipsisWidth) {
                let refined = try ellipsis(replacing: cut.gapStart, shaped: shaped, text: text)
                if refined.2 != ellipsisWidth || refined.0 != character {
                    (character, font, ellipsisWidth) = refined
                    cut = Ellipsizer.ellipsize(line.range, widths: shaped.widths, mode: request.ellipsize, goal: goal, ellipsisWidth: ellipsisWidth) ?? cut
                }
                kept = [cut.head, cut.tail]
                ellipsized = true
                ellipsisFont = font
                ellipsisText = character
                let remaining = shaped.widths[cut.head].reduce(0, +) + shaped.widths[cut.tail].reduce(0, +)
                // The ellipsis is padded so the line is exactly the goal (fixup_ellipsis_run),
                // unless even the ellipsis alone is wider.
                width = max(goal, remaining + ellipsisWidth)
            }
        }
        let clusterCount = kept.reduce(0) { $0 + $1.count } + (ellipsized ? 1 : 0)
        let zeroedSpace = line.wrapped && (line.range.last.map { shaped.analysis.isWhiteSpace[$0] } ?? false)
        if letterSpacing != 0 && clusterCount > 0 && !ellipsized && !(zeroedSpace && clusterCount == 1) {
            width -= letterSpacing
        }

        var ascent = 0.0
        var descent = 0.0
        var any = false
        func use(_ font: Font) {
            ascent = max(ascent, font.ascent)
            descent = max(descent, font.descent)
            any = true
            if !families.contains(font.face.family) { families.append(font.face.family) }
        }
        for range in kept { for c in range { use(shaped.fonts[c]) } }
        if let ellipsisFont { use(ellipsisFont) }
        if !any { ascent = primary.ascent; descent = primary.descent }

        var lineText = ""
        if request.includeLines {
            let units = kept.map { range -> String in
                guard !range.isEmpty else { return "" }
                let from = Int(shaped.analysis.graphemeStarts[range.lowerBound])
                let to = Int(shaped.analysis.graphemeStarts[range.upperBound])
                return String(decoding: UnsafeBufferPointer(rebasing: text[from..<to]), as: UTF16.self)
            }
            lineText = ellipsized ? units[0] + ellipsisText + (units.count > 1 ? units[1] : "") : units.joined()
        }
        return LineMetrics(
            width: width, ascent: ascent, descent: descent, baseline: 0, start: 0, length: 0,
            text: lineText, ellipsized: ellipsized)
    }

    /// The ellipsis for a gap starting at `cluster`: its text, font and advance.
    private func ellipsis(replacing cluster: Int, shaped: ShapedParagraph, text: UnsafeBufferPointer<UInt16>) throws(FitTextError) -> (String, Font, Double) {
        var scalar: UInt32 = 0x2026
        if cluster < shaped.analysis.clusterCount {
            let first = TextAnalyzer.scalar(at: Int(shaped.analysis.graphemeStarts[cluster]), in: text)
            if UnicodeProperties.isWide(first) { scalar = 0x22EF }
        }
        let index = baseSet.faceIndex(covering: [scalar])
        let font = try baseSet.font(at: index)
        if font.face.covers(scalar), let character = Unicode.Scalar(scalar) {
            return (String(Character(character)), font, PixelLayout.advance(of: scalar, in: font, cache: shapeCache))
        }
        let primary = try baseSet.font(at: 0)
        return ("...", primary, 3 * PixelLayout.advance(of: 0x2E, in: primary, cache: shapeCache))
    }

    static func advance(of scalar: UInt32, in font: Font, cache: ByteBoundedCache<ShapeKey, ShapedRun>) -> Double {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font.hbFont, scalar, &glyph) != 0 else { return 0 }
        return Double(hb_font_get_glyph_h_advance(font.hbFont, glyph)) / Font.unitsPerPixel
    }

    /// The hyphen a break inside a word adds: U+2010, or "-" when the font lacks it
    /// (Pango's shape.c and find_hyphen_width).
    static func hyphenAdvance(_ font: Font) -> Double {
        var glyph: hb_codepoint_t = 0
        if hb_font_get_nominal_glyph(font.hbFont, 0x2010, &glyph) != 0 || hb_font_get_nominal_glyph(font.hbFont, 0x2D, &glyph) != 0 {
            return Double(hb_font_get_glyph_h_advance(font.hbFont, glyph)) / Font.unitsPerPixel
        }
        return 0
    }
}
