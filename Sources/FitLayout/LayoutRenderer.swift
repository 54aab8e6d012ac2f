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

    /// `lines`: per node index, the lines a text shows as the text engine laid it out (what
    /// `fitctl fit --render` passes); a text without them is wrapped here at its frame, and
    /// ends in "…" only where the layout says it is truncated.
    public func render(_ document: LayoutDocument, _ result: LayoutResult, lines: [Int: [String]] = [:]) -> String {
        renderLines(document, result, lines: lines).joined(separator: "\n")
    }

    /// Several results (e.g. one per width) next to each other, each under its label, each with
    /// its texts' lines as ``render(_:_:lines:)`` takes them.
    public func render(
        _ document: LayoutDocument, results: [(label: String, result: LayoutResult)], lines: [[Int: [String]]] = [], gap: Int = 3
    ) -> String {
        let blocks = results.enumerated().map { index, entry in
            [entry.label] + renderLines(document, entry.result, lines: index < lines.count ? lines[index] : [:])
        }
        let widths = blocks.map { $0.map(\.count).max() ?? 0 }
        let height = blocks.map(\.count).max() ?? 0
        var out: [String] = []
        for row in 0..<height {
            var line = ""
            for (block, width) in zip(blocks, widths) {
                let cell = row < block.count ? block[row] : ""
                line += cell + String(repeating: " ", count: width - cell.count + gap)
            }
            out.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
        return out.joined(separator: "\n")
    }

    func cells(_ value: Double, _ unit: Double, limit: Int) -> Int {
        // Past the limit before converting: Int(_:) traps past Int.max (--width 1e20).
        guard value.isFinite, value / unit < Double(limit) else { return value > 0 ? limit : 0 }
        return max(0, Int((value / unit).rounded()))
    }

    func renderLines(_ document: LayoutDocument, _ result: LayoutResult, lines given: [Int: [String]] = [:]) -> [String] {
        // Texts first, to know how far they reach: a text's lines are drawn whole, past its
        // frame if the terminal's columns are narrower than its glyphs (px drawn in cells),
        // never cut with an "…" the layout did not put there.
        var texts = shownTexts(document, result, given: given)
        var columns = cells(result.size.width, columnWidth, limit: Self.maxColumns)
        var rows = cells(result.size.height, rowHeight, limit: Self.maxRows)
        separate(&texts, columns: &columns, rows: &rows)
        var canvas = Canvas(columns: columns, rows: rows)
        let boxed: Set<LayoutNodeKind> = [.frame, .padding, .template, .image]
        // Hidden nodes take their place and draw nothing (spec 4.3).
        for (node, layout) in zip(document.nodes, result.nodes)
        where layout.visible && !layout.hidden && boxed.contains(node.kind) {
            canvas.drawBox(box(layout.frame), filled: node.kind == .image)
        }
        // Texts last, over any border they share cells with.
        for text in texts {
            for (offset, line) in text.lines.enumerated() {
                for (column, character) in line.enumerated() { canvas.put(character, text.left + column, text.top + offset) }
            }
        }
        return canvas.cells.map { String(String($0).reversed().drop(while: { $0 == " " }).reversed()) }
    }

    /// A text node's lines where they are drawn: `left` and `top` in columns and rows.
    private struct ShownText {
        var left: Int
        var top: Int
        var lines: [String]
        var frame: LayoutRect
    }

    /// A frame in columns and rows, the last column and row inside it included.
    private func box(_ frame: LayoutRect) -> (left: Int, top: Int, right: Int, bottom: Int) {
        (
            cells(frame.x, columnWidth, limit: Self.maxColumns), cells(frame.y, rowHeight, limit: Self.maxRows),
            cells(frame.maxX, columnWidth, limit: Self.maxColumns) - 1, cells(frame.maxY, rowHeight, limit: Self.maxRows) - 1
        )
    }

    /// Each visible text's lines at its frame's corner: the engine's lines (`given`), else the
    /// text wrapped here.
    private func shownTexts(_ document: LayoutDocument, _ result: LayoutResult, given: [Int: [String]]) -> [ShownText] {
        var texts: [ShownText] = []
        for (index, (node, layout)) in zip(document.nodes, result.nodes).enumerated()
        where layout.visible && !layout.hidden && node.kind == .text {
            let (left, top, right, bottom) = box(layout.frame)
            let truncated = layout.text?.truncated == true
            var shown: [String]
            if let lines = given[index] {
                shown = lines
            } else {
                // Without the engine's lines: wrapped at the frame's columns, and where that
                // makes more lines than the layout has (a px text in 8 px columns), wider, so
                // that a text that fits is drawn in as many lines as it has.
                let text = node.properties.text ?? "", rowsThere = max(1, bottom - top + 1)
                var width = max(1, right - left + 1)
                shown = Self.wrap(text, width: width, lines: rowsThere, truncated: truncated)
                while !truncated, shown.count > (layout.text?.lineCount ?? 1), width < Self.maxColumns {
                    width += 1
                    shown = Self.wrap(text, width: width, lines: rowsThere, truncated: false)
                }
            }
            texts.append(ShownText(left: left, top: top, lines: shown, frame: layout.frame))
        }
        return texts
    }

    /// A text drawn past its frame must not run into the next one (px in columns narrower
    /// than its glyphs): it would hide that text's start, or the end of its own, "…"
    /// included. Texts are moved right, left to right, to a column after the one drawn
    /// before them in any row they share, with a blank column between them where the
    /// layout has space between their frames. Texts whose frames overlap in the layout (an
    /// overlay, a ZStack) are drawn where it put them, one over the other. The drawing grows
    /// to hold them, up to its limits.
    private func separate(_ texts: inout [ShownText], columns: inout Int, rows: inout Int) {
        let halfColumn = columnWidth / 2  // px layouts: frames that touch may differ by rounding
        var drawnTo = [Int: (column: Int, frameEnd: Double)]()  // per row: the last column a text wrote
        for index in texts.indices.sorted(by: { (texts[$0].left, texts[$0].top, $0) < (texts[$1].left, texts[$1].top, $1) }) {
            let text = texts[index]
            var left = text.left
            for (offset, line) in text.lines.enumerated() where !line.isEmpty {
                guard let before = drawnTo[text.top + offset], text.frame.x >= before.frameEnd - halfColumn else { continue }
                left = max(left, before.column + (text.frame.x > before.frameEnd + halfColumn ? 2 : 1))
            }
            texts[index].left = min(left, Self.maxColumns)
            for (offset, line) in text.lines.enumerated() where !line.isEmpty {
                // A text drawn over a longer one (stacked) keeps the longer one's end.
                let column = texts[index].left + line.count - 1, before = drawnTo[text.top + offset]
                drawnTo[text.top + offset] = (max(before?.column ?? column, column), max(before?.frameEnd ?? text.frame.maxX, text.frame.maxX))
            }
            columns = min(Self.maxColumns, max(columns, texts[index].left + (text.lines.map(\.count).max() ?? 0)))
            rows = min(Self.maxRows, max(rows, text.top + text.lines.count))
        }
    }

    /// The characters drawn, row by row; what falls outside is dropped.
    private struct Canvas {
        var cells: [[Character]]
        let columns: Int
        let rows: Int

        init(columns: Int, rows: Int) {
            self.columns = columns
            self.rows = rows
            cells = [[Character]](repeating: [Character](repeating: " ", count: columns), count: rows)
        }

        mutating func put(_ character: Character, _ column: Int, _ row: Int) {
            if row >= 0, row < rows, column >= 0, column < columns { cells[row][column] = character }
        }

        /// A box in box-drawing characters, an image's filled with "▒"; an image too small
        /// for a box is a row of "▒".
        mutating func drawBox(_ box: (left: Int, top: Int, right: Int, bottom: Int), filled: Bool) {
            let (left, top, right, bottom) = box
            guard right > left, bottom > top else {
                if filled { for column in left...max(left, right) { put("▒", column, top) } }
                return
            }
            for column in left + 1..<right {
                put("─", column, top)
                put("─", column, bottom)
            }
            for row in top + 1..<bottom {
                put("│", left, row)
                put("│", right, row)
                if filled { for column in left + 1..<right { put("▒", column, row) } }
            }
            put("┌", left, top)
            put("┐", right, top)
            put("└", left, bottom)
            put("┘", right, bottom)
        }
    }

    /// Greedy word wrap into lines of `width` characters. More than `lines` lines: the first
    /// `lines`, the last ending in "…", when the layout says the text is `truncated`; all of
    /// them otherwise (the text is shown whole, as the layout measured it).
    static func wrap(_ text: String, width: Int, lines maxLines: Int, truncated: Bool) -> [String] {
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
        if truncated, lines.count > maxLines {
            lines.removeLast(lines.count - maxLines)
            let last = lines[maxLines - 1]
            lines[maxLines - 1] = String(last.prefix(max(0, width - 1))) + "…"
        } else if truncated, let last = lines.last, !last.hasSuffix("…") {
            // Truncated by width within its lines (an ellipsized single line): say so.
            lines[lines.count - 1] = String(last.prefix(max(0, width - 1))) + "…"
        }
        return lines
    }
}
