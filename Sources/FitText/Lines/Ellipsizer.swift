/// Which clusters of a line survive ellipsizing, and where the ellipsis goes.
struct EllipsizedLine: Equatable {
    /// Clusters kept before the ellipsis, and after it.
    var head: Range<Int>
    var tail: Range<Int>
    /// The first cluster the ellipsis replaces.
    var gapStart: Int
}

/// Pango 1.50's ellipsize.c: which units of a line an ellipsis replaces.
///
/// The units are the line's glyph clusters in logical order (ellipsize.c walks the runs with
/// pango_glyph_item_iter, one HarfBuzz cluster at a time: ``EllipsisClusters``), widths in
/// Pango units. The gap starts at the unit under the gap centre (start: 0, middle: half the
/// width, in whole units, end: the width), widened to a span (`startsSpan` / `endsSpan`:
/// ellipsize.c starts_at_ and ends_at_ellipsization_boundary), and grows one span at a time
/// on the side that keeps it most centred, skipping zero-width units, until the rest and the
/// ellipsis fit (`_pango_layout_line_ellipsize`, find_initial_span, remove_one_span). The
/// ellipsis depends on the unit the gap starts with (update_ellipsis_shape: the attributes
/// and the wideness of its first character), asked each time that start moves.
enum Ellipsizer {
    struct Gap: Equatable {
        /// The first and last unit the ellipsis replaces.
        var first: Int
        var last: Int
        /// The width of the units kept, and of the ellipsis, unpadded (Pango units).
        var kept: Int64
        var ellipsis: Int64
    }

    static func gap<E: Error>(
        widths: [Int64], mode: EllipsizeMode, goal: Int64, startsSpan: (Int) -> Bool, endsSpan: (Int) -> Bool,
        ellipsisWidth: (Int) throws(E) -> Int64
    ) throws(E) -> Gap? {
        guard !widths.isEmpty else { return nil }
        var total: Int64 = 0
        for width in widths { total += width }
        guard total > goal else { return nil }
        let center: Int64
        switch mode {
        case .none: return nil
        case .start: center = 0
        case .middle: center = total / 2
        case .end: center = total
        }
        var (first, last, startX, endX) = initialSpan(widths: widths, center: center, startsSpan: startsSpan, endsSpan: endsSpan)
        var ellipsis = try ellipsisWidth(first)
        // Each round moves one end of the gap outwards or stops: at most `widths.count` rounds.
        // Each side's next span is found once and kept until that side is taken, so the side
        // not taken is not walked again: a long run of units that end no span on one side
        // costs its length once, not once per round (the text is the caller's).
        var nextStart: (index: Int, x: Int64)?
        var nextEnd: (index: Int, x: Int64)?
        while total - (endX - startX) + ellipsis > goal {
            // remove_one_span: one span further on each side, zero-width units joining the span.
            if nextStart == nil { nextStart = nextSpan(first, x: startX, step: -1, widths: widths, isEnd: startsSpan) }
            if nextEnd == nil { nextEnd = nextSpan(last, x: endX, step: 1, widths: widths, isEnd: endsSpan) }
            guard let (newFirst, newStartX) = nextStart, let (newLast, newEndX) = nextEnd else { break }
            if endX == newEndX && startX == newStartX { break }
            // The side whose new end stays closer to the centre; a tie goes to the end.
            if endX == newEndX || (startX != newStartX && center - newStartX < newEndX - center) {
                first = newFirst
                startX = newStartX
                ellipsis = try ellipsisWidth(first)
                nextStart = nil
            } else {
                last = newLast
                endX = newEndX
                nextEnd = nil
            }
        }
        return Gap(first: first, last: last, kept: total - (endX - startX), ellipsis: ellipsis)
    }

    /// find_initial_span: the unit containing the centre, the last one when none does
    /// ("closed interval"), widened to whole spans; its first and last units and its edges.
    /// (Pango finds the run first, then the unit in it: the same unit while widths are not
    /// negative, which shape.c makes sure of.)
    @inline(__always)
    private static func initialSpan(
        widths: [Int64], center: Int64, startsSpan: (Int) -> Bool, endsSpan: (Int) -> Bool
    ) -> (first: Int, last: Int, startX: Int64, endX: Int64) {
        var x: Int64 = 0
        var first = 0
        while first < widths.count - 1 && x + widths[first] <= center {
            x += widths[first]
            first += 1
        }
        var last = first
        var startX = x
        var endX = x + widths[first]
        while first > 0 && !startsSpan(first) {
            first -= 1
            startX -= widths[first]
        }
        while last < widths.count - 1 && !endsSpan(last) {
            last += 1
            endX += widths[last]
        }
        return (first, last, startX, endX)
    }

    /// remove_one_span on one side of the gap: from its unit `edge` (its outer edge at `x`),
    /// the unit that ends the next span outwards (`step` -1: before the gap, where `isEnd`
    /// tells a span's start; +1: after it, a span's end), zero-width units joining it, and the
    /// gap's outer edge then. At the text's end it stays where it is.
    @inline(__always)
    private static func nextSpan(
        _ edge: Int, x: Int64, step: Int, widths: [Int64], isEnd: (Int) -> Bool
    ) -> (index: Int, x: Int64) {
        var index = edge
        var x = x
        var width: Int64 = 0
        repeat {
            guard step < 0 ? index > 0 : index < widths.count - 1 else { break }
            index += step
            width = widths[index]
            if step < 0 { x -= width } else { x += width }
        } while !isEnd(index) || width == 0
        return (index, x)
    }

    /// The same rule on clusters that are each a span of their own (terminal cells, tests):
    /// widths in px or cells, the ellipsis as wide as `ellipsisWidth` wherever the gap starts.
    static func ellipsize(
        _ range: Range<Int>, widths: [Double], mode: EllipsizeMode, goal: Double, ellipsisWidth: Double
    ) -> EllipsizedLine? {
        guard mode != .none, !range.isEmpty else { return nil }
        let unitWidths = range.map { Self.units(widths[$0]) }
        guard
            let gap = Ellipsizer.gap(
                widths: unitWidths, mode: mode, goal: Self.units(goal), startsSpan: { _ in true }, endsSpan: { _ in true },
                ellipsisWidth: { (_: Int) -> Int64 in Self.units(ellipsisWidth) })
        else { return nil }
        let start = range.lowerBound
        return EllipsizedLine(head: start..<start + gap.first, tail: start + gap.last + 1..<range.upperBound, gapStart: start + gap.first)
    }

    /// px (or cells) in Pango units, 1/1024.
    static func units(_ px: Double) -> Int64 {
        let scaled = (px * Font.unitsPerPixel).rounded()
        return scaled.isFinite ? Int64(max(min(scaled, 1e15), -1e15)) : 0
    }
}
