/// A line's height and baseline from the runs it shows: their fonts, baseline shifts and
/// markup rises.
extension PixelTypesetter {
    /// A line's height from the fonts of the runs it shows, and the baseline they are aligned on.
    struct LineExtents {
        var ascent = 0.0
        var descent = 0.0
        /// Some font counted: a line showing nothing has the primary font's extents.
        var counted = false
        /// The dominant baseline of the line's first run, when runs move to it.
        var alignment: BaselineShift? = nil

        /// Counts a font the line shows among the fonts used (``TextMetrics/fontsUsed``).
        @inline(__always)
        mutating func include(_ font: Font, families: inout [String]) {
            counted = true
            if families.isEmpty {
                families = font.familyList
            } else if !families.contains(font.face.family) {
                families.append(font.face.family)
            }
        }
    }

    /// The extents of the runs shown, by font and script (they change rarely from one cluster
    /// to the next), aligned on the dominant baseline of the line's first run (BaselineShift),
    /// which sets it even when ellipsizing took it away. A hex box (no font has the
    /// character) has the box's logical rectangle, not its font's. No shift (the common
    /// case: one run, or the roman baseline and fonts without BASE tables) costs one pass
    /// and no HarfBuzz call; plain loops (no closures): this runs per line, also warm.
    func runExtents(
        line: Range<Int>, head: Range<Int>, tail: Range<Int>, breaker: LineBreaker, families: inout [String]
    ) -> LineExtents {
        var extents = LineExtents()
        guard let first = line.first else { return extents }
        let firstFont = breaker.clusters[first].font
        let firstScript = breaker.clusters[first].script
        var moves = false
        for part in 0..<2 {
            let range = part == 0 ? head : tail
            for c in range where c == range.lowerBound || breaker.clusters[c].flags.contains(.runStart) {
                let cluster = breaker.clusters[c]
                let drawn = breaker.fonts[Int(cluster.font)]
                extents.include(drawn, families: &families)
                let box = cluster.flags.contains(.hexBox) ? style.hexBoxExtents(font: drawn) : (drawn.ascent, drawn.descent)
                extents.ascent = max(extents.ascent, box.0)
                extents.descent = max(extents.descent, box.1)
                if cluster.font != firstFont || cluster.script != firstScript { moves = true }
            }
        }
        guard moves, let shift = BaselineShift(line: line, breaker: breaker, style: style) else { return extents }
        extents.alignment = shift
        extents.ascent = 0
        extents.descent = 0
        for part in 0..<2 {
            let range = part == 0 ? head : tail
            for c in range where c == range.lowerBound || breaker.clusters[c].flags.contains(.runStart) {
                let cluster = breaker.clusters[c]
                let drawn = breaker.fonts[Int(cluster.font)]
                let up = shift.raise(drawn, script: cluster.script)
                let box = cluster.flags.contains(.hexBox) ? style.hexBoxExtents(font: drawn) : (drawn.ascent, drawn.descent)
                extents.ascent = max(extents.ascent, box.0 + up)
                extents.descent = max(extents.descent, box.1 - up)
            }
        }
        return extents
    }

    /// Each cluster's markup raise on the line (from `line.lowerBound`, px): the offsets of
    /// apply_baseline_shift, item by item over the whole line (before ellipsizing). Each item
    /// adds its rise and the shifts that start at it, and takes off its rise and, per shift
    /// attribute that ends at it, the entry on top of the layout's stack when that entry is the
    /// same attribute (collect_baseline_shift). An item here: clusters of one item kind, font,
    /// script and level.
    func markupItemRaises(
        line: Range<Int>, markup: MarkupRuns, breaker: LineBreaker, paragraph: Int, shiftStack: inout [MarkupRaise.Entry]
    ) -> [Double] {
        var y = 0.0
        var itemRaise = [Double](repeating: 0, count: line.count)
        var c = line.lowerBound
        while c < line.upperBound {
            let kind = markup.itemOf[Int(markup.styleOf[paragraph + breaker.start(of: c)])]
            let first = breaker.clusters[c]
            var end = c + 1
            while end < line.upperBound && markup.itemOf[Int(markup.styleOf[paragraph + breaker.start(of: end)])] == kind
                && breaker.clusters[end].font == first.font && breaker.clusters[end].script == first.script
                && breaker.clusters[end].level == first.level
            {
                end += 1
            }
            let itemStart = paragraph + breaker.start(of: c)
            let itemEnd = paragraph + breaker.start(of: end)
            let raise = markup.raises[Int(markup.styleOf[itemStart])]
            var up = raise.rise
            var down = -raise.rise
            for shift in raise.shifts {
                if shift.anchor == itemStart {
                    // prev: the run before on this line, none for the line's first.
                    let value = c == line.lowerBound ? shift.atLineStart : shift.px
                    shiftStack.append(MarkupRaise.Entry(anchor: shift.anchor, end: shift.end, kind: shift.kind, value: value))
                    up += value
                }
                if shift.end == itemEnd, let top = shiftStack.popLast(),
                    top.anchor == shift.anchor && top.end == shift.end && top.kind == shift.kind
                {
                    down -= top.value
                }
            }
            y += up
            for k in c..<end { itemRaise[k - line.lowerBound] = y }
            y += down
            c = end
        }
        return itemRaise
    }

    /// The extents of the clusters shown, each raised by its markup raise (`itemRaise`, from
    /// ``markupItemRaises(line:markup:breaker:paragraph:shiftStack:)``). A raised run's logical
    /// rectangle moves up with it (pango_layout_run_get_extents: run_logical->y -= y_offset);
    /// the line is the union, which starts empty at the baseline (measured: a lone <sup> at the
    /// start has descent 0, not a negative one).
    func raisedExtents(
        _ itemRaise: [Double], line: Range<Int>, head: Range<Int>, tail: Range<Int>, breaker: LineBreaker,
        alignment: BaselineShift?
    ) -> (ascent: Double, descent: Double) {
        var extents = (ascent: 0.0, descent: 0.0)
        // The markup raise adds to the run's baseline alignment (apply_baseline_shift:
        // y_offset += start_y_offset + baseline_adjustment), asked once per font and script.
        var aligned: (font: Int32, script: Int32, up: Double) = (-1, -1, 0)
        for part in 0..<2 {
            for c in part == 0 ? head : tail {
                let cluster = breaker.clusters[c]
                let font = breaker.fonts[Int(cluster.font)]
                if let alignment, cluster.font != aligned.font || cluster.script != aligned.script {
                    aligned = (cluster.font, cluster.script, alignment.raise(font, script: cluster.script))
                }
                let raise = itemRaise[c - line.lowerBound] + aligned.up
                extents.ascent = max(extents.ascent, font.ascent + raise)
                extents.descent = max(extents.descent, font.descent - raise)
            }
        }
        return extents
    }
}
