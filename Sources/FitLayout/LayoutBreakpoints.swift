/// Which widths to find breakpoints over (protocol/README.md, "Breakpoints"): the root is
/// proposed every width `from + k × step` in [from, to] (the proposal's height unchanged), and
/// the result says, per decision, over which of those widths each outcome holds — so a toolkit
/// lays out once and re-decides on resize without a round trip.
public struct BreakpointRange: Hashable, Sendable, Codable {
    public var from: Double
    public var to: Double
    /// The grid the widths are on; nil for 1 (one px, one cell).
    public var step: Double?

    public init(from: Double, to: Double, step: Double? = nil) {
        self.from = from
        self.to = to
        self.step = step
    }

    /// At most this many grid widths: the search lays out O(log) of them per breakpoint, but
    /// the grid index must stay an Int and the range a peer asks for bounded.
    public static let maxSteps = 1_000_000
}

/// One outcome of a discrete decision over a run of widths, both ends included (on the grid).
public struct DecisionInterval: Hashable, Sendable, Codable {
    public var from: Double
    public var to: Double
    /// firstFit, uniformFit: the candidate; -1 where the decision is not shown at those widths.
    public var candidate: Int?
    /// threshold: the arrangement (the size category decides it, so one interval while the
    /// threshold is shown; where it is not, `candidate` is -1 instead).
    public var axis: LayoutAxis?
    /// The smallest width with this outcome to Pango's unit, 1/1024 px (`from` is on the
    /// grid: the outcome flips somewhere in (previous `to`, `from`]); the range's start for the
    /// first interval. nil where it was not found: the search ran out of its budget, or the
    /// unit is cells (whole cells are the grid).
    public var exactFrom: Double?

    public init(from: Double, to: Double, candidate: Int? = nil, axis: LayoutAxis? = nil, exactFrom: Double? = nil) {
        self.from = from
        self.to = to
        self.candidate = candidate
        self.axis = axis
        self.exactFrom = exactFrom
    }
}

/// What a layout with ``LayoutOptions/breakpoints`` adds to its result.
public struct LayoutBreakpoints: Hashable, Sendable, Codable {
    public var range: BreakpointRange
    /// The root's width proposed 0 (SwiftUI's minimum, CSS's min-content) and proposed nothing
    /// (its ideal: no text wrapped, CSS's max-content), at the proposal's height.
    public var minContentWidth: Double
    public var maxContentWidth: Double
    /// Per discrete decision node (firstFit, uniformFit, threshold), by id, its outcomes in
    /// width order. Continuous outcomes (a fitting's length, a scaleGroup's factor) change
    /// with every width and are not listed.
    public var decisions: [String: [DecisionInterval]]
    /// Whether the answer is partial: decisions were left out of ``decisions`` because, in
    /// document order, their intervals would have passed ``LayoutLimits/maxBreakpointIntervals``
    /// in all, or the search ran out of its budget (``LayoutLimits/maxBreakpointWork``) and the
    /// intervals end at the last width it knows, before the range's end.
    public var truncated: Bool
    /// The root's id: Layout's reply carries the breakpoints in the root's frame.
    public var rootID: String?
    /// The text scale the layout was measured at (the user's): a width in px is px ÷ textScale
    /// in sp, libadwaita's unit that follows the text scale (adw-length-unit.c). nil where the
    /// measurer has none (FitLayout's own measurers) or the reply predates it.
    public var textScale: Double?

    public init(
        range: BreakpointRange, minContentWidth: Double, maxContentWidth: Double, decisions: [String: [DecisionInterval]],
        truncated: Bool = false
    ) {
        self.range = range
        self.minContentWidth = minContentWidth
        self.maxContentWidth = maxContentWidth
        self.decisions = decisions
        self.truncated = truncated
    }
}

extension LayoutEngine {
    /// The breakpoints of `range` at the proposal's height. *Choice* (the outcomes are not
    /// monotone in general, and laying out every width would cost ~1,000 layouts): the ends
    /// and `samples` evenly spaced widths are laid out, and between two samples whose
    /// outcomes differ the change is found by bisection on the grid; an outcome that appears
    /// and disappears again between two equal samples is not seen. Each layout is a fresh
    /// one (memo tables are per call; the text engine's cache keeps repeats cheap).
    static func breakpoints<Measurer: LayoutTextMeasurer>(
        _ prepared: PreparedLayout, range: BreakpointRange, height: Double?, options: LayoutOptions, measurer: Measurer
    ) throws(LayoutError) -> LayoutBreakpoints {
        let step = range.step ?? 1
        guard range.from.isFinite, range.to.isFinite, range.from >= 0, range.to >= range.from, step.isFinite, step > 0,
            (range.to - range.from) / step <= Double(BreakpointRange.maxSteps)
        else {
            throw .invalidBreakpoints(
                reason: "from \(range.from), to \(range.to), step \(step): give 0 ≤ from ≤ to, a step > 0, at most \(BreakpointRange.maxSteps) steps")
        }
        var plain = options
        plain.breakpoints = nil
        let discrete = prepared.document.nodes.indices.filter { index in
            switch prepared.document.nodes[index].kind {
            case .firstFit, .uniformFit, .threshold: return true
            default: return false
            }
        }
        func width(_ k: Int) -> Double { min(range.to, range.from + Double(k) * step) }
        // The budget is work, not layouts: each layout costs about its node count, so a
        // 10,000-node document gets fewer layouts than a 50-node one. Out of budget the search
        // stops (nil) and the result says so; the main layout is not failed for it.
        let work = max(1, prepared.document.nodes.count)
        let budget = min(LayoutLimits.maxBreakpointLayouts, max(1, LayoutLimits.maxBreakpointWork / work))
        var layouts = 0
        // One outcome per discrete decision: the candidate (or arrangement) or -1 when hidden.
        func outcomes(at proposed: Double) throws(LayoutError) -> [Int]? {
            guard layouts < budget else { return nil }
            layouts += 1
            let context = LayoutContext(prepared: prepared, options: plain, measurer: measurer)
            try context.place(prepared.root, x: 0, y: 0, ProposedSize(width: proposed, height: height))
            return discrete.map { node in
                guard context.placedEpoch[node] == 1 else { return -1 }
                if prepared.document.nodes[node].kind == .threshold {
                    return context.arrangement(node) == .horizontal ? 0 : 1
                }
                return context.chosen[node]
            }
        }
        func outcomes(_ k: Int) throws(LayoutError) -> [Int]? { try outcomes(at: width(k)) }
        let last = Int(((range.to - range.from) / step).rounded(.up))
        // Sorted grid indices where the outcomes change, with the outcomes from there on; every
        // width up to grid index `resolved` is known.
        guard let sampled = try sampledSegments(last: last, outcomes: outcomes) else {
            throw .invalidBreakpoints(reason: "no layout fits the breakpoint budget")
        }
        let (segments, resolved, exhausted) = sampled
        // Out of budget: the intervals end at the last width known (`truncated` says so).
        let searchedTo = exhausted ? width(resolved) : range.to
        // Between the grid widths around each change, bisection on Pango units finds where the
        // decision flips exactly (a text's width is a whole number of 1/1024 px, so nothing
        // finer can flip it): about 10 more layouts per change, within the same budget.
        let exact = plain.unit == .px
        let flips = exact ? try exactFlips(segments: segments, last: last, slots: discrete.count, width: width, outcomes: outcomes(at:)) : [:]
        var decisions: [String: [DecisionInterval]] = [:]
        var reported = 0
        var truncated = exhausted
        for (slot, node) in discrete.enumerated() {
            let intervals = decisionIntervals(
                slot: slot, isThreshold: prepared.document.nodes[node].kind == .threshold, segments: segments,
                flips: exact ? flips : nil, from: range.from, searchedTo: searchedTo, width: width)
            // The reply stays bounded however many decisions the document has: the first ones in
            // document order, whole, and a flag that some are missing.
            guard reported + intervals.count <= LayoutLimits.maxBreakpointIntervals else {
                truncated = true
                break
            }
            reported += intervals.count
            decisions[prepared.document.nodes[node].id] = intervals
        }
        // Sizes only (no placement): the root's size is its frame's.
        let sizing = LayoutContext(prepared: prepared, options: plain, measurer: measurer)
        let minimum = try sizing.size(prepared.root, ProposedSize(width: 0, height: height)).width
        let ideal = try sizing.size(prepared.root, ProposedSize(width: nil, height: height)).width
        var found = LayoutBreakpoints(
            range: range, minContentWidth: minimum, maxContentWidth: ideal, decisions: decisions, truncated: truncated)
        found.rootID = prepared.document.nodes[prepared.root].id
        return found
    }

    /// Lays out the range's ends and up to 8 evenly spaced grid widths between them, and
    /// bisects between two that differ (``bisect``): the segments of equal outcomes, from
    /// the grid index where each starts, the grid index up to which every width is known, and
    /// whether the budget ran out. nil when not even the first layout fits the budget.
    private static func sampledSegments(
        last: Int, outcomes: (Int) throws(LayoutError) -> [Int]?
    ) throws(LayoutError) -> (segments: [(start: Int, outcome: [Int])], resolved: Int, exhausted: Bool)? {
        var segments: [(start: Int, outcome: [Int])] = []
        var resolved = 0
        let samples = min(8, last)
        guard let first = try outcomes(0) else { return nil }
        var previous = (k: 0, outcome: first)
        segments.append((0, previous.outcome))
        for sample in 1...max(1, samples) where last > 0 {
            let k = sample == samples ? last : last * sample / samples
            guard let outcome = try outcomes(k),
                try bisect(previous.k, previous.outcome, k, outcome, outcomes, into: &segments, resolved: &resolved)
            else {
                return (segments, resolved, true)
            }
            previous = (k, outcome)
        }
        return (segments, resolved, false)
    }

    /// Where each decision's change between two grid widths happens exactly
    /// (``exactFlip(from:to:slot:value:outcomes:)``): segment → slot → exact start.
    private static func exactFlips(
        segments: [(start: Int, outcome: [Int])], last: Int, slots: Int, width: (Int) -> Double,
        outcomes: (Double) throws(LayoutError) -> [Int]?
    ) throws(LayoutError) -> [Int: [Int: Double]] {
        var flips: [Int: [Int: Double]] = [:]
        for position in segments.indices.dropFirst() {
            let start = segments[position].start
            guard start >= 1, start <= last else { continue }
            let after = segments[position].outcome
            let before = segments[position - 1].outcome
            for slot in 0..<slots where after[slot] != before[slot] {
                guard let found = try exactFlip(from: width(start - 1), to: width(start), slot: slot, value: after[slot], outcomes: outcomes)
                else { break }
                flips[position, default: [:]][slot] = found
            }
        }
        return flips
    }

    /// Decision `slot`'s intervals: one per run of segments with the same outcome, each with
    /// its candidate (or a threshold's axis) and, with `flips`, the exact width it starts at.
    private static func decisionIntervals(
        slot: Int, isThreshold: Bool, segments: [(start: Int, outcome: [Int])], flips: [Int: [Int: Double]]?, from: Double,
        searchedTo: Double, width: (Int) -> Double
    ) -> [DecisionInterval] {
        var intervals: [DecisionInterval] = []
        var openValue: Int? = nil
        for (position, segment) in segments.enumerated() {
            let value = segment.outcome[slot]
            let end = position + 1 < segments.count ? width(segments[position + 1].start - 1) : searchedTo
            if openValue == value {
                intervals[intervals.count - 1].to = end
                continue
            }
            openValue = value
            var interval = DecisionInterval(from: width(segment.start), to: end)
            if let flips { interval.exactFrom = position == 0 ? from : flips[position]?[slot] }
            if isThreshold, value >= 0 {
                interval.axis = value == 0 ? .horizontal : .vertical
            } else {
                interval.candidate = value
            }
            intervals.append(interval)
        }
        return intervals
    }

    /// The smallest width in (low, high], on Pango's 1/1024 px grid, at which decision `slot`
    /// already has `value` (it has it at `high` and not at `low`); nil when the budget ran out.
    private static func exactFlip(
        from low: Double, to high: Double, slot: Int, value: Int, outcomes: (Double) throws(LayoutError) -> [Int]?
    ) throws(LayoutError) -> Double? {
        var below = (low * 1024).rounded(.down)
        var above = (high * 1024).rounded(.up)
        while above - below > 1 {
            let middle = ((below + above) / 2).rounded(.down)
            guard let outcome = try outcomes(middle / 1024) else { return nil }
            if outcome[slot] == value { above = middle } else { below = middle }
        }
        return above / 1024
    }

    /// Appends the changes between grid indices `low` and `high` (exclusive of `low`), in order,
    /// and moves `resolved` up to the last index every width before which is known. False when
    /// the budget ran out (`outcomes` nil) first. Recursion depth is log2 of the grid size (≤ 20).
    private static func bisect(
        _ low: Int, _ lowOutcome: [Int], _ high: Int, _ highOutcome: [Int], _ outcomes: (Int) throws(LayoutError) -> [Int]?,
        into segments: inout [(start: Int, outcome: [Int])], resolved: inout Int
    ) throws(LayoutError) -> Bool {
        guard lowOutcome != highOutcome else {
            resolved = high
            return true
        }
        guard high - low > 1 else {
            segments.append((high, highOutcome))
            resolved = high
            return true
        }
        let middle = low + (high - low) / 2
        guard let middleOutcome = try outcomes(middle),
            try bisect(low, lowOutcome, middle, middleOutcome, outcomes, into: &segments, resolved: &resolved)
        else { return false }
        return try bisect(middle, middleOutcome, high, highOutcome, outcomes, into: &segments, resolved: &resolved)
    }
}
