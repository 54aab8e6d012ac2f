extension LayoutContext {
    /// ViewThatFits: the first candidate whose ideal size on the constrained axes fits the
    /// proposal, else the last. Like SwiftUI, a candidate is asked with nil (its ideal) on the
    /// constrained axes and the proposal on the others (Apple's `ViewThatFits` documentation:
    /// "the first child whose ideal size on the constrained axes fits within the proposed size").
    /// A firstFit that is a uniformFit's item shows the list's decision instead
    /// (docs/swiftui-layout.md 3.2: the choice travels down like SwiftUI's Environment); one
    /// deeper inside an item decides here, for its item alone.
    func firstFitChoice(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Int {
        if let forced = forcedChoice(node) { return forced }
        let axes = nodes[node].properties.axes ?? .both
        let candidates = prepared.children(node)
        for (position, candidate) in candidates.enumerated() where try fitsIdeally(candidate, axes, proposal) {
            return position
        }
        return candidates.count - 1
    }

    /// The position a choice point of a list (a `choice`, or a `firstFit` that is one of a
    /// uniformFit's items) shows: the list's current decision, or its last child when it has
    /// fewer (spec 3.2); nil for a node that decides for itself.
    func forcedChoice(_ node: Int) -> Int? {
        let scope = prepared.choiceScope[node]
        guard scope >= 0, prepared.followsList[node] else { return nil }
        return min(currentChoice[scope], prepared.childCount[node] - 1)
    }

    /// The proposal a ViewThatFits asks its candidates: nil on the constrained axes.
    static func idealProposal(_ axes: FitAxes, _ proposal: ProposedSize) -> ProposedSize {
        ProposedSize(width: axes.constrainsWidth ? nil : proposal.width, height: axes.constrainsHeight ? nil : proposal.height)
    }

    /// Whether an ideal size fits on the constrained axes. A nil proposal on an axis does not
    /// constrain it — *Choice* of spec 3.1 (D12): inside a `scroll` along that axis every
    /// candidate fits there, the reading under which seed 000's intent works.
    static func idealFits(_ ideal: LayoutSize, _ axes: FitAxes, _ proposal: ProposedSize) -> Bool {
        let tolerance = 1e-9
        if axes.constrainsWidth, let width = proposal.width, ideal.width > width + tolerance { return false }
        if axes.constrainsHeight, let height = proposal.height, ideal.height > height + tolerance { return false }
        return true
    }

    func fitsIdeally(_ node: Int, _ axes: FitAxes, _ proposal: ProposedSize) throws(LayoutError) -> Bool {
        Self.idealFits(try size(node, Self.idealProposal(axes, proposal)), axes, proposal)
    }

    /// One decision for every item (seed 000, ScreenCred): the ViewThatFits over the whole
    /// list (spec 3.2). Position k is chosen when the list built with every choice point of
    /// every item at k has an ideal size that fits the proposal on the constrained axes (both
    /// by default) — the list's own axis included, unless a `scroll` above proposes nil there.
    /// Else the last position. Leaves ``currentChoice`` at the answer.
    func uniformChoice(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Int {
        let key = MemoKey(node, proposal, scale: scale(for: node), variant: variant(for: node))
        if let known = choices.value(for: key) {
            currentChoice[node] = known
            return known
        }
        let axes = nodes[node].properties.axes ?? .both
        let ideal = Self.idealProposal(axes, proposal)
        let positions = prepared.positions[node]
        var answer = positions - 1
        for position in 0..<positions - 1 {
            currentChoice[node] = position
            if Self.idealFits(try uniformPlan(node, ideal).size, axes, proposal) {
                answer = position
                break
            }
        }
        currentChoice[node] = answer
        choices.set(answer, for: key)
        return answer
    }

    /// The list's stack with its choice points at ``currentChoice``.
    func uniformPlan(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> StackPlan {
        return try distribute(node, Array(prepared.children(node)), axis: nodes[node].properties.axis ?? .vertical, spacing: nodes[node].properties.spacing, proposal)
    }

    /// What memo answers depend on besides node, proposal and scale: the decision of the
    /// enclosing uniformFit (its items are laid out once per position tried) and whether a
    /// fitting's hidden copy is being measured (spacers and flexible frames fixed).
    func variant(for node: Int) -> UInt32 {
        let scope = prepared.choiceScope[node]
        let choice = scope >= 0 ? UInt32(truncatingIfNeeded: currentChoice[scope] + 1) : 0
        return choice << 2 | fixing
    }

    static func fixingBit(_ axis: LayoutAxis) -> UInt32 { axis == .horizontal ? 1 : 2 }

    func isFixed(_ axis: LayoutAxis) -> Bool { fixing & Self.fixingBit(axis) != 0 }

    // MARK: scroll

    /// A scroll view proposes nil along its axis and passes its proposal across; it is as long
    /// as proposed along its axis (its content's length when the proposal is nil or infinite)
    /// and as thick as its content across (swiftuifieldguide.com/layout/scrollview; spec 3.2).
    func scrollProposal(_ node: Int, _ proposal: ProposedSize) -> ProposedSize {
        var inner = proposal
        inner[nodes[node].properties.axis ?? .vertical] = nil
        return inner
    }

    func scrollSize(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> LayoutSize {
        let axis = nodes[node].properties.axis ?? .vertical
        var answer = try size(firstChild(node), scrollProposal(node, proposal))
        if let along = proposal[axis], along.isFinite { answer[axis] = along }
        return answer
    }

    // MARK: fitting

    /// CwlFitting (spec 4.10): the hidden copy is laid out at the fitting node's
    /// own proposal with its flexible parts fixed — spacers at their minimum, flexible frames
    /// taking their child's length across — and its length across is the fitted length: the
    /// widest *wrapped* row, which may be below the proposal (not min(ideal, proposal)).
    func fittedLength(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Double {
        let axis = nodes[node].properties.axis ?? .vertical
        // A fitting inside another's hidden copy keeps the outer one's axis fixed too.
        let saved = fixing
        fixing |= Self.fixingBit(axis.other)
        defer { fixing = saved }
        let hidden = try distribute(node, Array(prepared.children(node)), axis: axis, spacing: nodes[node].properties.spacing, proposal)
        return hidden.size[axis.other]
    }

    // MARK: Text

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
        prepared.layoutText(node, string, sizeCategory: options.sizeCategory)
    }

    static func finite(_ length: Double?) -> Double? { length.flatMap { $0.isFinite ? $0 : nil } }

    /// Whether a text fits its proposal (spec 2.1): nothing dropped or ellipsized, and within
    /// the proposed width and height.
    static func fits(_ text: MeasuredText, _ proposal: ProposedSize) -> Bool {
        let tolerance = 1e-9
        if text.truncated { return false }
        if let width = finite(proposal.width), text.width > width + tolerance { return false }
        if let height = finite(proposal.height), text.height > height + tolerance { return false }
        return true
    }

    /// A text under a proposal at a factor (spec 2.1): wrapped to the width, then as many
    /// lines as the height holds — effective line limit min(lineLimit, max(1, ⌊h / line⌋)),
    /// the last line ellipsized. *Choice:* at least one line, even under a smaller height (the
    /// text then overflows). A line is the measured height over the line count (one font, so
    /// equal lines); a measurer whose lines differ is re-asked with one line fewer, a few times.
    /// `ownText`: `text` is the node's own (not one of a template's strings), so its unwrapped
    /// measurement is kept and reused at any width it fits (``unwrapped``).
    func measureLimited(
        _ node: Int, _ text: LayoutText, _ proposal: ProposedSize, scale: Double, ownText: Bool = false
    ) throws(LayoutError) -> MeasuredText {
        let width = Self.finite(proposal.width)
        func measure(_ text: LayoutText) throws(LayoutError) -> MeasuredText {
            try wrapMeasurer(node) { () throws(LayoutError) in try measurer.measure(text, proposedWidth: width, scale: scale) }
        }
        var measured: MeasuredText
        if ownText, let known = unwrapped[node], known.scale == scale, width.map({ known.measured.width <= $0 }) ?? true {
            measured = known.measured
        } else {
            measured = try measure(text)
            // Kept only when the line limit took nothing: a limited text at a width is
            // ellipsized where the unwrapped one only drops lines.
            if ownText, width == nil, !measured.truncated, text.lineLimit.map({ measured.lineCount <= $0 }) ?? true,
                measurer.reusesUnwrapped(width: measured.width)
            {
                unwrapped[node] = (scale, measured)
            }
        }
        let tolerance = 1e-9
        guard let height = Self.finite(proposal.height), measured.height > height + tolerance, measured.lineCount > 1 else {
            return measured
        }
        let line = measured.height / Double(measured.lineCount)
        let fitting = line > 0 ? (height / line + tolerance).rounded(.down) : 1
        var limit = Int(max(1, min(Double(measured.lineCount - 1), fitting)))
        var limited = text
        // Bounded retries: each is a full measurement of an untrusted text.
        for _ in 0..<3 {
            limited.lineLimit = limit
            measured = try measure(limited)
            if measured.height <= height + tolerance || limit == 1 { return measured }
            limit -= 1
        }
        limited.lineLimit = 1
        return try measure(limited)
    }

    /// A text at its scale: its group's, or its own minimum-scale search (which reacts to the
    /// proposed height as well as the width, spec 2.1 T2), or 1.
    func measureText(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> TextMeasurement {
        let key = MemoKey(node, proposal, scale: scale(for: node))
        if let known = texts.value(for: key) { return known }
        let text = layoutText(node, nodes[node].properties.text ?? "")
        let group = prepared.group[node]
        var factor = 1.0
        if group >= 0 {
            factor = currentScale[group]
        } else if let minimum = nodes[node].properties.minimumScaleFactor, minimum < 1 {
            factor = try largestFittingScale(minimum: minimum) { (factor) throws(LayoutError) in
                Self.fits(try measureLimited(node, text, proposal, scale: factor, ownText: true), proposal)
            }
        }
        let answer = TextMeasurement(measured: try measureLimited(node, text, proposal, scale: factor, ownText: true), scale: factor)
        texts.set(answer, for: key)
        return answer
    }

    /// The template view: the widest (and tallest) of the template strings, in the node's font
    /// at its group's scale, each measured under the proposal as a text is (spec 4.10).
    func templateMeasure(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> (size: LayoutSize, outcome: TextOutcome, fits: Bool) {
        let factor = scale(for: node)
        var size = LayoutSize.zero
        var outcome = TextOutcome(scale: factor, lineCount: 0, truncated: false)
        var fits = true
        for template in nodes[node].properties.templates ?? [] {
            let measured = try measureLimited(node, layoutText(node, template), proposal, scale: factor)
            size = LayoutSize(width: max(size.width, measured.width), height: max(size.height, measured.height))
            outcome.lineCount = max(outcome.lineCount, measured.lineCount)
            outcome.truncated = outcome.truncated || measured.truncated
            fits = fits && Self.fits(measured, proposal)
        }
        return (size, outcome, fits)
    }

    /// The shared minimum scale factor: the largest factor under which every text and template
    /// of the group fits the size it is proposed (width and height, spec 4.10) when the group
    /// is laid out at `proposal`. Each trial lays the group's subtree out for real (in a trial
    /// epoch), so the sizes are the ones the stacks actually offer at that factor.
    func groupScale(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Double {
        let key = MemoKey(node, proposal, scale: scale(for: node), variant: variant(for: node))
        if let known = groupScales.value(for: key) { return known }
        let content = try firstChild(node)
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
