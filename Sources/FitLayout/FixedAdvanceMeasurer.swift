import FitTypes

/// A measurer with no fonts, for tests and examples: every character (Swift `Character`) is
/// `advance` wide and every line `lineHeight` tall, both multiplied by the style's and the size
/// category's factor (text styles only) and by the scale factor. Text wraps greedily at spaces,
/// a word longer than a line is cut into pieces, "\n" starts a paragraph. A line limit keeps
/// the first lines; the last one then takes the rest of the text, ellipsized to the width
/// ("…" counts as one character). Results can be computed by hand, which is the point.
public struct FixedAdvanceMeasurer: LayoutTextMeasurer {
    public var advance: Double
    public var lineHeight: Double
    public var styleFactors: [TextStyle: Double]
    public var categoryFactors: [SizeCategory: Double]

    public init(
        advance: Double = 10, lineHeight: Double = 20, styleFactors: [TextStyle: Double] = [:],
        categoryFactors: [SizeCategory: Double] = [:]
    ) {
        self.advance = advance
        self.lineHeight = lineHeight
        self.styleFactors = styleFactors
        self.categoryFactors = categoryFactors
    }

    /// One character cell per character and one row per line: a terminal.
    public static let cells = FixedAdvanceMeasurer(advance: 1, lineHeight: 1)

    func factor(_ font: LayoutFont, _ category: SizeCategory) -> Double {
        guard case .style(let style) = font else { return 1 }
        return (styleFactors[style] ?? 1) * (categoryFactors[category] ?? 1)
    }

    public func lineHeight(of font: LayoutFont, sizeCategory: SizeCategory) throws(LayoutError) -> Double {
        lineHeight * factor(font, sizeCategory)
    }

    public func measure(_ text: LayoutText, proposedWidth: Double?, scale: Double) throws(LayoutError) -> MeasuredText {
        let size = factor(text.font, text.sizeCategory) * scale
        let charWidth = advance * size
        let rowHeight = lineHeight * size
        // The tolerance keeps 52.5 / 7.5 at 7 characters, not 6.99999.
        // A width of more characters than Int holds (1e300) is no limit: Int() would trap.
        let maxChars: Int? = proposedWidth.flatMap { width in
            let chars = (width / charWidth + 1e-9).rounded(.down)
            return width.isFinite && charWidth > 0 && chars < 1e18 ? Int(chars) : nil
        }
        var lines: [(start: Int, length: Int, paragraphLength: Int)] = []
        var truncated = false
        for paragraph in text.string.split(separator: "\n", omittingEmptySubsequences: false) {
            let count = paragraph.count
            guard let limit = maxChars, count > limit else {
                lines.append((0, count, count))
                continue
            }
            if limit == 0 {
                lines.append((0, 0, count))
                truncated = true
                continue
            }
            var lineStart = 0, lineLength = 0, offset = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var wordStart = offset, wordLength = word.count
                offset += wordLength + 1
                if lineLength > 0, lineLength + 1 + wordLength <= limit {
                    lineLength += 1 + wordLength
                    continue
                }
                if lineLength > 0 { lines.append((lineStart, lineLength, count)) }
                while wordLength > limit {
                    lines.append((wordStart, limit, count))
                    wordStart += limit
                    wordLength -= limit
                }
                lineStart = wordStart
                lineLength = wordLength
            }
            if lineLength > 0 { lines.append((lineStart, lineLength, count)) }
        }
        var lengths = lines.map(\.length)
        if let lineLimit = text.lineLimit, lines.count > lineLimit, lineLimit > 0 {
            truncated = true
            let last = lines[lineLimit - 1]
            let rest = last.paragraphLength - last.start
            lengths.removeLast(lines.count - lineLimit)
            lengths[lineLimit - 1] = maxChars.map { min(rest + 1, $0) } ?? rest + 1
        }
        let widest = lengths.max() ?? 0
        return MeasuredText(
            width: Double(widest) * charWidth, height: Double(lengths.count) * rowHeight,
            baseline: rowHeight * 0.8, lastBaseline: rowHeight * (Double(max(1, lengths.count)) - 0.2),
            lineCount: lengths.count, truncated: truncated)
    }
}
