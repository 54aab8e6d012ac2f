/// Draws a layout in the terminal: boxes (box-drawing characters) for frames, paddings,
/// templates and images, and each text in its frame, so a person sees at once what
/// was decided. What `fitctl fit --render` prints; `--widths` puts several results side by side.
public struct LayoutRenderer: Sendable {
    /// Layout units per terminal column and row: 1 and 1 for a layout in cells; for px, e.g. 8
    /// and 16 (a terminal cell is about twice as tall as wide).
    public var columnWidth: Double
    public var rowHeight: Double
    /// Larger drawings are clipped (an infinite proposal can give an infinite frame).
    public static let maxColumns = 400
    public static let maxRows = 200

    public init(columnWidth: Double = 1, rowHeight: Double = 1) {
        self.columnWidth = columnWidth > 0 ? columnWidth : 1
        self.rowHeight = rowHeight > 0 ? rowHeight : 1
    }

    public func render(_ document: LayoutDocument, _ result: LayoutResult) -> String {
        renderLines(document, result).joined(separator: "\n")
    }

    /// Several results (e.g. one per width) next to each other, each under its label.
    public func render(_ document: LayoutDocument, results: [(label: String, result: LayoutResult)], gap: Int = 3) -> String {
        let blocks = results.map { [$0.label] + renderLines(document, $0.result) }
        let widths = blocks.map { $0.map(\.count).max() ?? 0 }
        let height = blocks.map(\.count).max() ?? 0
        var lines: [String] = []
        for row in 0..<height {
            var line = ""
            for (block, width) in zip(blocks, widths) {
                let cell = row < block.count ? block[row] : ""
                line += cell + String(repeating: " ", count: width - cell.count + gap)
            }
            lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
        return lines.joined(separator: "\n")
    }

    func cells(_ value: Double, _ unit: Double, limit: Int) -> Int {
        guard value.isFinite else { return limit }
        return min(limit, max(0, Int((value / unit).rounded())))
    }

    func renderLines(_ document: LayoutDocument, _ result: LayoutResult) -> [String] {
        let columns = cells(result.size.width, columnWidth, limit: Self.maxColumns)
        let rows = cells(result.size.height, rowHeight, limit: Self.maxRows)
        var canvas = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        func put(_ character: Character, _ column: Int, _ row: Int) {
            if row >= 0, row < rows, column >= 0, column < columns { canvas[row][column] = character }
        }
        func box(_ frame: LayoutRect) -> (left: Int, top: Int, right: Int, bottom: Int) {
            (
                cells(frame.x, columnWidth, limit: Self.maxColumns), cells(frame.y, rowHeight, limit: Self.maxRows),
                cells(frame.maxX, columnWidth, limit: Self.maxColumns) - 1, cells(frame.maxY, rowHeight, limit: Self.maxRows) - 1
            )
        }
        let boxed: Set<LayoutNodeKind> = [.frame, .padding, .template, .image]
        // Hidden nodes take their place and draw nothing (spec 4.3).
        for (node, layout) in zip(document.nodes, result.nodes)
        where layout.visible && !layout.hidden && boxed.contains(node.kind) {
            let (left, top, right, bottom) = box(layout.frame)
            guard right > left, bottom > top else {
                if node.kind == .image { for column in left...max(left, right) { put("▒", column, top) } }
                continue
            }
            for column in left + 1..<right {
                put("─", column, top)
                put("─", column, bottom)
            }
            for row in top + 1..<bottom {
                put("│", left, row)
                put("│", right, row)
                if node.kind == .image { for column in left + 1..<right { put("▒", column, row) } }
            }
            put("┌", left, top)
            put("┐", right, top)
            put("└", left, bottom)
            put("┘", right, bottom)
        }
        // Texts last, over any border they share cells with.
        for (node, layout) in zip(document.nodes, result.nodes) where layout.visible && !layout.hidden && node.kind == .text {
            let (left, top, right, bottom) = box(layout.frame)
            let width = max(1, right - left + 1)
            let lines = Self.wrap(node.properties.text ?? "", width: width, lines: max(1, bottom - top + 1))
            for (offset, line) in lines.enumerated() {
                for (column, character) in line.enumerated() { put(character, left + column, top + offset) }
            }
        }
        return canvas.map { String(String($0).reversed().drop(while: { $0 == " " }).reversed()) }
    }

    /// Greedy word wrap into `lines` lines of `width` characters; what does not fit ends in "…".
    static func wrap(_ text: String, width: Int, lines maxLines: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            var word = String(word)
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
            while current.count > width {
                lines.append(String(current.prefix(width)))
                word = String(current.dropFirst(width))
                current = word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        if lines.count > maxLines {
            lines.removeLast(lines.count - maxLines)
            let last = lines[maxLines - 1]
            lines[maxLines - 1] = String(last.prefix(max(0, width - 1))) + "…"
        }
        return lines
    }
}
