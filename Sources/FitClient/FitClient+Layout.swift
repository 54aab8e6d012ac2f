import FitBus
import FitLayout
import FitLayoutText
import FitProtocol

extension FitClient {
    /// Lays out a document at a proposed size: a frame for every node and every decision taken.
    ///
    /// - Parameters:
    ///   - options: unit, size category, UI font, default spacing.
    ///   - userSizeCategory: let the daemon use the user's size category (derived from the
    ///     text scale) instead of `options.sizeCategory`. In-process there is no user state,
    ///     and `options.sizeCategory` is used.
    /// - Throws: a bad document as `.rejected(name: "org.fitd.Fit1.Error.InvalidDocument", …)`
    ///   naming the node, in both modes, so callers handle one error whatever the backend.
    public func layout(
        document: LayoutDocument, proposal: ProposedSize, options: LayoutOptions = .init(), userSizeCategory: Bool = false
    ) async throws(FitClientError) -> LayoutResult {
        switch backend {
        case .embedded(let engine, _):
            do throws(LayoutError) {
                let measurer = try TextEngineMeasurer(engine: engine, options: options)
                return try document.layout(in: proposal, options: options, measurer: measurer)
            } catch {
                throw FitClientError(DBusError(error))
            }
        case .daemon(let link):
            let nodes: DBusValue
            do throws(LayoutError) {
                nodes = try LayoutCodec.encode(document)
            } catch {
                throw FitClientError(DBusError(error))
            }
            let reply = try await link.call(
                "Layout",
                [nodes, LayoutCodec.encode(proposal), LayoutCodec.options(of: options, sendSizeCategory: !userSizeCategory)])
            do throws(DBusError) {
                return try LayoutCodec.result(reply, proposal: proposal).0
            } catch {
                throw .protocolMismatch(error.message)
            }
        }
    }
}
