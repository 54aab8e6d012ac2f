/// A node's first and last text baseline, from its top.
struct Baselines: Hashable {
    var first: Double
    var last: Double

    func shifted(by offset: Double) -> Baselines { Baselines(first: first + offset, last: last + offset) }

    /// A container's: the topmost first baseline (OpenSwiftUI `FirstTextBaseline`
    /// `_combineExplicit` = min) and the bottom-most last one (*choice*, as Apple documents
    /// `lastTextBaseline`; docs/swiftui-layout.md 1.4, 7.4).
    func merged(with other: Baselines?) -> Baselines {
        guard let other else { return self }
        return Baselines(first: min(first, other.first), last: max(last, other.last))
    }
}

extension LayoutContext {
    /// The value of a child's vertical alignment guide: its text baseline when it has text
    /// (its explicit value), else the implicit value for its height (top 0, center half,
    /// bottom and baselines the height: Apple, `VerticalAlignment.lastTextBaseline`).
    func guideValue(
        _ node: Int, _ size: LayoutSize, _ proposal: ProposedSize, _ alignment: VerticalAlignment
    ) throws(LayoutError) -> Double {
        switch alignment {
        case .top: return 0
        case .center: return part(of: size.height, 0.5)
        case .bottom: return size.height
        case .firstTextBaseline: return try baselines(node, proposal)?.first ?? size.height
        case .lastTextBaseline: return try baselines(node, proposal)?.last ?? size.height
        }
    }

    /// The offset that puts a child's guide on its container's guide, on one axis; `anchor`
    /// is the container's guide value (its implicit one for a frame, its base's for an overlay).
    func alignedOffset(
        _ child: Int, _ childSize: LayoutSize, _ childProposal: ProposedSize, anchor: Double,
        _ alignment: LayoutAlignment, axis: LayoutAxis, rightToLeft: Bool
    ) throws(LayoutError) -> Double {
        if axis == .vertical, alignment.vertical.isBaseline {
            return finiteOffset(anchor - (try guideValue(child, childSize, childProposal, alignment.vertical)))
        }
        return finiteOffset(anchor - part(of: childSize[axis], alignment.fraction(axis, rightToLeft: rightToLeft)))
    }

    /// A node's text baselines laid out at `proposal`, nil when it shows no text: a text's
    /// own; a template's reserved strings'; a container's merged from its children's where it
    /// places them (an overlay's, a background's and a firstFit's are their base's and chosen candidate's).
    func baselines(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Baselines? {
        let key = MemoKey(node, proposal, scale: scale(for: node), variant: variant(for: node))
        if let known = baselineMemo.value(for: key) { return known }
        var answer: Baselines? = nil
        switch nodes[node].kind {
        case .text:
            let measured = try measureText(node, proposal).measured
            answer = Baselines(first: measured.baseline, last: measured.lastBaseline)
        case .template:
            answer = try templateBaselines(node, proposal)
        case .spacer, .image:
            answer = nil
        default:
            var placements = try childPlacements(node, proposal)
            if nodes[node].kind == .overlay || nodes[node].kind == .background { placements = Array(placements.prefix(1)) }
            for placement in placements {
                guard let child = try baselines(placement.child, placement.proposal)?.shifted(by: placement.dy) else { continue }
                answer = child.merged(with: answer)
            }
        }
        baselineMemo.set(answer, for: key)
        return answer
    }

    /// A template is `Text(widest).hidden()` with the value over it: its baselines are its
    /// reserved strings' (the first line's top-most, the last line's bottom-most).
    func templateBaselines(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> Baselines? {
        var answer: Baselines? = nil
        for template in nodes[node].properties.templates ?? [] {
            // Under the proposed height as its size is (templateMeasure): the lines that fit.
            let measured = try measureLimited(node, layoutText(node, template), proposal, scale: scale(for: node))
            answer = Baselines(first: measured.baseline, last: measured.lastBaseline).merged(with: answer)
        }
        return answer
    }

    /// The baselines the result reports, from the placed frames: a text's at the proposal it
    /// was placed with, a container's merged from its shown children (an overlay's or a background's from its
    /// base only). Post-order over the shown tree, whose depth the document limits bound.
    func reportBaselines(_ node: Int, into reported: inout [Baselines?]) throws(LayoutError) {
        switch nodes[node].kind {
        case .text:
            // Straight from the (memoised) measurement: no baseline memo entry per text.
            let measured = try measureText(node, placedProposal[node]).measured
            reported[node] = Baselines(first: measured.baseline, last: measured.lastBaseline)
            return
        case .template:
            reported[node] = try templateBaselines(node, placedProposal[node])
        default: break
        }
        var merged: Baselines? = nil
        for (rank, child) in prepared.children(node).enumerated() where placedEpoch[child] == 1 {
            try reportBaselines(child, into: &reported)
            if nodes[node].kind == .overlay || nodes[node].kind == .background, rank > 0 { continue }
            // Under an infinite proposal a child can sit at y = ∞ (after a spacer proposed ∞):
            // ∞ − ∞ is no offset, and such a child reports no baseline to its container.
            let offset = frames[child].y - frames[node].y
            guard let value = reported[child], offset.isFinite else { continue }
            merged = value.shifted(by: offset).merged(with: merged)
        }
        if nodes[node].kind != .template { reported[node] = merged }
    }

    /// The zstack's size: the widest and tallest child, or with a baseline alignment the union
    /// of the children's ranges around their baselines (as a stack's cross axis, 1.1 step 4).
    func zstackSize(_ node: Int, _ proposal: ProposedSize) throws(LayoutError) -> LayoutSize {
        let alignment = nodes[node].properties.alignment ?? .center
        var answer = LayoutSize.zero
        var low = 0.0, high = 0.0
        for child in prepared.children(node) {
            let size = try size(child, proposal)
            answer.width = max(answer.width, size.width)
            answer.height = max(answer.height, size.height)
            if alignment.vertical.isBaseline {
                let guide = try guideValue(child, size, proposal, alignment.vertical)
                low = min(low, -guide)
                high = max(high, size.height - guide)
            }
        }
        if alignment.vertical.isBaseline { answer.height = high - low }
        return answer
    }

    /// Where a zstack puts its children: each aligned in the stack's frame; with a baseline
    /// alignment, vertically as an hstack does (1.4).
    func zstackPlacements(_ node: Int, _ proposal: ProposedSize, _ size: LayoutSize) throws(LayoutError) -> [ChildPlacement] {
        let alignment = nodes[node].properties.alignment ?? .center
        let rightToLeft = prepared.rightToLeft[node]
        var placements: [ChildPlacement] = []
        var guides: [Double] = []
        for child in prepared.children(node) {
            let childSize = try self.size(child, proposal)
            let fx = alignment.fraction(.horizontal, rightToLeft: rightToLeft)
            let fy = alignment.fraction(.vertical, rightToLeft: rightToLeft)
            let dx = finiteOffset(part(of: size.width, fx) - part(of: childSize.width, fx))
            var dy = finiteOffset(part(of: size.height, fy) - part(of: childSize.height, fy))
            if alignment.vertical.isBaseline {
                guides.append(try guideValue(child, childSize, proposal, alignment.vertical))
                dy = 0
            }
            placements.append(ChildPlacement(child: child, dx: dx, dy: dy, proposal: proposal))
        }
        if alignment.vertical.isBaseline {
            let low = guides.reduce(0.0) { min($0, -$1) }
            for index in placements.indices { placements[index].dy = finiteOffset(-guides[index] - low) }
        }
        return placements
    }
}
