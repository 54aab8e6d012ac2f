/// Pango's default tab stops: every 8 spaces of the layout's font, and a tab always leaves at
/// least one space before the stop it reaches (pango-layout.c, shape_tab: "make sure there is
/// at least a space-width of space between tab-aligned text and the text before it"). In
/// cells the space is one column, which is how terminals tab.
struct TabStops: Sendable {
    var spaceWidth: Double

    var interval: Double { max(spaceWidth * 8, 1) }

    /// The advance of a tab that starts `x` from the start of its line.
    func advance(at x: Double) -> Double {
        var stop = ((x / interval).rounded(.down) + 1) * interval
        while stop < x + spaceWidth { stop += interval }
        return stop - x
    }
}
