/// A request set in terminal cells: the same paragraphs, break opportunities, wrapping
/// and ellipsizing as pixels, with each cluster's width from ``CellWidth``. Every line is one
/// row: height is the number of lines, the baseline is at the bottom of the first row.
enum CellTypesetter {
    static func measure(_ request: MeasureRequest, analyzer: TextAnalyzer) throws(FitTextError) -> TextMetrics {
        let original = Array(request.text.utf16)
        // With escapes: ansi the typesetter sees the text the terminal draws; `origin` maps its
        // units back to the request's, for line ranges in the request's code points.
        let (units, origin): ([UInt16], [Int]?) =
            request.escapes == .ansi ? { let s = AnsiEscapes.strip(original); return (s.text, s.origin) }() : (original, nil)
        // A boundary between units u-1 and u: right after unit u-1 in the request's text, so
        // escapes between two lines start the later line; the text's ends map to its ends.
        func source(_ u: Int) -> Int {
            guard let origin else { return u }
            if u <= 0 { return 0 }
            return u >= origin.count ? original.count : origin[u - 1] + 1
        }
        let ellipsizing = request.ellipsize != .none && request.maxWidth != nil
        let hyphenation = request.maxWidth != nil && request.wrap != .word
        let codePoints = request.includeLines ? CodePointIndex(original) : nil
        var result = TextMetrics(
            width: 0, height: 0, baseline: 1, lineCount: 0, ellipsized: false, truncated: false,
            unit: .cells, lines: [], fontsUsed: [])
        // Cells are whole: a width of 7.9 cells holds 7.
        let maxWidth = request.maxWidth.map { $0.rounded(.down) }

        var cancellation = FitTextCancellation()
        for paragraph in Paragraphs.split(units) {
            if !ellipsizing, let maxLines = request.maxLines, result.lineCount >= maxLines {
                result.truncated = true
                break
            }
            try cancellation.paragraph(units: paragraph.count)
            try units.withUnsafeBufferPointer { (all: UnsafeBufferPointer<UInt16>) throws(FitTextError) in
                let text = UnsafeBufferPointer(rebasing: all[paragraph])
                let analysis = try analyzer.analyze(text, lineBreaks: request.maxWidth != nil, hyphenation: hyphenation, pangoClusters: false)
                try FitTextCancellation.stage(ofParagraph: paragraph.count)
                let (widths, isTab, tabStops) = clusterWidths(analysis, text: text, request: request)
                let breaker = LineBreaker(
                    widths: widths, canBreakBefore: analysis.canBreakBefore, isWhiteSpace: analysis.isWhiteSpace,
                    hyphenBefore: analysis.hyphenBefore, hyphenWidth: 1, isTab: isTab, tabStops: tabStops)
                let limit = ellipsizing ? (request.maxLines ?? 1) : Int.max
                var lines = breaker.lines(maxWidth: maxWidth, wrap: request.wrap, limit: limit)
                try FitTextCancellation.stage(ofParagraph: paragraph.count)
                if !ellipsizing, let maxLines = request.maxLines, result.lineCount + lines.count > maxLines {
                    lines.removeLast(result.lineCount + lines.count - maxLines)
                    result.truncated = true
                }
                for (k, line) in lines.enumerated() {
                    try FitTextCancellation.line(k)
                    var kept = [line.range]
                    var width = breaker.width(of: line)
                    var ellipsized = false
                    if ellipsizing && k == limit - 1, let maxWidth,
                        let cut = Ellipsizer.ellipsize(line.range, widths: widths, mode: request.ellipsize, goal: maxWidth, ellipsisWidth: 1)
                    {
                        kept = [cut.head, cut.tail]
                        ellipsized = true
                        width = widths[cut.head].reduce(0, +) + widths[cut.tail].reduce(0, +) + 1
                    }
                    result.width = max(result.width, width)
                    result.lineCount += 1
                    if ellipsized { result.ellipsized = true; result.truncated = true }
                    if let codePoints {
                        let lineText = shownText(kept, ellipsized: ellipsized, hyphenated: line.hyphenated, analysis: analysis, text: text)
                        let first = paragraph.lowerBound + Int(analysis.graphemeStarts[line.range.lowerBound])
                        let last = paragraph.lowerBound + Int(analysis.graphemeStarts[line.range.upperBound])
                        let start = codePoints.codePoints(at: source(first))
                        result.lines.append(LineMetrics(
                            width: width, ascent: 1, descent: 0, baseline: Double(result.lineCount),
                            start: start, length: codePoints.codePoints(at: source(last)) - start, text: lineText, ellipsized: ellipsized))
                    }
                }
            }
        }
        result.height = Double(result.lineCount)
        // Each row's baseline is at its bottom.
        result.lastBaseline = Double(max(result.lineCount, 1))
        return result
    }

    /// Each grapheme cluster's columns (``CellWidth``), tabs included; which clusters are
    /// tabs (empty when none) and the tab stops.
    private static func clusterWidths(
        _ analysis: ParagraphAnalysis, text: UnsafeBufferPointer<UInt16>, request: MeasureRequest
    ) -> ([Double], [Bool], TabStops) {
        var widths = [Double](repeating: 0, count: analysis.clusterCount)
        var scalars: [UInt32] = []
        for c in 0..<analysis.clusterCount {
            scalars.removeAll(keepingCapacity: true)
            var u = Int(analysis.graphemeStarts[c])
            while u < Int(analysis.graphemeStarts[c + 1]) {
                let scalar = TextAnalyzer.scalar(at: u, in: text)
                scalars.append(scalar)
                u += scalar > 0xFFFF ? 2 : 1
            }
            widths[c] = Double(CellWidth.columns(ofCluster: scalars, terminal: request.terminal, ambiguous: request.ambiguous))
        }
        var isTab: [Bool] = []
        let tabStops = TabStops(spaceWidth: 1)
        if text.contains(0x09) {
            // Terminals tab to the next multiple of 8 columns of the row.
            isTab = (0..<analysis.clusterCount).map { text[Int(analysis.graphemeStarts[$0])] == 0x09 }
            var x = 0.0
            for c in 0..<analysis.clusterCount {
                if isTab[c] { widths[c] = tabStops.advance(at: x) }
                x += widths[c]
            }
        }
        return (widths, isTab, tabStops)
    }

    /// The text a line shows: the clusters `kept` (before and after the ellipsis when
    /// `ellipsized`, which is "…"), with the hyphen a break inside a word adds.
    private static func shownText(
        _ kept: [Range<Int>], ellipsized: Bool, hyphenated: Bool, analysis: ParagraphAnalysis, text: UnsafeBufferPointer<UInt16>
    ) -> String {
        let pieces = kept.map { range -> String in
            let from = Int(analysis.graphemeStarts[range.lowerBound])
            let to = Int(analysis.graphemeStarts[range.upperBound])
            return String(decoding: UnsafeBufferPointer(rebasing: text[from..<to]), as: UTF16.self)
        }
        var lineText = pieces[0]
        if ellipsized { lineText += "…" + (pieces.count > 1 ? pieces[1] : "") }
        if hyphenated && !ellipsized { lineText += "-" }
        return lineText
    }
}
