import FitBus
import FitLayout
import FitLayoutText
import FitProtocol
import FitThreads

extension FitClient {
    /// Lays out a document at a proposed size: a frame for every node and every decision taken.
    ///
    /// - Parameters:
    ///   - options: unit, size category, UI font, default spacing, breakpoints (whose `step`
    ///     must be nil or 1, in both modes: the Layout call has no step).
    ///   - userSizeCategory: lay out at the user's size category (derived from their text
    ///     scale), as `measure()` and `fitctl fit` do — the default, so that an app follows
    ///     the user's text size without asking for it. `false` uses `options.sizeCategory`,
    ///     for previews at a chosen category.
    /// - Throws: a bad document as `.rejected(name: "org.fitd.Fit1.Error.InvalidDocument", …)`
    ///   naming the node, in both modes, so callers handle one error whatever the backend.
    public func layout(
        document: LayoutDocument, proposal: ProposedSize, options: LayoutOptions = .init(), userSizeCategory: Bool = true
    ) async throws(FitClientError) -> LayoutResult {
        switch backend {
        case .embedded(let engine, let user):
            // As the daemon lays out (LayoutService): the user's category unless the caller
            // sends one, the user's UI font unless the options name one, the user's scale.
            // The Layout call's breakpoints have no step: refused here too, so both backends agree.
            try FitDBusClient.checkBreakpointStep(options)
            var options = options
            if userSizeCategory { options.sizeCategory = user.category }
            if options.uiFont == nil { options.uiFont = user.uiFonts.font(for: options.toolkit).pangoDescription }
            do throws(LayoutError) {
                let prepared = try PreparedLayout(document)
                let measurer = try TextEngineMeasurer(engine: engine, options: options, textScale: user.textScale, gtkRendering: user.gtkRendering)
                let workers = ParallelChunks.availableCores
                if let probes = measurer.premeasurePlan(prepared, sizeCategory: options.sizeCategory, workers: workers) {
                    await measurer.premeasure(probes, workers: workers)
                }
                let result = try measurer.layout(prepared, in: proposal, options: options)
                return result
            } catch {
                throw FitClientError(DBusError(error))
            }
        case .daemon(let daemon):
            return try await daemon.layout(document: document, proposal: proposal, options: options, userSizeCategory: userSizeCategory)
        }
    }
}
