/// How a stack divides its space, kept for placement.
struct StackPlan {
    var children: [Int]
    var axis: LayoutAxis
    var spacing: Double
    var proposals: [ProposedSize]
    var sizes: [LayoutSize]
    var size: LayoutSize
}

extension LayoutContext {
    /// The children a stack-like node arranges, its axis and spacing, for a proposal:
    /// hstack/vstack as given, a threshold in its arrangement, a uniformFit's items as their
    /// chosen candidate, a fitting stack at the length of its widest child.
    func stackPlan(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> StackPlan {
        let properties = nodes[node].properties
        let spacing = properties.spacing ?? options.spacing
        switch nodes[node].kind {
        case .hstack:
            return try distribute(Array(prepared.children(node)), axis: .horizontal, spacing: spacing, proposal)
        case .threshold:
            return try distribute(arranged[node], axis: arrangement(node), spacing: spacing, proposal)
        case .uniformFit:
            // Decide, which leaves the choice points inside the items at the decision.
            _ = try uniformChoice(node, proposal)
            return try uniformPlan(node, proposal)
        case .fitting:
            let axis = properties.axis ?? .vertical
            let length = try fittedLength(node, proposal)
            var fitted = proposal
            fitted[axis.other] = length
            return try distribute(Array(prepared.children(node)), axis: axis, spacing: spacing, fitted)
        default:
            return try distribute(Array(prepared.children(node)), axis: .vertical, spacing: spacing, proposal)
        }
    }

    /// SwiftUI's stack algorithm (WWDC 2019 "Building Custom Views with SwiftUI"; objc.io,
    /// "How an HStack Lays out Its Children", 2020; swiftuifieldguide.com/layout/hstack):
    /// take the spacing off the proposed length; order the children by flexibility (their
    /// length at an infinite proposal minus their length at zero), least flexible first; offer
    /// each in turn an equal share of what is left and subtract what it takes. Across the axis
    /// every child gets the stack's proposal and the stack is as thick as its thickest child.
    /// With no proposal along the axis every child is asked for its ideal length.
    /// Not modelled: layout priorities and per-pair default spacing.
    func distribute(_ children: [Int], axis: LayoutAxis, spacing: Double, _ proposal: ProposedSize) throws(LayoutError) -> StackPlan {
        let count = children.count
        var plan = StackPlan(
            children: children, axis: axis, spacing: spacing,
            proposals: [ProposedSize](filled: .unspecified, count: count),
            sizes: [LayoutSize](filled: .zero, count: count), size: .zero)
        guard count > 0 else { return plan }
        let cross = proposal[axis.other]
        if let main = proposal[axis] {
            var flexibility = [Double](filled: 0, count: count)
            for (position, child) in children.enumerated() {
                let least = try size(child, ProposedSize(main: 0, cross: cross, axis: axis))[axis]
                let most = try size(child, ProposedSize(main: .infinity, cross: cross, axis: axis))[axis]
                let flex = most - least
                flexibility[position] = flex.isNaN ? .infinity : flex
            }
            let order = (0..<count).sorted {
                flexibility[$0] < flexibility[$1] || (flexibility[$0] == flexibility[$1] && $0 < $1)
            }
            var remaining = main - spacing * Double(count - 1)
            for (taken, position) in order.enumerated() {
                let share = main.isInfinite ? .infinity : max(0, remaining / Double(count - taken))
                let offer = ProposedSize(main: share, cross: cross, axis: axis)
                plan.proposals[position] = offer
                plan.sizes[position] = try size(children[position], offer)
                remaining -= plan.sizes[position][axis]
            }
        } else {
            for (position, child) in children.enumerated() {
                let offer = ProposedSize(main: nil, cross: cross, axis: axis)
                plan.proposals[position] = offer
                plan.sizes[position] = try size(child, offer)
            }
        }
        var total = LayoutSize.zero
        total[axis] = plan.sizes.reduce(0) { $0 + $1[axis] } + spacing * Double(count - 1)
        total[axis.other] = plan.sizes.reduce(0) { max($0, $1[axis.other]) }
        plan.size = total
        return plan
    }

    /// Children placed along the axis in document order, aligned across it.
    func placeStack(_ node: Int, _ plan: StackPlan, x: Double, y: Double) throws(LayoutError) {
        let alignment = nodes[node].properties.alignment ?? .center
        let cross = plan.axis.other
        var cursor = 0.0
        for (position, child) in plan.children.enumerated() {
            let childSize = plan.sizes[position]
            let across = alignment.offset(child: childSize[cross], container: plan.size[cross], axis: cross)
            if plan.axis == .horizontal {
                try place(child, x: x + cursor, y: y + across, plan.proposals[position])
            } else {
                try place(child, x: x + across, y: y + cursor, plan.proposals[position])
            }
            cursor += childSize[plan.axis] + plan.spacing
        }
    }
}
