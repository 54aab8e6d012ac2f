extension LayoutContext {
    /// Gives `node` its frame at (x, y) for `proposal` and places its children inside it, as a
    /// SwiftUI parent places a child after asking its size. Recursion follows the tree, whose
    /// depth ``PreparedLayout`` has bounded by ``LayoutLimits/maxDepth``.
    func place(_ node: Int, x: Double, y: Double, _ proposal: ProposedSize) throws(LayoutError) {
        let size = try size(node, proposal)
        frames[node] = LayoutRect(x: x, y: y, width: size.width, height: size.height)
        placedEpoch[node] = epoch
        let properties = nodes[node].properties
        let children = prepared.children(node)
        switch nodes[node].kind {
        case .text:
            let text = try measureText(node, proposal)
            outcomes[node] = TextOutcome(scale: text.scale, lineCount: text.measured.lineCount, truncated: text.measured.truncated)
            fits[node] = Self.fitsWidth(text.measured, proposal.width.flatMap { $0.isFinite ? $0 : nil })
        case .spacer, .image:
            break
        case .hstack, .vstack, .threshold:
            try placeStack(node, try stackPlan(node, proposal), x: x, y: y)
        case .fitting:
            fittedLength[node] = try fittedLength(node, proposal)
            try placeStack(node, try stackPlan(node, proposal), x: x, y: y)
        case .uniformFit:
            let choice = try uniformChoice(node, proposal)
            chosen[node] = choice
            try placeStack(node, try stackPlan(node, proposal), x: x, y: y)
            // An item is where its chosen candidate is.
            for item in children {
                let candidate = candidate(of: item, choice)
                frames[item] = frames[candidate]
                placedEpoch[item] = epoch
                chosen[item] = min(choice, prepared.childCount[item] - 1)
            }
        case .zstack:
            let alignment = properties.alignment ?? .center
            for child in children {
                let childSize = try self.size(child, proposal)
                try place(
                    child, x: x + alignment.offset(child: childSize.width, container: size.width, axis: .horizontal),
                    y: y + alignment.offset(child: childSize.height, container: size.height, axis: .vertical), proposal)
            }
        case .overlay, .background:
            // The base sets the size; the others are offered exactly that (SwiftUI's `overlay`;
            // a background is the same geometry drawn behind, docs/swiftui-layout.md 4.4).
            try place(children.first!, x: x, y: y, proposal)
            try placeAligned(children.dropFirst(), in: frames[node], alignment: properties.alignment ?? .center)
        case .frame:
            let layout = try frameLayout(node, proposal)
            let child = children.first!
            let childSize = try self.size(child, layout.childProposal)
            let alignment = properties.alignment ?? .center
            try place(
                child, x: x + alignment.offset(child: childSize.width, container: size.width, axis: .horizontal),
                y: y + alignment.offset(child: childSize.height, container: size.height, axis: .vertical), layout.childProposal)
        case .padding:
            let insets = self.insets(properties)
            try place(children.first!, x: x + insets.leading, y: y + insets.top, inset(proposal, insets))
        case .fixedSize:
            try place(children.first!, x: x, y: y, fixedProposal(properties, proposal))
        case .firstFit:
            let choice = try firstFitChoice(node, proposal)
            chosen[node] = choice
            try place(candidate(of: node, choice), x: x, y: y, proposal)
        case .template:
            let template = try templateMeasure(node, proposal)
            outcomes[node] = template.outcome
            fits[node] = template.fits
            try placeAligned(children, in: frames[node], alignment: properties.alignment ?? .center)
        case .scaleGroup:
            currentScale[node] = try groupScale(node, proposal)
            try place(children.first!, x: x, y: y, proposal)
        case .grid:
            try placeGrid(node, try gridPlan(node, proposal), x: x, y: y)
        case .flow:
            try placeFlow(node, try flowPlan(node, proposal), x: x, y: y)
        case .gridRow, .forEach:
            break
        }
    }

    /// Children offered exactly `frame`'s size and aligned in it: an overlay's layers, a
    /// template's actual value.
    func placeAligned(_ children: ArraySlice<Int>, in frame: LayoutRect, alignment: LayoutAlignment) throws(LayoutError) {
        let offer = ProposedSize(width: frame.width, height: frame.height)
        for child in children {
            let childSize = try size(child, offer)
            try place(
                child, x: frame.x + alignment.offset(child: childSize.width, container: frame.width, axis: .horizontal),
                y: frame.y + alignment.offset(child: childSize.height, container: frame.height, axis: .vertical), offer)
        }
    }
}
