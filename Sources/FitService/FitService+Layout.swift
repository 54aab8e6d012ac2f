import FitBus
import FitLayout
import FitProtocol

extension FitService {
    /// The layout methods of org.fitd.Fit1 (protocol/org.fitd.Fit1.xml, Layout), appended to
    /// the interface's methods.
    func layoutMethods() throws(DBusError) -> [DBusMethod] {
        [
            try DBusMethod(
                "Layout", in: "\(LayoutCodec.documentSignature)\(LayoutCodec.proposalSignature)a{sv}",
                out: LayoutCodec.resultSignature, inNames: ["nodes", "proposal", "options"],
                outNames: ["size", "frames", "decisions", "truncated", "generation"],
                doc: "Lays out a document of nodes at a proposed size: one frame per node and the decisions taken.",
                // A repeated call is answered from here without decoding it. The reply depends
                // on the arguments and on state (text scale, size category, UI font, fonts)
                // whose every change bumps the generation, the cache's epoch.
                replyCache: layoutReplies
            ) { [self] arguments, _ throws(DBusError) in
                requestsServed.add(1)
                inFlight.add(1, ordering: .relaxed)
                defer { inFlight.subtract(1, ordering: .relaxed) }
                // The user's size category and UI font are the defaults a document's text
                // styles resolve with (options can override both).
                // The generation before the scale (see requestContext).
                let context = requestContext
                let snapshot = scaleBinding.snapshot
                return try await layouts.layout(
                    arguments, textScale: context.textScale, generation: context.generation,
                    defaultCategory: snapshot?.category,
                    uiFonts: context.rules.uiFonts, gtkRendering: context.rules.gtkRendering)
            }
        ]
    }
}
