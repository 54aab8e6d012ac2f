extension LayoutContext {
    /// Gives `node` its frame at (x, y) for `proposal` and places its children inside it, as a
    /// SwiftUI parent places a child after asking its size. Recursion follows the tree, whose
    /// depth ``PreparedLayout`` has bounded by ``LayoutLimits/maxDepth``.
    func place(_ node: Int, x: Double, y: Double, _ proposal: ProposedSize) throws(LayoutError) {
        let size = try size(node, proposal)
        frames[node] = LayoutRect(x: x, y: y, width: size.width, height: size.height)
        placedEpoch[node] = epoch
        placedProposal[node] = proposal
        switch nodes[node].kind {
        case .text:
            let text = try measureText(node, proposal)
            outcomes[node] = TextOutcome(scale: text.scale, lineCount: text.measured.lineCount, truncated: text.measured.truncated)
            fits[node] = Self.fits(text.measured, proposal)
        case .fitting:
            fittedLength[node] = try fittedLength(node, proposal)
        case .uniformFit:
            // Also leaves the choice points inside the items at the decision while they are placed.
            chosen[node] = try uniformChoice(node, proposal)
        case .choice:
            chosen[node] = forcedChoice(node) ?? 0
        case .firstFit:
            chosen[node] = try firstFitChoice(node, proposal)
        case .template:
            let template = try templateMeasure(node, proposal)
            outcomes[node] = template.outcome
            fits[node] = template.fits
        case .scaleGroup:
            currentScale[node] = try groupScale(node, proposal)
        case .grid:
            // A gridRow is framed by its grid (the row's width and height); its cells are the
            // grid's placements.
            try frameGridRows(node, try gridPlan(node, proposal), x: x, y: y)
        default:
            break
        }
        for placement in try childPlacements(node, proposal, size) {
            try place(placement.child, x: x + placement.dx, y: y + placement.dy, placement.proposal)
        }
    }

    /// Where `node`, laid out at `proposal` (its size `size`, when known), puts each child it
    /// shows and with what proposal: one description for placing and for baselines.
    func childPlacements(_ node: Int, _ proposal: ProposedSize, _ known: LayoutSize? = nil) throws(LayoutError) -> [ChildPlacement] {
        let children = prepared.children(node)
        let rightToLeft = prepared.rightToLeft[node]
        switch nodes[node].kind {
        case .text, .spacer, .image:
            return []
        case .hstack, .vstack, .threshold, .fitting, .uniformFit:
            return try stackPlacements(node, try stackPlan(node, proposal))
        case .zstack:
            var size = LayoutSize.zero
            if let known { size = known } else { size = try self.size(node, proposal) }
            return try zstackPlacements(node, proposal, size)
        case .overlay, .background:
            // The base sets the size; the others are offered exactly that (SwiftUI's `overlay`),
            // their guides on the base's (an overlay aligns to its base's text baseline). A
            // background is the same geometry drawn behind (docs/swiftui-layout.md 4.4).
            guard let base = children.first else { return [] }
            let baseSize = try size(base, proposal)
            let anchor = try alignmentAnchor(base, baseSize, proposal, nodes[node].properties.alignment ?? .center, rightToLeft: rightToLeft)
            let layers = try aligned(children.dropFirst(), in: baseSize, anchor: anchor, nodes[node].properties.alignment ?? .center, rightToLeft)
            return [ChildPlacement(child: base, dx: 0, dy: 0, proposal: proposal)] + layers
        case .frame:
            guard let child = children.first else { return [] }
            return [try framePlacement(node, child, proposal, rightToLeft: rightToLeft)]
        case .padding:
            guard let child = children.first else { return [] }
            let insets = self.insets(nodes[node].properties)
            // Right to left, `leading` is the right edge (docs/swiftui-layout.md 1.5).
            return [
                ChildPlacement(
                    child: child, dx: rightToLeft ? insets.trailing : insets.leading, dy: insets.top,
                    proposal: inset(proposal, insets))
            ]
        case .fixedSize:
            guard let child = children.first else { return [] }
            return [ChildPlacement(child: child, dx: 0, dy: 0, proposal: fixedProposal(nodes[node].properties, proposal))]
        case .firstFit:
            return [ChildPlacement(child: candidate(of: node, try firstFitChoice(node, proposal)), dx: 0, dy: 0, proposal: proposal)]
        case .choice:
            return [ChildPlacement(child: candidate(of: node, forcedChoice(node) ?? 0), dx: 0, dy: 0, proposal: proposal)]
        case .scroll:
            guard let child = children.first else { return [] }
            return [ChildPlacement(child: child, dx: 0, dy: 0, proposal: scrollProposal(node, proposal))]
        case .template:
            return try templatePlacements(node, proposal, known, rightToLeft: rightToLeft)
        case .scaleGroup:
            guard let child = children.first else { return [] }
            return [ChildPlacement(child: child, dx: 0, dy: 0, proposal: proposal)]
        case .grid:
            return try gridPlacements(node, try gridPlan(node, proposal))
        case .flow:
            return try flowPlacements(node, try flowPlan(node, proposal))
        case .gridRow, .forEach:
            // A gridRow's cells are placed by its grid; a forEach is gone once prepared.
            return []
        }
    }

    /// A frame's child: offered what the frame's layout gives it, aligned in the frame.
    private func framePlacement(
        _ node: Int, _ child: Int, _ proposal: ProposedSize, rightToLeft: Bool
    ) throws(LayoutError) -> ChildPlacement {
        let layout = try frameLayout(node, proposal)
        let offer = framePlacementProposal(node, proposal, layout.size)
        let childSize = try self.size(child, offer)
        let alignment = nodes[node].properties.alignment ?? .center
        // The frame's own guide is its implicit one: a baseline aligns to its bottom.
        let anchor = (
            x: part(of: layout.size.width, alignment.fraction(.horizontal, rightToLeft: rightToLeft)),
            y: part(of: layout.size.height, alignment.fraction(.vertical, rightToLeft: rightToLeft)))
        return ChildPlacement(
            child: child,
            dx: try alignedOffset(child, childSize, offer, anchor: anchor.x, alignment, axis: .horizontal, rightToLeft: rightToLeft),
            dy: try alignedOffset(child, childSize, offer, anchor: anchor.y, alignment, axis: .vertical, rightToLeft: rightToLeft),
            proposal: offer)
    }

    /// A template's actual value over the reserved strings, aligned as on a hidden text's
    /// overlay (a baseline alignment on the reserved strings' baselines).
    private func templatePlacements(
        _ node: Int, _ proposal: ProposedSize, _ known: LayoutSize?, rightToLeft: Bool
    ) throws(LayoutError) -> [ChildPlacement] {
        let children = prepared.children(node)
        var size = LayoutSize.zero
        if let known { size = known } else { size = try self.size(node, proposal) }
        let alignment = nodes[node].properties.alignment ?? .center
        var anchor = (
            x: part(of: size.width, alignment.fraction(.horizontal, rightToLeft: rightToLeft)),
            y: part(of: size.height, alignment.fraction(.vertical, rightToLeft: rightToLeft)))
        if alignment.vertical.isBaseline, let reserved = try templateBaselines(node, proposal) {
            anchor.y = alignment.vertical == .firstTextBaseline ? reserved.first : reserved.last
        }
        return try aligned(children, in: size, anchor: anchor, alignment, rightToLeft)
    }

    /// A base's guide values (x, y) for an alignment: what an overlay's layers align to.
    func alignmentAnchor(
        _ base: Int, _ size: LayoutSize, _ proposal: ProposedSize, _ alignment: LayoutAlignment, rightToLeft: Bool
    ) throws(LayoutError) -> (x: Double, y: Double) {
        (
            x: part(of: size.width, alignment.fraction(.horizontal, rightToLeft: rightToLeft)),
            y: try guideValue(base, size, proposal, alignment.vertical)
        )
    }

    /// Children offered exactly `size` and their guides put on `anchor`: an overlay's layers,
    /// a template's actual value.
    func aligned(
        _ children: ArraySlice<Int>, in size: LayoutSize, anchor: (x: Double, y: Double), _ alignment: LayoutAlignment,
        _ rightToLeft: Bool
    ) throws(LayoutError) -> [ChildPlacement] {
        let offer = ProposedSize(width: size.width, height: size.height)
        var placements: [ChildPlacement] = []
        for child in children {
            let childSize = try self.size(child, offer)
            placements.append(
                ChildPlacement(
                    child: child,
                    dx: try alignedOffset(child, childSize, offer, anchor: anchor.x, alignment, axis: .horizontal, rightToLeft: rightToLeft),
                    dy: try alignedOffset(child, childSize, offer, anchor: anchor.y, alignment, axis: .vertical, rightToLeft: rightToLeft),
                    proposal: offer))
        }
        return placements
    }

    /// What a frame proposes its child when placing it: the frame's final size, except on an
    /// axis where it had no proposal and no ideal and ended strictly between its minimum and
    /// maximum, where nil (OpenSwiftUI `FrameLayout.swift` `childPlacementProposal`;
    /// docs/swiftui-layout.md 4.1, F1). A fixed length is its final size.
    func framePlacementProposal(_ node: Int, _ proposal: ProposedSize, _ size: LayoutSize) -> ProposedSize {
        let axes: [(fixed: Double?, low: Double?, ideal: Double?, high: Double?)] = [
            (nodes[node].properties.width, nodes[node].properties.minWidth, nodes[node].properties.idealWidth, nodes[node].properties.maxWidth),
            (nodes[node].properties.height, nodes[node].properties.minHeight, nodes[node].properties.idealHeight, nodes[node].properties.maxHeight),
        ]
        var offer = ProposedSize(width: size.width, height: size.height)
        for (axis, bounds) in zip(LayoutAxis.allCases, axes) where bounds.fixed == nil {
            let length = size[axis]
            if proposal[axis] == nil, bounds.ideal == nil, length > (bounds.low ?? -.infinity), length < (bounds.high ?? .infinity) {
                offer[axis] = nil
            }
        }
        return offer
    }
}
