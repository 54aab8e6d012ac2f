import FitLayout
import FitText

extension TextEngineMeasurer {
    /// The request that draws a laid-out text node again as the layout shows it: its text,
    /// inherited font, scale factor (a minimum scale or a scale group at work), wrapped at its
    /// frame's width, and as many lines as the layout kept where it truncated. nil for a node
    /// that is not a text or is not drawn (not shown, or `hidden`).
    ///
    /// Why the frame's width, not the proposal: a text's frame is the size measured under its
    /// proposal, and greedy wrapping (and ellipsizing) at that width gives the same lines,
    /// since every line fitted within it and no longer one fitted the wider proposal. A
    /// picture checks this (``MeasureRequest`` measured again against the node's outcome).
    public func redrawRequest(
        node index: Int, of prepared: PreparedLayout, in result: LayoutResult, sizeCategory: ContentSizeCategory
    ) throws(LayoutError) -> MeasureRequest? {
        guard result.nodes.indices.contains(index) else { return nil }
        let node = result.nodes[index]
        guard node.visible, !node.hidden, let outcome = node.text,
            var text = prepared.layoutText(index, sizeCategory: sizeCategory)
        else { return nil }
        // The height may have cut the lines below the line limit (LayoutContext.measureLimited).
        if outcome.truncated { text.lineLimit = outcome.lineCount }
        return try request(text, proposedWidth: node.frame.width, scale: outcome.scale)
    }
}
