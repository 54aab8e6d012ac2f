import FitLayout
import FitText

extension TextEngineMeasurer {
    /// The request that draws a laid-out text node again as the layout shows it: its text,
    /// inherited font, scale factor (a minimum scale or a scale group at work), wrapped at its
    /// frame's width, and as many lines as the layout kept where it truncated. nil for a node
    /// that is not a text or is not drawn (not shown, or `hidden`).
    ///
    /// Why the frame's width, not the proposal (which the result does not carry): a text's
    /// frame is the size measured under its proposal, and greedy wrapping (and ellipsizing) at
    /// that width gives the same lines, since every line fitted within it and no longer one
    /// fitted the wider proposal — but for a proposal narrower than the widest cluster
    /// (``narrowed(_:to:)``). A picture checks the lines against the node's outcome.
    public func redrawRequest(
        node index: Int, of prepared: PreparedLayout, in result: LayoutResult, sizeCategory: SizeCategory
    ) throws(LayoutError) -> MeasureRequest? {
        guard result.nodes.indices.contains(index) else { return nil }
        let node = result.nodes[index]
        guard node.visible, !node.hidden, let outcome = node.text,
            var text = prepared.layoutText(index, sizeCategory: sizeCategory)
        else { return nil }
        // The height may have cut the lines below the line limit (LayoutContext.measureLimited).
        if outcome.truncated { text.lineLimit = outcome.lineCount }
        let atFrame = try request(text, proposedWidth: node.frame.width, scale: outcome.scale)
        do throws(FitTextError) {
            return try narrowed(atFrame, to: outcome.lineCount)
        } catch {
            throw .measurementFailed(node: nil, reason: error.description)
        }
    }

    /// The request with the width its text was proposed, where the frame's width is not it: a
    /// proposal narrower than the text's widest cluster (0 px, say) breaks after every cluster,
    /// and the frame — as wide as the widest — holds two narrow ones a line, so fewer lines
    /// than the layout's. Lines only grow as the width shrinks, so the widest width that gives
    /// the layout's line count is found by bisection (24 steps: 1/16M of the frame); only such
    /// texts pay for it. Unchanged when the frame's width already gives that count.
    func narrowed(_ request: MeasureRequest, to lineCount: Int) throws(FitTextError) -> MeasureRequest {
        guard let width = request.maxWidth, try engine.measure(request).lineCount < lineCount else { return request }
        var probe = request
        func lines(_ w: Double) throws(FitTextError) -> Int {
            probe.maxWidth = w
            return try engine.measure(probe).lineCount
        }
        var low = 0.0, high = width  // lines(low) ≥ lineCount > lines(high)
        guard try lines(low) >= lineCount else { return request }
        for _ in 0..<24 {
            let middle = (low + high) / 2
            if try lines(middle) >= lineCount { low = middle } else { high = middle }
        }
        probe.maxWidth = low
        return probe
    }
}

extension TextEngineMeasurer {
    /// A layout as Layout answers it, the daemon's and FitClient's in-process alike: laid out,
    /// with widget sizes when the options ask for them, and the breakpoints' text scale (so that
    /// a flip's width is given in sp too).
    public func layout(_ prepared: PreparedLayout, in proposal: ProposedSize, options: LayoutOptions) throws(LayoutError) -> LayoutResult {
        var result = try prepared.layout(in: proposal, options: options, measurer: self)
        if options.widgetSizes { try addLabelSizes(to: &result, of: prepared, sizeCategory: options.sizeCategory) }
        result.breakpoints?.textScale = textScale
        return result
    }

    /// Every shown text's size request as a GtkLabel showing it at its frame's width reports
    /// it (``NodeLayout/labelSize``; FitText's LabelSize): the label wraps as the layout's text
    /// does (word-char) or ellipsizes as its truncation says, at the scale the layout gave it.
    public func addLabelSizes(to result: inout LayoutResult, of prepared: PreparedLayout, sizeCategory: SizeCategory) throws(LayoutError) {
        guard unit == .px else { return }
        for index in result.nodes.indices {
            guard let request = try redrawRequest(node: index, of: prepared, in: result, sizeCategory: sizeCategory) else { continue }
            do throws(FitTextError) {
                result.nodes[index].labelSize = try engine.labelSize(request)
            } catch {
                throw .measurementFailed(node: NodeLocation(index: index, id: result.nodes[index].id), reason: error.description)
            }
        }
    }
}
