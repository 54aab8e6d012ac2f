/// How a stack divides its space, kept for placement.
struct StackPlan {
    var children: [Int]
    var axis: LayoutAxis
    /// The distance before each child (from the previous one); 0 before the first.
    var distances: [Double]
    var proposals: [ProposedSize]
    var sizes: [LayoutSize]
    var size: LayoutSize
}

/// Where a parent puts a child: offset from the parent's origin and the proposal it places with.
struct ChildPlacement {
    var child: Int
    var dx: Double
    var dy: Double
    var proposal: ProposedSize
}

extension LayoutContext {
    /// The children a stack-like node arranges, its axis and spacing, for a proposal:
    /// hstack/vstack as given, a threshold in its arrangement, a uniformFit's items as their
    /// chosen candidate, a fitting stack at the length of its widest child.
    func stackPlan(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> StackPlan {
        let spacing = nodes[node].properties.spacing
        switch nodes[node].kind {
        case .hstack:
            return try distribute(node, Array(prepared.children(node)), axis: .horizontal, spacing: spacing, proposal)
        case .threshold:
            return try distribute(node, arranged[node], axis: arrangement(node), spacing: spacing, proposal)
        case .uniformFit:
            // Decide, which leaves the choice points inside the items at the decision.
            _ = try uniformChoice(node, proposal)
            return try uniformPlan(node, proposal)
        case .fitting:
            let axis = nodes[node].properties.axis ?? .vertical
            let length = try fittedLength(node, proposal)
            var fitted = proposal
            fitted[axis.other] = length
            return try distribute(node, Array(prepared.children(node)), axis: axis, spacing: spacing, fitted)
        default:
            return try distribute(node, Array(prepared.children(node)), axis: .vertical, spacing: spacing, proposal)
        }
    }

    /// SwiftUI's stack algorithm (docs/swiftui-layout.md 1.1, from OpenSwiftUI
    /// `StackLayout.swift` `sizeChildrenGenerallyWithConcreteMajorProposal` and `prioritize`):
    /// with a length P along the axis, order the children by layout priority (highest first),
    /// then by flexibility (length at ∞ minus length at 0, least first; two infinitely
    /// flexible ones: the larger minimum first), stably. Children of one priority form a group.
    /// Every group after the first has its minimum lengths reserved; the first group shares
    /// P − spacing − reservations, each child in order offered an equal share of what is left
    /// and taking what it takes; then the next group gets its reservation back and shares the
    /// rest. Spacers have priority −∞, so they share only what the others left: a text that
    /// fits beside a spacer is never wrapped for it. With no length along the axis, every
    /// child is asked for its ideal. Across the axis every child gets the stack's proposal.
    func distribute(
        _ node: Int, _ children: [Int], axis: LayoutAxis, spacing: Double?, _ proposal: ProposedSize
    ) throws(LayoutError) -> StackPlan {
        let count = children.count
        var plan = StackPlan(
            children: children, axis: axis, distances: distances(children, axis: axis, spacing: spacing),
            proposals: [ProposedSize](filled: .unspecified, count: count),
            sizes: [LayoutSize](filled: .zero, count: count), size: .zero)
        guard count > 0 else { return plan }
        let cross = proposal[axis.other]
        let spacingTotal = plan.distances.reduce(0, +)
        if let main = proposal[axis] {
            var priority = [Double](filled: 0, count: count)
            var least = [Double](filled: 0, count: count)
            var flexibility = [Double](filled: 0, count: count)
            for (position, child) in children.enumerated() {
                priority[position] = layoutPriority(child)
                least[position] = try size(child, ProposedSize(main: 0, cross: cross, axis: axis))[axis]
                let most = try size(child, ProposedSize(main: .infinity, cross: cross, axis: axis))[axis]
                let flex = most - least[position]
                flexibility[position] = flex.isNaN ? .infinity : flex
            }
            // A total order (the position breaks ties), so the sort is as stable as SwiftUI's.
            let order = (0..<count).sorted { a, b in
                if priority[a] != priority[b] { return priority[a] > priority[b] }
                if flexibility[a] != flexibility[b] { return flexibility[a] < flexibility[b] }
                if flexibility[a].isInfinite, least[a] != least[b] { return least[a] > least[b] }
                return a < b
            }
            let firstPriority = priority[order[0]]
            var available = main - spacingTotal
            for position in 0..<count where priority[position] != firstPriority { available -= least[position] }
            var start = 0
            while start < count {
                var end = start
                while end < count, priority[order[end]] == priority[order[start]] { end += 1 }
                if start > 0 { for rank in start..<end { available += least[order[rank]] } }
                for rank in start..<end {
                    let position = order[rank]
                    let share = main.isInfinite ? .infinity : max(0, available / Double(end - rank))
                    let offer = ProposedSize(main: share, cross: cross, axis: axis)
                    plan.proposals[position] = offer
                    plan.sizes[position] = try size(children[position], offer)
                    available -= plan.sizes[position][axis]
                }
                start = end
            }
        } else {
            for (position, child) in children.enumerated() {
                let offer = ProposedSize(main: nil, cross: cross, axis: axis)
                plan.proposals[position] = offer
                plan.sizes[position] = try size(child, offer)
            }
        }
        var total = LayoutSize.zero
        total[axis] = plan.sizes.reduce(0) { $0 + $1[axis] } + spacingTotal
        total[axis.other] = try crossExtent(node, plan.children, plan.sizes, plan.proposals, axis: axis.other)
        plan.size = total
        return plan
    }

    /// The distance before each child: the stack's `spacing` when given (spacers included),
    /// else SwiftUI's per-pair default (docs/swiftui-layout.md 1.3): 0 next to a spacer, the
    /// font's line gap between two texts one above the other (*choice*: 0 — neither measurer
    /// reports a gap beyond the line height), the default spacing otherwise.
    func distances(_ children: [Int], axis: LayoutAxis, spacing: Double?) -> [Double] {
        var distances = [Double](filled: 0, count: children.count)
        for position in children.indices.dropFirst() {
            let before = children[position - 1], after = children[position]
            if let spacing {
                distances[position] = spacing
            } else if nodes[before].kind == .spacer || nodes[after].kind == .spacer {
                distances[position] = 0
            } else if axis == .vertical, spacesAsText(before), spacesAsText(after) {
                distances[position] = 0
            } else {
                distances[position] = options.spacing
            }
        }
        return distances
    }

    /// Leaves whose answer is the same for any cross length at least the one they chose: a
    /// text wraps only below its ideal width and shows every line when its height fits; an
    /// image and a spacer (nothing across its stack) ignore it. Re-proposing them the stack's
    /// thickness changes nothing and would cost a measurement per text.
    func keepsItsSize(_ node: Int) -> Bool {
        switch nodes[node].kind {
        case .text, .template, .image, .spacer: return true
        default: return false
        }
    }

    /// Whether a node keeps a text's spacing preferences: a text or template, or a modifier that
    /// passes its base's on (overlay, background, fixedSize, scaleGroup; `hidden` is a property and
    /// keeps the node's kind, docs 1.3). A frame or padding resets them
    /// (OpenSwiftUI `FrameLayout.swift` `spacing(in:child:)`; padding: docs 1.3 *choice*).
    /// *Simplification*: a stack of texts is spaced as a view, not as the union of its texts.
    func spacesAsText(_ node: Int) -> Bool {
        var current = node
        // Walks down single-child modifiers only: bounded by the depth limit.
        while true {
            switch nodes[current].kind {
            case .text, .template: return true
            case .overlay, .background, .fixedSize, .scaleGroup:
                guard let base = prepared.children(current).first else { return false }
                current = base
            default: return false
            }
        }
    }

    /// A child's `layoutPriority` as its stack reads it: −∞ for a spacer whatever is set
    /// (OpenSwiftUI `Spacer.swift`), else its own, else its base's through single-child
    /// modifiers (OpenSwiftUI `FixedSizeLayout.swift`: `layoutPriority(child:)`), else 0.
    func layoutPriority(_ node: Int) -> Double {
        var current = node
        while true {
            if nodes[current].kind == .spacer { return -.infinity }
            if let priority = nodes[current].properties.layoutPriority { return priority }
            switch nodes[current].kind {
            case .frame, .padding, .fixedSize, .overlay, .background, .scaleGroup:
                guard let base = prepared.children(current).first else { return 0 }
                current = base
            default: return 0
            }
        }
    }

    /// The stack's thickness: the union of its children's ranges around the alignment guide
    /// (OpenSwiftUI `placeChildren1`). For top/center/bottom that is the thickest child; with a
    /// text baseline it can be more (docs/swiftui-layout.md 1.6 E5).
    func crossExtent(
        _ node: Int, _ children: [Int], _ sizes: [LayoutSize], _ proposals: [ProposedSize], axis cross: LayoutAxis
    ) throws(LayoutError) -> Double {
        let alignment = nodes[node].properties.alignment ?? .center
        guard cross == .vertical, alignment.vertical.isBaseline else {
            return sizes.reduce(0) { max($0, $1[cross]) }
        }
        var low = 0.0, high = 0.0
        for (position, child) in children.enumerated() {
            let guide = try guideValue(child, sizes[position], proposals[position], alignment.vertical)
            low = min(low, -guide)
            high = max(high, sizes[position].height - guide)
        }
        return high - low
    }

    /// Children placed along the axis in document order (right to left in an hstack laid out
    /// so), aligned across it. A nil proposal across the axis becomes the stack's thickness
    /// (OpenSwiftUI `proposalWhenPlacing`): rows of `frame(maxWidth: .infinity)` in a vstack
    /// sized ideally are all as wide as the widest (docs/swiftui-layout.md 1.6 E7).
    func stackPlacements(_ node: Int, _ plan: StackPlan) throws(LayoutError) -> [ChildPlacement] {
        let axis = plan.axis, cross = axis.other
        let alignment = nodes[node].properties.alignment ?? .center
        let rightToLeft = prepared.rightToLeft[node]
        var proposals = plan.proposals, sizes = plan.sizes
        for position in proposals.indices where proposals[position][cross] == nil && !keepsItsSize(plan.children[position]) {
            proposals[position][cross] = plan.size[cross]
            sizes[position] = try size(plan.children[position], proposals[position])
        }
        var across = [Double](filled: 0, count: sizes.count)
        if cross == .vertical, alignment.vertical.isBaseline {
            var guides = [Double](filled: 0, count: sizes.count)
            for position in sizes.indices {
                guides[position] = try guideValue(plan.children[position], sizes[position], proposals[position], alignment.vertical)
            }
            let low = guides.reduce(0.0) { min($0, -$1) }
            for position in sizes.indices { across[position] = finiteOffset(-guides[position] - low) }
        } else {
            let fraction = alignment.fraction(cross, rightToLeft: rightToLeft)
            for position in sizes.indices {
                across[position] = finiteOffset(part(of: plan.size[cross], fraction) - part(of: sizes[position][cross], fraction))
            }
        }
        var placements: [ChildPlacement] = []
        placements.reserveCapacity(sizes.count)
        var cursor = 0.0
        for (position, child) in plan.children.enumerated() {
            cursor += plan.distances[position]
            var along = cursor
            cursor += sizes[position][axis]
            if axis == .horizontal, rightToLeft { along = finiteOffset(plan.size.width - cursor) }
            placements.append(
                axis == .horizontal
                    ? ChildPlacement(child: child, dx: along, dy: across[position], proposal: proposals[position])
                    : ChildPlacement(child: child, dx: across[position], dy: along, proposal: proposals[position]))
        }
        return placements
    }
}
