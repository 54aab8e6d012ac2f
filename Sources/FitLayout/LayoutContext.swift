/// Sizes are memoised per node, proposal and scale factor: a stack asks each child for its
/// size at 0, at infinity and at its share, and without the memo nested stacks would cost
/// 3^depth. With it each node answers a handful of distinct proposals.
struct MemoKey: Hashable {
    var node: Int32
    var width: UInt64
    var height: UInt64
    var scale: UInt64
    /// What else the answer depends on (``LayoutContext/variant(for:)``): an enclosing
    /// uniformFit's decision, a fitting's hidden copy.
    var variant: UInt32

    init(_ node: Int, _ proposal: ProposedSize, scale: Double, variant: UInt32 = 0) {
        // A NaN payload no proposal can carry (proposals are checked) stands for "unspecified".
        let unspecified: UInt64 = 0x7FF8_DEAD_0000_0001
        self.node = Int32(truncatingIfNeeded: node)
        self.width = proposal.width?.bitPattern ?? unspecified
        self.height = proposal.height?.bitPattern ?? unspecified
        self.scale = scale.bitPattern
        self.variant = variant
    }
}

struct TextMeasurement {
    var measured: MeasuredText
    var scale: Double
}

/// One layout call's state: memo tables and the frames being written. Not shared between calls.
///
/// Its tables are `@exclusivity(unchecked)`: one thread, one call, and no method holds an
/// inout access to a table while calling another that writes it (the debug tests ran with
/// the checks on before they were dropped). The run-time checks were ≈ 1,000 calls of
/// `swift_beginAccess` per 50-node layout, 3 % of its instructions (FitBenchLayout, callgrind).
final class LayoutContext<Measurer: LayoutTextMeasurer> {
    let prepared: PreparedLayout
    let nodes: [LayoutNode]
    let options: LayoutOptions
    let measurer: Measurer

    @exclusivity(unchecked) var sizes: NodeMemo<LayoutSize>
    @exclusivity(unchecked) var texts: NodeMemo<TextMeasurement>
    @exclusivity(unchecked) var groupScales: NodeMemo<Double>
    /// Text baselines by node and proposal, asked only by baseline alignments and the result.
    @exclusivity(unchecked) var baselineMemo: NodeMemo<Baselines?>
    @exclusivity(unchecked) var choices: NodeMemo<Int>
    /// The position each uniformFit is currently laid out with (read by its choice points).
    @exclusivity(unchecked) var currentChoice: [Int]
    /// While fittings measure their hidden copies: the axes their spacers and flexible frames
    /// are fixed on (spec 4.10), as ``LayoutContext/fixingBit(_:)`` bits.
    @exclusivity(unchecked) var fixing: UInt32 = 0
    /// The factor each scaleGroup is currently laid out with (read by its members).
    @exclusivity(unchecked) var currentScale: [Double]
    /// A threshold's children in its arrangement.
    @exclusivity(unchecked) var arranged: [[Int]]

    // Outputs of placement. A scale-group search places its subtree on trial; the epoch tells
    // the final placement (epoch 1) from trials, so trial frames never count as shown.
    @exclusivity(unchecked) var frames: [LayoutRect]
    @exclusivity(unchecked) var placedEpoch: [Int]
    /// The proposal each node was last placed with (what its text baselines are read at).
    @exclusivity(unchecked) var placedProposal: [ProposedSize]
    @exclusivity(unchecked) var epoch = 1
    @exclusivity(unchecked) var lastEpoch = 1
    @exclusivity(unchecked) var outcomes: [TextOutcome?]
    /// Whether a text or template fitted its proposed width in its latest placement.
    @exclusivity(unchecked) var fits: [Bool]
    @exclusivity(unchecked) var chosen: [Int]
    @exclusivity(unchecked) var fittedLength: [Double]
    /// Each text node's own text measured unwrapped, and at which scale factor: proposed at
    /// least that width it measures the same (``LayoutTextMeasurer``), so it is not measured
    /// again. A 50-node settings screen asks a third fewer measurements (FitBenchLayout).
    @exclusivity(unchecked) var unwrapped: [(scale: Double, measured: MeasuredText)?]

    init(prepared: PreparedLayout, options: LayoutOptions, measurer: Measurer) {
        self.prepared = prepared
        self.nodes = prepared.nodes
        self.options = options
        self.measurer = measurer
        let count = nodes.count
        currentScale = [Double](filled: 1, count: count)
        currentChoice = [Int](filled: 0, count: count)
        arranged = [[Int]](filled: [], count: count)
        frames = [LayoutRect](filled: .zero, count: count)
        placedEpoch = [Int](filled: 0, count: count)
        placedProposal = [ProposedSize](filled: .unspecified, count: count)
        outcomes = [TextOutcome?](filled: nil, count: count)
        fits = [Bool](filled: true, count: count)
        chosen = [Int](filled: 0, count: count)
        fittedLength = [Double](filled: 0, count: count)
        unwrapped = [(scale: Double, measured: MeasuredText)?](filled: nil, count: count)
        sizes = NodeMemo(nodes: count)
        texts = NodeMemo(nodes: count)
        groupScales = NodeMemo(nodes: count)
        baselineMemo = NodeMemo(nodes: count)
        choices = NodeMemo(nodes: count)
        for index in 0..<count where nodes[index].kind == .threshold {
            let arrangement = self.arrangement(index)
            arranged[index] = prepared.children(index).filter { child in
                nodes[child].properties.when.map { $0 == arrangement } ?? true
            }
        }
    }

    func location(_ node: Int) -> NodeLocation { nodes.location(node) }

    /// The child of a node that has one (a frame, padding, scroll…), or the base of an overlay.
    /// PreparedLayout's checks make sure it exists; a typed error, not a crash, if they ever
    /// let one through.
    func firstChild(_ node: Int) throws(LayoutError) -> Int {
        guard let child = prepared.children(node).first else {
            throw .invalidChildren(node: location(node), reason: "a \(nodes[node].kind.rawValue) needs a child")
        }
        return child
    }

    func run(_ proposal: ProposedSize) throws(LayoutError) -> LayoutResult {
        let root = prepared.root
        try place(root, x: 0, y: 0, proposal)
        // Before the baselines: a container's are its texts' plus their offsets in it.
        if options.unit == .cells { snapToCells() }
        var baselines = [Baselines?](filled: nil, count: nodes.count)
        try reportBaselines(root, into: &baselines)
        var result = LayoutResult(proposal: proposal, size: frames[root].size, nodes: [], decisions: [], truncated: false)
        result.nodes.reserveCapacity(nodes.count)
        // Nodes read in place (nodes[index]): a copy of each retained all its strings.
        for index in nodes.indices {
            let visible = placedEpoch[index] == 1
            var outcome = visible ? outcomes[index] : nil
            outcome?.alignment = nodes[index].properties.multilineTextAlignment
            // A hidden text is measured (it sizes what it stands for) but nobody reads it cut.
            let hidden = nodes[index].properties.hidden == true
            if outcome?.truncated == true && !hidden { result.truncated = true }
            // has_baselines is false for a baseline that is not a finite number (a text placed
            // at y = ∞ under an infinite proposal): NaN and ∞ never reach the wire as baselines.
            let shown = visible ? baselines[index].flatMap { $0.first.isFinite && $0.last.isFinite ? $0 : nil } : nil
            result.nodes.append(
                NodeLayout(
                    id: nodes[index].id, frame: visible ? frames[index] : .zero, visible: visible, text: outcome,
                    firstBaseline: shown?.first, lastBaseline: shown?.last, hidden: hidden))
            let kind = nodes[index].kind
            guard visible, kind.isDecision else { continue }
            var decision = LayoutDecision(id: nodes[index].id, nodeIndex: index, kind: kind)
            switch kind {
            case .firstFit:
                decision.candidate = chosen[index]
                decision.candidateID = nodes[prepared.children(index).dropFirst(chosen[index]).first ?? index].id
            case .uniformFit:
                decision.candidate = chosen[index]
                let shown = (prepared.choicePoints[index] ?? []).compactMap { point -> String? in
                    guard placedEpoch[point] == 1, prepared.childCount[point] > 0 else { return nil }
                    let child = min(chosen[index], prepared.childCount[point] - 1)
                    return nodes[prepared.children(point).dropFirst(child).first ?? point].id
                }
                decision.candidateIDs = shown
                decision.candidateID = shown.first
            case .threshold: decision.axis = arrangement(index)
            case .fitting: decision.length = fittedLength[index]
            case .scaleGroup: decision.scale = currentScale[index]
            default: break
            }
            result.decisions.append(decision)
        }
        return result
    }

    /// In cells a frame covers whole cells (docs/pictures.md):
    /// centring a 2-cell value in a 9-cell box gives x = 3.5, which no terminal can draw. Each
    /// edge is rounded to the nearest cell boundary, half up (⌊v + ½⌋, not Swift's half away
    /// from zero, which is not the same on both sides of 0): the rounding commutes with whole-cell
    /// shifts, so a node of whole cells keeps its width and height, and neighbours that share
    /// an edge still share it. Baselines are offsets from a frame's top and move with it.
    func snapToCells() {
        func snap(_ value: Double) -> Double { value.isFinite ? (value + 0.5).rounded(.down) : value }
        for index in frames.indices {
            let frame = frames[index]
            let x = snap(frame.x)
            let y = snap(frame.y)
            frames[index] = LayoutRect(x: x, y: y, width: snap(frame.maxX) - x, height: snap(frame.maxY) - y)
        }
    }

    // MARK: Sizing

    func scale(for node: Int) -> Double {
        let group = prepared.group[node]
        return group >= 0 ? currentScale[group] : 1
    }

    func size(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> LayoutSize {
        let key = MemoKey(node, proposal, scale: scale(for: node), variant: variant(for: node))
        if let known = sizes.value(for: key) { return known }
        let answer = try computeSize(node, proposal)
        sizes.set(answer, for: key)
        return answer
    }

    private func computeSize(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> LayoutSize {
        switch nodes[node].kind {
        case .text:
            let text = try measureText(node, proposal).measured
            return LayoutSize(width: text.width, height: text.height)
        case .spacer:
            return spacerSize(node, proposal)
        case .image:
            return try imageSize(node)
        case .hstack, .vstack, .threshold, .fitting, .uniformFit:
            return try stackPlan(node, proposal).size
        case .scroll:
            return try scrollSize(node, proposal)
        case .choice:
            return try size(candidate(of: node, forcedChoice(node) ?? 0), proposal)
        case .zstack:
            return try zstackSize(node, proposal)
        case .overlay, .background:
            return try size(firstChild(node), proposal)
        case .grid:
            return try gridPlan(node, proposal).size
        case .flow:
            return try flowPlan(node, proposal).size
        case .gridRow, .forEach:
            // A grid sizes its rows' cells itself; a forEach is gone once the document is prepared.
            return .zero
        case .frame:
            return try frameLayout(node, proposal).size
        case .padding:
            let insets = self.insets(nodes[node].properties)
            let inner = try size(firstChild(node), inset(proposal, insets))
            return LayoutSize(
                width: inner.width + insets.leading + insets.trailing, height: inner.height + insets.top + insets.bottom)
        case .fixedSize:
            return try size(firstChild(node), fixedProposal(nodes[node].properties, proposal))
        case .firstFit:
            return try size(candidate(of: node, try firstFitChoice(node, proposal)), proposal)
        case .template:
            return try templateMeasure(node, proposal).size
        case .scaleGroup:
            currentScale[node] = try groupScale(node, proposal)
            return try size(firstChild(node), proposal)
        }
    }

    func spacerAxis(_ node: Int) -> LayoutAxis? {
        let parent = prepared.parent[node]
        guard parent >= 0 else { return nil }
        switch nodes[parent].kind {
        case .hstack: return .horizontal
        case .vstack: return .vertical
        case .threshold: return arrangement(parent)
        // A uniformFit is a stack along its axis (vertical by default, uniformPlan).
        case .fitting, .uniformFit: return nodes[parent].properties.axis ?? .vertical
        default: return nil
        }
    }

    /// A spacer takes what it is offered along its stack's axis, at least its minimum length,
    /// and nothing across it; outside a stack it expands on both axes (SwiftUI's `Spacer`).
    func spacerSize(_ node: Int, _ proposal: ProposedSize) -> LayoutSize {
        let minimum = nodes[node].properties.minLength ?? options.spacing
        // In a fitting's hidden copy a spacer is fixed at its minimum (spec 4.10).
        func along(_ offered: Double?, _ axis: LayoutAxis) -> Double {
            isFixed(axis) ? minimum : offered.map { max(minimum, $0) } ?? minimum
        }
        switch spacerAxis(node) {
        case .horizontal: return LayoutSize(width: along(proposal.width, .horizontal), height: 0)
        case .vertical: return LayoutSize(width: 0, height: along(proposal.height, .vertical))
        case nil: return LayoutSize(width: along(proposal.width, .horizontal), height: along(proposal.height, .vertical))
        }
    }

    /// An image has its own size whatever is proposed (a non-resizable SwiftUI `Image`); sized
    /// to a text style it is one line of that style tall, so it grows with the text.
    func imageSize(_ node: Int) throws(LayoutError) -> LayoutSize {
        if nodes[node].properties.textStyle != nil || nodes[node].properties.font != nil {
            let height = try wrapMeasurer(node) { () throws(LayoutError) in
                try measurer.lineHeight(of: prepared.fonts[node], sizeCategory: options.sizeCategory)
            }
            return LayoutSize(width: height * (nodes[node].properties.aspectRatio ?? 1), height: height)
        }
        return LayoutSize(width: nodes[node].properties.width ?? 0, height: nodes[node].properties.height ?? 0)
    }

    func arrangement(_ node: Int) -> LayoutAxis {
        let threshold = nodes[node].properties.category ?? .accessibilityMedium
        return options.sizeCategory >= threshold ? .vertical : .horizontal
    }

    func candidate(of node: Int, _ position: Int) -> Int {
        let candidates = prepared.children(node)
        return candidates[candidates.startIndex + min(position, candidates.count - 1)]
    }

    // MARK: Modifiers

    struct Insets {
        var top, leading, bottom, trailing: Double
    }

    /// SwiftUI's `padding()` without a length is 16 pt; here twice the default spacing.
    func insets(_ properties: LayoutProperties) -> Insets {
        let all = properties.length ?? options.spacing * 2
        return Insets(
            top: properties.top ?? all, leading: properties.leading ?? all,
            bottom: properties.bottom ?? all, trailing: properties.trailing ?? all)
    }

    func inset(_ proposal: ProposedSize, _ insets: Insets) -> ProposedSize {
        ProposedSize(
            width: proposal.width.map { max(0, $0 - insets.leading - insets.trailing) },
            height: proposal.height.map { max(0, $0 - insets.top - insets.bottom) })
    }

    /// `fixedSize` proposes nil (the ideal size) on its fixed axes.
    func fixedProposal(_ properties: LayoutProperties, _ proposal: ProposedSize) -> ProposedSize {
        ProposedSize(
            width: properties.horizontal ?? true ? nil : proposal.width,
            height: properties.vertical ?? true ? nil : proposal.height)
    }

    /// SwiftUI's frames. A fixed length is proposed to the child and is the frame's size. A
    /// flexible frame proposes the proposal (or its ideal length, when none) clamped to
    /// [min, max], and then is the child's size clamped so: with a minimum, at least
    /// min(minimum, proposal); with a maximum, at most max(child, proposal) and the maximum.
    /// That is objc.io's reimplementation of `_FlexFrameLayout` ("Thinking in SwiftUI", 2023,
    /// chapter 4, flexible frames): `.frame(maxWidth: .infinity)` takes the whole proposal.
    func frameLayout(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> (childProposal: ProposedSize, size: LayoutSize) {
        let axes: [(fixed: Double?, low: Double?, ideal: Double?, high: Double?)] = [
            (nodes[node].properties.width, nodes[node].properties.minWidth, nodes[node].properties.idealWidth, nodes[node].properties.maxWidth),
            (nodes[node].properties.height, nodes[node].properties.minHeight, nodes[node].properties.idealHeight, nodes[node].properties.maxHeight),
        ]
        var childProposal = proposal
        for (axis, bounds) in zip(LayoutAxis.allCases, axes) {
            if let fixed = bounds.fixed {
                childProposal[axis] = fixed
            } else if let offered = proposal[axis] ?? bounds.ideal {
                childProposal[axis] = min(max(offered, bounds.low ?? 0), bounds.high ?? .infinity)
            } else {
                childProposal[axis] = nil
            }
        }
        let child = try size(firstChild(node), childProposal)
        var answer = child
        for (axis, bounds) in zip(LayoutAxis.allCases, axes) {
            if let fixed = bounds.fixed {
                answer[axis] = fixed
                continue
            }
            // In a fitting's hidden copy a flexible frame takes its child's length (spec 4.10).
            let offered = isFixed(axis) ? nil : proposal[axis] ?? bounds.ideal
            var length = child[axis]
            if let low = bounds.low { length = max(low, offered.map { min(length, $0) } ?? length) }
            if let high = bounds.high { length = min(high, offered.map { max(length, $0) } ?? length) }
            answer[axis] = length
        }
        return (childProposal, answer)
    }

    func wrapMeasurer<T>(_ node: Int, _ body: () throws(LayoutError) -> T) throws(LayoutError) -> T {
        do {
            return try body()
        } catch {
            if case .measurementFailed(nil, let reason) = error { throw .measurementFailed(node: location(node), reason: reason) }
            throw error
        }
    }
}
