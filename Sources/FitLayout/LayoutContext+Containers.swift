/// A grid's columns and rows for one proposal, kept for placement.
struct GridPlan {
    struct Row {
        var node: Int
        /// A gridRow's cells, or the one child that is not a gridRow (it spans every column).
        var cells: [Int]
        /// Per cell: its first column and how many it covers (`gridCellColumns`).
        var first: [Int]
        var count: [Int]
        var spans: Bool
        var height: Double
    }
    var rows: [Row]
    var columnWidths: [Double]
    var horizontalSpacing: Double
    var verticalSpacing: Double
    var size: LayoutSize

    /// The width of `count` columns from `first`, with the spacing between them.
    static func spanned(_ widths: [Double], _ first: Int, _ count: Int, spacing: Double) -> Double {
        widths[first..<first + count].reduce(0, +) + spacing * Double(count - 1)
    }
}

/// A grid's cells by the columns they cover. Each column's one-column cells are gathered
/// once: asking a column must not walk every row (a grid of one long row and many short ones
/// would cost rows × columns). A cell covering several columns is measured after them and only
/// widens the last of them when it does not fit (spec 4.6).
struct GridCells {
    /// Per column, the cells that cover it alone.
    var of: [[Int]]
    var covering: [(cell: Int, first: Int, count: Int)] = []

    init(rows: [GridPlan.Row], columns: Int) {
        of = [[Int]](filled: [], count: columns)
        for row in rows where !row.spans {
            for (position, cell) in row.cells.enumerated() {
                if row.count[position] == 1 {
                    of[row.first[position]].append(cell)
                } else {
                    covering.append((cell, row.first[position], row.count[position]))
                }
            }
        }
    }
}

/// A flow's items in lines, kept for placement.
struct FlowPlan {
    var items: [Int]
    /// Per item: its line, the proposal it was measured with and its size.
    var line: [Int]
    var proposals: [ProposedSize]
    var sizes: [LayoutSize]
    /// Per line: its first item, width and height.
    var lineStart: [Int]
    var lineWidth: [Double]
    var lineHeight: [Double]
    /// With a text-baseline alignment: each item's guide value, and each line's baseline
    /// from its top (the largest guide in it); empty otherwise.
    var guides: [Double]
    var lineAscent: [Double]
    var spacing: Double
    var size: LayoutSize
}

extension LayoutContext {
    /// Its own `layoutDirection`, else the nearest ancestor's (``PreparedLayout/rightToLeft``).
    func isRightToLeft(_ node: Int) -> Bool { prepared.rightToLeft[node] }

    // MARK: Grid

    /// SwiftUI's `Grid` (docs/swiftui-layout.md 4.6): a column is as wide as its widest cell,
    /// a row as tall as its tallest. How a constrained width is shared among flexible columns
    /// is not documented; the choice is the stack's: columns are sized by priority (the
    /// highest `layoutPriority` among their cells), then least flexible first (flexibility:
    /// the widest cell at an infinite proposal minus the widest at zero), each offered an
    /// equal share of what is left. `columns: equal` gives every column the widest
    /// one's width when that fits, else an equal share. Rows are proposed no height (each as
    /// tall as its cells want); a child that is not a gridRow spans the grid's width. A cell
    /// with `gridCellColumns` n covers n columns (Apple's `gridCellColumns(_:)`); choice (spec
    /// 4.6): such cells are measured after the columns they cover and only widen the last of
    /// them when they do not fit.
    func gridPlan(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> GridPlan {
        let spacing = nodes[node].properties.spacing ?? options.spacing
        var (rows, columns) = try gridRows(node)
        let cells = GridCells(rows: rows, columns: columns)
        let gaps = spacing * Double(max(0, columns - 1))
        var widths = try gridColumnWidths(node, proposal, cells: cells, gaps: gaps)
        for (cell, first, count) in cells.covering {
            let available = GridPlan.spanned(widths, first, count, spacing: spacing)
            let needed = try size(cell, ProposedSize(width: proposal.width == nil ? nil : available, height: nil)).width
            if needed > available { widths[first + count - 1] += needed - available }
        }
        let columnsWidth = widths.reduce(0, +) + gaps
        var width = columnsWidth
        for index in rows.indices {
            let row = try gridRowSize(node, rows[index], widths: widths, spacing: spacing, spanning: columns > 0 ? columnsWidth : proposal.width)
            rows[index].height = row.height
            if rows[index].spans { width = max(width, row.width) }
        }
        let height = rows.reduce(0) { $0 + $1.height } + spacing * Double(max(0, rows.count - 1))
        return GridPlan(
            rows: rows, columnWidths: widths, horizontalSpacing: spacing, verticalSpacing: spacing,
            size: LayoutSize(width: width, height: height))
    }

    /// The grid's rows, each cell with the columns it covers, and the number of columns.
    private func gridRows(_ node: Int) throws(LayoutError) -> ([GridPlan.Row], Int) {
        var rows: [GridPlan.Row] = []
        var columns = 0
        // Every cell's span, summed over all rows: the column sums below (spanned, the
        // placements) walk each cell's columns, so the total, not each row's, must be bounded
        // (5,000 rows of one 10,000-column cell would cost 5 × 10^7 additions per plan).
        var covered = 0
        for child in prepared.children(node) {
            guard nodes[child].kind == .gridRow else {
                rows.append(.init(node: child, cells: [child], first: [0], count: [0], spans: true, height: 0))
                continue
            }
            let cells = Array(prepared.children(child))
            var first: [Int] = [], count: [Int] = []
            var next = 0
            for cell in cells {
                let span = nodes[cell].properties.gridCellColumns ?? 1
                first.append(next)
                count.append(span)
                next += span
                covered += span
                // Bounds the column arrays and the work: spans are counted, not trusted.
                if covered > LayoutLimits.maxNodes {
                    throw .invalidProperty(
                        node: location(cell), property: "gridCellColumns",
                        reason: "the grid's cells cover more than \(LayoutLimits.maxNodes) columns in all (LayoutLimits.maxNodes)")
                }
            }
            columns = max(columns, next)
            rows.append(.init(node: child, cells: cells, first: first, count: count, spans: false, height: 0))
        }
        return (rows, columns)
    }

    /// The widest of `cells` offered `width`.
    private func widestCell(_ cells: [Int], _ width: Double?) throws(LayoutError) -> Double {
        var answer = 0.0
        for cell in cells { answer = max(answer, try size(cell, ProposedSize(width: width, height: nil)).width) }
        return answer
    }

    /// Each column's width before the cells covering several columns widen any.
    private func gridColumnWidths(_ node: Int, _ proposal: ProposedSize, cells: GridCells, gaps: Double) throws(LayoutError) -> [Double] {
        let columns = cells.of.count
        var widths = [Double](filled: 0, count: columns)
        if nodes[node].properties.columns == .equal {
            var ideal = 0.0
            for column in 0..<columns { ideal = max(ideal, try widestCell(cells.of[column], nil)) }
            let share = proposal.width.map { max(0, ($0 - gaps) / Double(max(1, columns))) } ?? ideal
            let width = min(ideal, share)
            for column in 0..<columns { widths[column] = max(width, try widestCell(cells.of[column], width)) }
        } else if let offered = proposal.width {
            widths = try sharedColumnWidths(offered, cells: cells, gaps: gaps)
        } else {
            for column in 0..<columns { widths[column] = try widestCell(cells.of[column], nil) }
        }
        return widths
    }

    /// The columns' widths when the grid is offered a width: by priority, then least flexible
    /// first, each an equal share of what is left (the stack's way, spec 1.1, 1.2).
    private func sharedColumnWidths(_ offered: Double, cells: GridCells, gaps: Double) throws(LayoutError) -> [Double] {
        let columns = cells.of.count
        var widths = [Double](filled: 0, count: columns)
        var least = [Double](filled: 0, count: columns)
        var flexibility = [Double](filled: 0, count: columns)
        for column in 0..<columns {
            least[column] = try widestCell(cells.of[column], 0)
            let flex = try widestCell(cells.of[column], .infinity) - least[column]
            flexibility[column] = flex.isNaN ? .infinity : flex
        }
        // A column's priority is the highest of its cells' (spec 4.6; a spacer's is −∞).
        var priority = [Double](filled: 0, count: columns)
        for column in 0..<columns where !cells.of[column].isEmpty {
            priority[column] = -.infinity
            for cell in cells.of[column] { priority[column] = max(priority[column], layoutPriority(cell)) }
        }
        // Stable, as the stack's sort (spec 1.1): higher priority first, then less flexible,
        // equal infinite flexibility larger minimum first.
        let order = (0..<columns).sorted { a, b in
            if priority[a] != priority[b] { return priority[a] > priority[b] }
            if flexibility[a] != flexibility[b] { return flexibility[a] < flexibility[b] }
            if flexibility[a] == .infinity, least[a] != least[b] { return least[a] > least[b] }
            return a < b
        }
        // As the stack's groups: the lower priorities' minimum widths are reserved until
        // their turn; each column takes an equal share of what is left (spec 1.1, 1.2).
        var available = offered - gaps
        if let top = order.first.map({ priority[$0] }) {
            for column in 0..<columns where priority[column] != top { available -= least[column] }
        }
        var start = 0
        while start < columns {
            var end = start
            while end < columns, priority[order[end]] == priority[order[start]] { end += 1 }
            if start > 0 { for rank in start..<end { available += least[order[rank]] } }
            for rank in start..<end {
                let column = order[rank]
                let share = offered.isInfinite ? .infinity : max(0, available / Double(end - rank))
                widths[column] = try widestCell(cells.of[column], share)
                available -= widths[column]
            }
            start = end
        }
        return widths
    }

    /// A row's height, and for a child that is not a gridRow its width, offered `spanning`.
    private func gridRowSize(
        _ node: Int, _ row: GridPlan.Row, widths: [Double], spacing: Double, spanning: Double?
    ) throws(LayoutError) -> LayoutSize {
        if row.spans { return try size(row.cells[0], ProposedSize(width: spanning, height: nil)) }
        // With a text-baseline alignment the cells' baselines line up, and the row is
        // tall enough for the union (as an hstack's cross axis, spec 1.1, 1.4).
        let vertical = rowAlignment(node, row).vertical
        var height = 0.0, ascent = 0.0, descent = 0.0
        for (position, cell) in row.cells.enumerated() {
            let offer = ProposedSize(width: GridPlan.spanned(widths, row.first[position], row.count[position], spacing: spacing), height: nil)
            let size = try self.size(cell, offer)
            height = max(height, size.height)
            if vertical.isBaseline {
                let guide = try guideValue(cell, size, offer, vertical)
                ascent = max(ascent, guide)
                descent = max(descent, size.height - guide)
            }
        }
        return LayoutSize(width: 0, height: vertical.isBaseline ? ascent + descent : height)
    }

    /// Each row at its top; each cell proposed its column's width and its row's height and
    /// aligned in that rectangle (its gridRow's alignment, else the grid's, else center); with
    /// a text-baseline alignment the row's cells line up their baselines (a cell without text
    /// by its bottom), as an hstack's children do (spec 1.4, *choice* for grids). In a
    /// right-to-left layout the first column is on the right (spec 4.9). Offsets are from the
    /// grid's origin: the cells are the grid's placements (a gridRow is framed by
    /// ``frameGridRows(_:_:x:y:)``).
    func gridPlacements(_ node: Int, _ plan: GridPlan) throws(LayoutError) -> [ChildPlacement] {
        let mirrored = isRightToLeft(node)
        var placements: [ChildPlacement] = []
        var top = 0.0
        for row in plan.rows {
            let alignment = rowAlignment(node, row)
            var cells: [(cell: Int, rect: LayoutRect)] = []
            if row.spans {
                cells.append((row.cells[0], LayoutRect(x: 0, y: top, width: plan.size.width, height: row.height)))
            } else {
                var left = 0.0
                for (position, cell) in row.cells.enumerated() {
                    let width = GridPlan.spanned(plan.columnWidths, row.first[position], row.count[position], spacing: plan.horizontalSpacing)
                    // ∞ − ∞ (an infinite cell in a grid proposed ∞) is no offset (as the stacks).
                    let cellX = mirrored ? finiteOffset(plan.size.width - left - width) : left
                    cells.append((cell, LayoutRect(x: cellX, y: top, width: width, height: row.height)))
                    left += width + plan.horizontalSpacing
                }
            }
            var placed: [ChildPlacement] = []
            for (cell, rect) in cells { placed.append(try cellPlacement(cell, in: rect, alignment, mirrored)) }
            if alignment.vertical.isBaseline {
                // The cells' baselines on one line, the deepest-set one's top at the row's top
                // (the row is as tall as the union, gridPlan).
                var guides: [Double] = []
                for placement in placed {
                    let size = try self.size(placement.child, placement.proposal)
                    guides.append(try guideValue(placement.child, size, placement.proposal, alignment.vertical))
                }
                let ascent = guides.max() ?? 0
                for position in placed.indices { placed[position].dy = top + finiteOffset(ascent - guides[position]) }
            }
            placements += placed
            top += row.height + plan.verticalSpacing
        }
        return placements
    }

    /// A row's alignment: its gridRow's, else the grid's, else center (a spanning child has
    /// the grid's).
    func rowAlignment(_ grid: Int, _ row: GridPlan.Row) -> LayoutAlignment {
        (row.spans ? nil : nodes[row.node].properties.alignment) ?? nodes[grid].properties.alignment ?? .center
    }

    /// Gives each gridRow its frame: the grid's width, the row's height, at the row's top.
    func frameGridRows(_ node: Int, _ plan: GridPlan, x: Double, y: Double) throws(LayoutError) {
        var top = y
        for row in plan.rows {
            if !row.spans {
                frames[row.node] = LayoutRect(x: x, y: top, width: plan.size.width, height: row.height)
                placedEpoch[row.node] = epoch
                placedProposal[row.node] = ProposedSize(width: plan.size.width, height: row.height)
            }
            top += row.height + plan.verticalSpacing
        }
    }

    func cellPlacement(_ cell: Int, in rect: LayoutRect, _ alignment: LayoutAlignment, _ mirrored: Bool) throws(LayoutError) -> ChildPlacement {
        let offer = ProposedSize(width: rect.width, height: rect.height)
        let size = try self.size(cell, offer)
        let anchor = (
            x: part(of: rect.width, alignment.fraction(.horizontal, rightToLeft: mirrored)),
            y: part(of: rect.height, alignment.fraction(.vertical, rightToLeft: mirrored)))
        return ChildPlacement(
            child: cell,
            dx: rect.x + (try alignedOffset(cell, size, offer, anchor: anchor.x, alignment, axis: .horizontal, rightToLeft: mirrored)),
            dy: rect.y + (try alignedOffset(cell, size, offer, anchor: anchor.y, alignment, axis: .vertical, rightToLeft: mirrored)),
            proposal: offer)
    }

    // MARK: Flow

    /// The Layout protocol's common FlowLayout (docs/swiftui-layout.md 4.7): every item at its
    /// ideal size, left to right, a new line when the next item would pass the proposed width,
    /// `spacing` between items and between lines. Choices: no proposed width is an unbounded
    /// one (one line); an item wider than the width is alone on its line and proposed the
    /// width (a text wraps rather than overflows); the flow is as wide as its widest line,
    /// with no trailing spacing.
    func flowPlan(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> FlowPlan {
        let items = Array(prepared.children(node))
        let spacing = nodes[node].properties.spacing ?? options.spacing
        let limit = proposal.width ?? .infinity
        var plan = FlowPlan(
            items: items, line: [], proposals: [], sizes: [], lineStart: [], lineWidth: [], lineHeight: [], guides: [],
            lineAscent: [], spacing: spacing, size: .zero)
        // Items in a line line up their text baselines when the alignment says so (spec 4.7);
        // the line is then as tall as the union of their ranges around it.
        let vertical = (nodes[node].properties.alignment ?? .topLeading).vertical
        var lineDescent: [Double] = []
        plan.line.reserveCapacity(items.count)
        plan.proposals.reserveCapacity(items.count)
        plan.sizes.reserveCapacity(items.count)
        var x = 0.0
        for (position, item) in items.enumerated() {
            var offer = ProposedSize.unspecified
            var size = try self.size(item, offer)
            if size.width > limit {
                offer = ProposedSize(width: limit, height: nil)
                size = try self.size(item, offer)
            }
            let tolerance = 1e-9
            let guide = vertical.isBaseline ? try guideValue(item, size, offer, vertical) : 0
            if plan.lineStart.isEmpty || x + spacing + size.width > limit + tolerance {
                plan.lineStart.append(position)
                plan.lineWidth.append(size.width)
                plan.lineHeight.append(size.height)
                x = size.width
                if vertical.isBaseline {
                    plan.lineAscent.append(guide)
                    lineDescent.append(size.height - guide)
                }
            } else {
                x += spacing + size.width
                plan.lineWidth[plan.lineWidth.count - 1] = x
                plan.lineHeight[plan.lineHeight.count - 1] = max(plan.lineHeight[plan.lineHeight.count - 1], size.height)
                if vertical.isBaseline {
                    plan.lineAscent[plan.lineAscent.count - 1] = max(plan.lineAscent[plan.lineAscent.count - 1], guide)
                    lineDescent[lineDescent.count - 1] = max(lineDescent[lineDescent.count - 1], size.height - guide)
                }
            }
            if vertical.isBaseline {
                plan.guides.append(guide)
                plan.lineHeight[plan.lineHeight.count - 1] = plan.lineAscent[plan.lineAscent.count - 1] + lineDescent[lineDescent.count - 1]
            }
            plan.line.append(plan.lineStart.count - 1)
            plan.proposals.append(offer)
            plan.sizes.append(size)
        }
        let lines = plan.lineStart.count
        plan.size = LayoutSize(
            width: plan.lineWidth.max() ?? 0,
            height: plan.lineHeight.reduce(0, +) + spacing * Double(max(0, lines - 1)))
        return plan
    }

    /// Items in their lines: each line aligned in the flow's width by the alignment's
    /// horizontal part (leading by default), each item in its line by the vertical part (top by
    /// default; with a text-baseline alignment the items' baselines on one line per line); a
    /// right-to-left flow starts its lines at the right. Offsets are from the flow's origin.
    func flowPlacements(_ node: Int, _ plan: FlowPlan) throws(LayoutError) -> [ChildPlacement] {
        let alignment = nodes[node].properties.alignment ?? .topLeading
        let mirrored = isRightToLeft(node)
        let horizontal = alignment.fraction(.horizontal, rightToLeft: mirrored)
        let vertical = alignment.fraction(.vertical, rightToLeft: mirrored)
        var lineTop = [Double](filled: 0, count: plan.lineStart.count)
        var top = 0.0
        for line in lineTop.indices {
            lineTop[line] = top
            top += plan.lineHeight[line] + plan.spacing
        }
        var placements: [ChildPlacement] = []
        placements.reserveCapacity(plan.items.count)
        var cursor = 0.0
        for (position, item) in plan.items.enumerated() {
            let line = plan.line[position]
            if plan.lineStart[line] == position { cursor = 0 }
            let size = plan.sizes[position]
            let lineLeft = finiteOffset(part(of: plan.size.width, horizontal) - part(of: plan.lineWidth[line], horizontal))
            let left = mirrored ? finiteOffset(lineLeft + plan.lineWidth[line] - cursor - size.width) : lineLeft + cursor
            let down = alignment.vertical.isBaseline
                ? finiteOffset(plan.lineAscent[line] - plan.guides[position])
                : finiteOffset(part(of: plan.lineHeight[line], vertical) - part(of: size.height, vertical))
            placements.append(ChildPlacement(child: item, dx: left, dy: lineTop[line] + down, proposal: plan.proposals[position]))
            cursor += size.width + plan.spacing
        }
        return placements
    }
}
