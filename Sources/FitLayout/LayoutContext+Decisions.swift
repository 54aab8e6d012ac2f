extension LayoutContext {
    /// ViewThatFits: the first candidate whose ideal size on the constrained axes fits the
    /// proposal, else the last. Like SwiftUI, a candidate is asked with nil (its ideal) on the
    /// constrained axes and the proposal on the others (Apple's `ViewThatFits` documentation:
    /// "the first child whose ideal size on the constrained axes fits within the proposed size").
    func firstFitChoice(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Int {
        let axes = nodes[node].properties.axes ?? .both
        let candidates = prepared.children(node)
        for (position, candidate) in candidates.enumerated() where try fitsIdeally(candidate, axes, proposal) {
            return position
        }
        return candidates.count - 1
    }

    func fitsIdeally(_ node: Int, _ axes: FitAxes, _ proposal: ProposedSize) throws(LayoutError) -> Bool {
        let ideal = try size(
            node,
            ProposedSize(width: axes.constrainsWidth ? nil : proposal.width, height: axes.constrainsHeight ? nil : proposal.height))
        let tolerance = 1e-9
        if axes.constrainsWidth, let width = proposal.width, ideal.width > width + tolerance { return false }
        if axes.constrainsHeight, let height = proposal.height, ideal.height > height + tolerance { return false }
        return true
    }

    /// One candidate for every item (the ScreenCred list): the first position under which every
    /// item's candidate fits the proposal the list gives an item (the list's proposal across
    /// it, nothing along it), else the last. An item with fewer candidates uses its last.
    func uniformChoice(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Int {
        let axis = nodes[node].properties.axis ?? .vertical
        var itemProposal = proposal
        itemProposal[axis] = nil
        let items = prepared.children(node)
        let positions = items.reduce(0) { max($0, prepared.childCount[$1]) }
        guard positions > 0 else { return 0 }
        for position in 0..<positions {
            var all = true
            for item in items {
                let axes = nodes[item].properties.axes ?? .both
                if try !fitsIdeally(candidate(of: item, position), axes, itemProposal) {
                    all = false
                    break
                }
            }
            if all { return position }
        }
        return positions - 1
    }

    /// The largest factor in [minimum, 1] for which `fits` holds, by bisection on a grid of
    /// 1/``LayoutLimits/scaleSteps`` (fits is monotone: smaller text fits more easily). When
    /// even the minimum does not fit, the minimum: the text then stops shrinking and truncates.
    func largestFittingScale(minimum: Double, _ fits: (Double) throws(LayoutError) -> Bool) throws(LayoutError) -> Double {
        if try fits(1) { return 1 }
        guard minimum < 1, try fits(minimum) else { return minimum }
        let steps = LayoutLimits.scaleSteps
        var low = Int((minimum * Double(steps)).rounded(.down)) + 1
        var high = steps - 1
        var best = minimum
        while low <= high {
            let middle = (low + high) / 2
            let factor = Double(middle) / Double(steps)
            if try fits(factor) {
                best = factor
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best
    }

    func layoutText(_ node: Int, _ string: String) -> LayoutText {
        let properties = nodes[node].properties
        return LayoutText(
            string, font: prepared.fonts[node], sizeCategory: options.sizeCategory,
            lineLimit: properties.lineLimit, truncation: properties.truncation ?? .tail)
    }

    static func fitsWidth(_ text: MeasuredText, _ width: Double?) -> Bool {
        !text.truncated && (width.map { text.width <= $0 + 1e-9 } ?? true)
    }

    /// A text at its scale: its group's, or its own minimum-scale search, or 1. SwiftUI's Text
    /// wraps to the proposed width and ignores the proposed height (not modelled: truncation to
    /// a height).
    func measureText(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> TextMeasurement {
        let key = MemoKey(node, proposal, scale: scale(for: node))
        if let known = texts.value(for: key) { return known }
        let width = proposal.width.flatMap { $0.isFinite ? $0 : nil }
        let text = layoutText(node, nodes[node].properties.text ?? "")
        func measure(_ factor: Double) throws(LayoutError) -> MeasuredText {
            try wrapMeasurer(node) { () throws(LayoutError) in try measurer.measure(text, proposedWidth: width, scale: factor) }
        }
        let group = prepared.group[node]
        var factor = 1.0
        if group >= 0 {
            factor = currentScale[group]
        } else if let minimum = nodes[node].properties.minimumScaleFactor, minimum < 1 {
            factor = try largestFittingScale(minimum: minimum) { (factor) throws(LayoutError) in
                Self.fitsWidth(try measure(factor), width)
            }
        }
        let answer = TextMeasurement(measured: try measure(factor), scale: factor)
        texts.set(answer, for: key)
        return answer
    }

    /// The template view: the widest (and tallest) of the template strings, in the node's font
    /// at its group's scale, measured at the proposed width.
    func templateMeasure(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> (size: LayoutSize, outcome: TextOutcome, fits: Bool) {
        let width = proposal.width.flatMap { $0.isFinite ? $0 : nil }
        let factor = scale(for: node)
        var size = LayoutSize.zero
        var outcome = TextOutcome(scale: factor, lineCount: 0, truncated: false)
        var fits = true
        for template in nodes[node].properties.templates ?? [] {
            let text = layoutText(node, template)
            let measured = try wrapMeasurer(node) { () throws(LayoutError) in
                try measurer.measure(text, proposedWidth: width, scale: factor)
            }
            size = LayoutSize(width: max(size.width, measured.width), height: max(size.height, measured.height))
            outcome.lineCount = max(outcome.lineCount, measured.lineCount)
            outcome.truncated = outcome.truncated || measured.truncated
            fits = fits && Self.fitsWidth(measured, width)
        }
        return (size, outcome, fits)
    }

    /// The shared minimum scale factor: the largest factor under which every text and template
    /// of the group fits the width it is proposed when the group is laid out at `proposal`.
    /// Each trial lays the group's subtree out for real (in a trial epoch), so the widths are
    /// the ones the stacks actually offer at that factor.
    func groupScale(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Double {
        let key = MemoKey(node, proposal, scale: scale(for: node))
        if let known = groupScales.value(for: key) { return known }
        let content = prepared.children(node).first!
        let members = prepared.members[node]
        let savedEpoch = epoch
        let minimum = nodes[node].properties.minimumScaleFactor ?? 1
        let factor = try largestFittingScale(minimum: minimum) { (factor) throws(LayoutError) in
            currentScale[node] = factor
            lastEpoch += 1
            epoch = lastEpoch
            try place(content, x: 0, y: 0, proposal)
            return members.allSatisfy { placedEpoch[$0] != epoch || fits[$0] }
        }
        epoch = savedEpoch
        currentScale[node] = factor
        groupScales.set(factor, for: key)
        return factor
    }
}
