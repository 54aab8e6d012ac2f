import FitBus
import FitClient
import FitLayout
import FitProtocol
import FitServiceTestSupport
import FitText
import Foundation
import Testing

/// FitClient's two backends, the daemon and the engine in-process, answer alike: the same
/// results, the same refusals with the same errors, the same cancellation.
@Suite struct BackendAgreementTests {
    /// The Layout call's breakpoints have no step: FitClient refuses one in both modes rather
    /// than drop it on the way to the daemon while honouring it in-process.
    @Test func aBreakpointStepOtherThanOnePixelIsRefusedInBothModes() async throws {
        let document = LayoutDocument(nodes: [LayoutNode(id: "root", kind: .vstack)])
        let proposal = ProposedSize(width: 320, height: nil)
        var stepped = LayoutOptions()
        stepped.breakpoints = BreakpointRange(from: 0, to: 100, step: 0.5)
        var plain = LayoutOptions()
        plain.breakpoints = BreakpointRange(from: 0, to: 100, step: 1)
        func refusal(_ client: FitClient) async -> String? {
            do {
                _ = try await client.layout(document: document, proposal: proposal, options: stepped)
                return nil
            } catch {
                guard case .rejected(let name, let message) = error, message.contains("step") else { return "\(error)" }
                return name
            }
        }
        try await withService { (_, client) async throws in
            #expect(await refusal(client) == FitErrorName.invalidArgument.description)
            #expect(try await client.layout(document: document, proposal: proposal, options: plain).breakpoints != nil)
        }
        let local = try await FitClient.connect(mode: .embedded)
        #expect(await refusal(local) == FitErrorName.invalidArgument.description)
    }

    /// An in-process batch stops when its caller is cancelled, as the daemon's does, rather
    /// than measure every entry for nobody; uncancelled, every entry is measured.
    @Test func anEmbeddedBatchStopsWhenItsCallerIsCancelled() async throws {
        let local = try await FitClient.connect(mode: .embedded)
        let batch = (0..<2_000).map { MeasureRequest(text: "entry \($0) of a cancelled batch", font: "DejaVu Sans 12") }
        let cancelled = await Task { () async -> FitClientError? in
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                _ = try await local.measureBatch(batch)
                return nil
            } catch {
                return error as? FitClientError
            }
        }.value
        #expect(cancelled == .rejected(name: "org.fitd.FitBus.Error.Cancelled", message: "the batch was cancelled"))
        #expect(try await local.measureBatch(batch).count == 2_000)
    }

    /// The daemon and the in-process client apply one set of request rules (UserRequestRules):
    /// a font that starts with a text style's name but is none, or a ui_font without a family,
    /// is refused with the same error, name and message, whichever backend measures.
    @Test func bothBackendsRefuseABadTextStyleOrUIFontWithTheSameError() async throws {
        var badStyle = MeasureRequest(text: "Save", font: "headline xxxLarger")
        badStyle.language = "en"
        var badUIFont = MeasureRequest(text: "Save")
        badUIFont.uiFont = "12"
        func refusal(_ client: FitClient, _ request: MeasureRequest) async -> FitClientError? {
            do {
                _ = try await client.measure(request, userTextScale: false)
                return nil
            } catch {
                return error
            }
        }
        let local = try await FitClient.connect(mode: .embedded)
        try await withService { (_, client) async throws in
            for request in [badStyle, badUIFont] {
                let remote = await refusal(client, request)
                #expect(remote != nil, "\(request.font) / \(request.uiFont ?? "")")
                #expect(await refusal(local, request) == remote)
                if case .rejected(let name, _)? = remote { #expect(name == FitErrorName.invalidFont.rawValue) }
            }
        }
    }

    /// `ui_font`: a request's own UI font, which its empty font and its text styles resolve
    /// against, the same over the bus and in-process; a description without a family is
    /// InvalidFont naming the option on both.
    @Test func aRequestsOwnUIFontResolvesItsEmptyFontAndTextStylesAlikeOnBothPaths() async throws {
        let named = try SharedEngine.engine().measure(MeasureRequest(text: "Save changes", font: "DejaVu Sans 12"))
        var plain = MeasureRequest(text: "Save changes")
        plain.uiFont = "DejaVu Sans 12"
        var styled = plain
        styled.font = "body"
        var broken = plain
        broken.uiFont = "12"
        let local = try await FitClient.connect(mode: .embedded)
        try await withService { (_, client) async throws in
            for fit in [client, local] {
                #expect(try await fit.measure(plain, userTextScale: false).metrics == named)
                // body at the large category is the UI font's own size.
                #expect(try await fit.measure(styled, userTextScale: false).metrics.width == named.width)
                do {
                    _ = try await fit.measure(broken)
                    Issue.record("ui_font \"12\" was accepted")
                } catch {
                    guard case .rejected(let name, let message)? = error as? FitClientError else { Issue.record("\(error)"); continue }
                    #expect(name == FitErrorName.invalidFont.rawValue)
                    #expect(message.contains("ui_font"))
                }
            }
        }
    }
}
