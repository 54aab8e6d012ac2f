import FitBus
import FitLayout
import FitProtocol

extension FitDBusClient {
    /// Lays out a document at a proposed size: a frame for every node and every decision taken.
    ///
    /// - Parameters:
    ///   - document: the nodes; parents named by id are sent as indices.
    ///   - proposal: the size offered; nil on an axis asks for the ideal size.
    ///   - options: unit, size category, UI font, default spacing, breakpoints (whose `step`
    ///     must be nil or 1: the Layout call has no step).
    ///   - userSizeCategory: lay out at the user's size category (derived from their text
    ///     scale) — the default, so that an app follows the user's text size without asking
    ///     for it. `false` sends `options.sizeCategory`, for previews at a chosen category.
    /// - Throws: a bad document as `.rejected(name: "org.fitd.Fit1.Error.InvalidDocument", …)`
    ///   naming the node; a document whose parents name no node is refused before the call.
    public func layout(
        document: LayoutDocument, proposal: ProposedSize, options: LayoutOptions = .init(), userSizeCategory: Bool = true
    ) async throws(FitClientError) -> LayoutResult {
        try Self.checkBreakpointStep(options)
        let call: LayoutCodec.Call
        do throws(LayoutError) {
            call = try LayoutCodec.Call(document: document, proposal: proposal, options: options, sendSizeCategory: !userSizeCategory)
        } catch {
            throw FitClientError(DBusError(error))
        }
        return try await link.call(
            "Layout", signature: LayoutCodec.callSignature,
            write: { (writer) throws(DBusError) in try call.write(to: &writer) },
            read: { (reader) throws(DBusError) in try LayoutCodec.readResult(&reader, proposal: proposal).0 })
    }

    /// The Layout call's `breakpoints` option is (min, max) on the 1 px grid: a step cannot be
    /// sent. FitClient refuses it in-process too, so that both backends answer alike.
    package static func checkBreakpointStep(_ options: LayoutOptions) throws(FitClientError) {
        if let step = options.breakpoints?.step, step != 1 {
            throw FitClientError(DBusError(LayoutError.invalidBreakpoints(
                reason: "BreakpointRange.step \(step): the Layout call's breakpoints are on a 1 px grid (step nil or 1); for another grid lay out in-process with LayoutEngine")))
        }
    }
}
