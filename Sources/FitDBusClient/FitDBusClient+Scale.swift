import FitBus
import FitLayout
import FitProtocol

/// The text scale through fitd: read it, set or reset the explicit setting, the text styles
/// at a category, and the generation signal.
extension FitDBusClient {
    /// The user's text scale, size category and UI fonts, as the daemon applies them.
    public func textScale() async throws(FitClientError) -> TextScaleInfo {
        let reply = try await link.call("GetAll", [.string(FitNames.interface)], interface: "org.freedesktop.DBus.Properties")
        guard case .dictionary(_, _, let entries)? = reply.first else { throw .protocolMismatch("GetAll returned \(reply.first?.signature ?? "nothing")") }
        var values: [String: DBusValue] = [:]
        for entry in entries { if case .string(let key) = entry.key { values[key] = entry.value.unwrapped } }
        guard case .double(let factor)? = values[TextScaleNames.textScale],
            case .string(let source)? = values[TextScaleNames.textScaleSource],
            case .string(let category)? = values[TextScaleNames.sizeCategory], case .double(let dpi)? = values[TextScaleNames.dpi],
            case .string(let uiFont)? = values[TextScaleNames.uiFont], case .string(let monospace)? = values[TextScaleNames.monospaceFont]
        else { throw .protocolMismatch("the daemon has no text-scale properties (an older fitd?)") }
        var info = TextScaleInfo(factor: factor, source: source, category: category, dpi: dpi, uiFont: uiFont, monospaceFont: monospace)
        // Newer properties: absent from an older fitd.
        if case .string(let fontSource)? = values[TextScaleNames.uiFontSource] { info.uiFontSource = fontSource }
        if case .string(let toolkit)? = values[TextScaleNames.toolkit] { info.toolkit = toolkit }
        if case .string(let settings)? = values[TextScaleNames.toolkitSettings] { info.toolkitSettings = settings }
        return info
    }

    /// Makes `factor` the user's explicit text scale (the daemon persists it). A factor
    /// outside (0, 4] is rejected with org.fitd.Fit1.Error.InvalidArgument.
    public func setTextScale(_ factor: Double) async throws(FitClientError) {
        _ = try await link.call(
            "Set", [.string(FitNames.interface), .string(TextScaleNames.textScale), .variant(.double(factor))],
            interface: "org.freedesktop.DBus.Properties")
    }

    /// Removes the explicit text scale: fontconfig, the desktop or 1.0 decide again.
    public func resetTextScale() async throws(FitClientError) {
        _ = try await link.call(TextScaleNames.resetTextScale, [])
    }

    /// Every text style at `category` (nil: the user's current one, the default), largest first.
    public func textStyles(category: SizeCategory? = nil) async throws(FitClientError) -> [TextStyleRow] {
        try await textStyles(categoryName: category?.name)
    }

    /// ``textStyles(category:)`` by the category's name as the wire spells it.
    package func textStyles(categoryName: String?) async throws(FitClientError) -> [TextStyleRow] {
        let reply = try await link.call(TextScaleNames.getTextStyles, [.string(categoryName ?? "")])
        guard case .array(_, let rows)? = reply.first else { throw .protocolMismatch("GetTextStyles returned \(reply.first?.signature ?? "nothing")") }
        var out: [TextStyleRow] = []
        for row in rows {
            do throws(DBusError) {
                out.append(try TextStyleRow(dbusValue: row))
            } catch {
                throw .protocolMismatch(error.message)
            }
        }
        return out
    }

    /// Generation changes as the daemon announces them (GenerationChanged), from now on: fonts
    /// installed, the text scale or the desktop's settings changed, so measurements are stale.
    /// The stream ends when the connection closes; stop iterating to unsubscribe.
    public func generationChanges() async throws(FitClientError) -> AsyncStream<GenerationChange> {
        let signals = try await link.signals(FitNames.generationChanged)
        return AsyncStream(bufferingPolicy: .bufferingNewest(256)) { continuation in
            let task = Task {
                for await signal in signals {
                    guard signal.arguments.count == 2, case .uint64(let generation) = signal.arguments[0],
                        case .array(_, let reasons) = signal.arguments[1]
                    else { continue }
                    continuation.yield(GenerationChange(
                        generation: generation,
                        reasons: reasons.compactMap { if case .string(let s) = $0 { s } else { nil } }))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
