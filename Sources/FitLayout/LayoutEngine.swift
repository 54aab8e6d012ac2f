/// Lays out a prepared document: sizes are negotiated as in SwiftUI's `Layout` protocol (a
/// parent proposes, the child answers, the parent places), then every node gets a frame.
public enum LayoutEngine {
    public static func layout<Measurer: LayoutTextMeasurer>(
        _ prepared: PreparedLayout, proposal: ProposedSize, options: LayoutOptions = .init(), measurer: Measurer
    ) throws(LayoutError) -> LayoutResult {
        for axis in LayoutAxis.allCases {
            if let value = proposal[axis], value.isNaN || value < 0 { throw .invalidProposal(axis: axis, value: value) }
        }
        let context = LayoutContext(prepared: prepared, options: options, measurer: measurer)
        var result = try context.run(proposal)
        if let range = options.breakpoints {
            result.breakpoints = try breakpoints(prepared, range: range, height: proposal.height, options: options, measurer: measurer)
        }
        return result
    }
}

extension PreparedLayout {
    public func layout<Measurer: LayoutTextMeasurer>(
        in proposal: ProposedSize, options: LayoutOptions = .init(), measurer: Measurer
    ) throws(LayoutError) -> LayoutResult {
        try LayoutEngine.layout(self, proposal: proposal, options: options, measurer: measurer)
    }
}

extension LayoutDocument {
    /// Validates, then lays out; keep a ``PreparedLayout`` to lay out one document at many proposals.
    public func layout<Measurer: LayoutTextMeasurer>(
        in proposal: ProposedSize, options: LayoutOptions = .init(), measurer: Measurer
    ) throws(LayoutError) -> LayoutResult {
        try PreparedLayout(self).layout(in: proposal, options: options, measurer: measurer)
    }
}
