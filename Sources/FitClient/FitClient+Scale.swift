import FitBus
import FitProtocol
import FitScale
import Foundation
import Logging

/// The text scale through fitd: read it, set or reset the explicit setting, the text styles
/// at a category, and the generation signal. Embedded clients read and write the same
/// sources in-process ($XDG_CONFIG_HOME/fitd/fitd.conf, fontconfig, KDE's files; not the
/// portal, which needs the bus), so `fitctl --local scale set` persists like the daemon.
extension FitClient {
    public func textScale() async throws(FitClientError) -> TextScaleInfo {
        switch backend {
        case .embedded:
            return TextScaleInfo(await Self.localState().reload())
        case .daemon(let link):
            let reply = try await link.call("GetAll", [.string(FitNames.interface)], interface: "org.freedesktop.DBus.Properties")
            guard case .dictionary(_, _, let entries)? = reply.first else { throw .protocolMismatch("GetAll returned \(reply.first?.signature ?? "nothing")") }
            var values: [String: DBusValue] = [:]
            for entry in entries { if case .string(let key) = entry.key { values[key] = entry.value.unwrapped } }
            guard case .double(let factor)? = values[TextScaleNames.textScale],
                case .string(let source)? = values[TextScaleNames.textScaleSource],
                case .string(let category)? = values[TextScaleNames.sizeCategory], case .double(let dpi)? = values[TextScaleNames.dpi],
                case .string(let uiFont)? = values[TextScaleNames.uiFont], case .string(let monospace)? = values[TextScaleNames.monospaceFont]
            else { throw .protocolMismatch("the daemon has no text-scale properties (an older fitd?)") }
            return TextScaleInfo(factor: factor, source: source, category: category, dpi: dpi, uiFont: uiFont, monospaceFont: monospace)
        }
    }

    /// Makes `factor` the explicit text scale (persisted). A factor outside (0, 4] is
    /// rejected with org.fitd.Fit1.Error.InvalidArgument (embedded: the same message).
    public func setTextScale(_ factor: Double) async throws(FitClientError) {
        switch backend {
        case .embedded:
            do throws(FitScaleError) {
                try await Self.localState().setExplicitScale(factor)
            } catch {
                throw Self.rejected(error)
            }
        case .daemon(let link):
            _ = try await link.call(
                "Set", [.string(FitNames.interface), .string(TextScaleNames.textScale), .variant(.double(factor))],
                interface: "org.freedesktop.DBus.Properties")
        }
    }

    /// Removes the explicit text scale: fontconfig, the desktop or 1.0 decide again.
    public func resetTextScale() async throws(FitClientError) {
        switch backend {
        case .embedded:
            do throws(FitScaleError) {
                try await Self.localState().resetExplicitScale()
            } catch {
                throw Self.rejected(error)
            }
        case .daemon(let link):
            _ = try await link.call(TextScaleNames.resetTextScale, [])
        }
    }

    /// Every text style at `category` (nil: the user's current one), largest first.
    public func textStyles(category: SizeCategory? = nil) async throws(FitClientError) -> [TextStyleRow] {
        switch backend {
        case .embedded:
            let snapshot = await Self.localState().reload()
            return TextStyleFont.table(uiFont: snapshot.uiFont, category: category ?? snapshot.category).map {
                TextStyleRow(style: $0.style.rawValue, font: $0.pangoDescription, pointSize: $0.pointSize, lineHeight: ($0.lineHeightPixels * 100).rounded() / 100)
            }
        case .daemon(let link):
            let reply = try await link.call(TextScaleNames.getTextStyles, [.string(category?.rawValue ?? "")])
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
    }

    /// Generation changes as the daemon announces them (GenerationChanged), from now on.
    /// Embedded: the stream finishes at once (nothing announces changes in-process). The
    /// stream ends when the connection closes; stop iterating to unsubscribe.
    public func generationChanges() async throws(FitClientError) -> AsyncStream<GenerationChange> {
        guard case .daemon(let link) = backend else { return AsyncStream { $0.finish() } }
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

    static func localState() -> TextScaleState {
        let environment = FitScaleEnvironment(environment: ProcessInfo.processInfo.environment)
        let kde = KDESettingsProvider(environment: environment)
        // In-process there is no bus to ask the portal: KDE's files, GSettings, Xft.dpi.
        let layers: [any DesktopSettingsProvider] = (kde.filesExist ? [kde] : [])
            + [GSettingsProvider(environment: environment), XResourcesProvider(display: environment.display)]
        return TextScaleState(environment: environment, desktop: LayeredSettingsProvider(layers), logger: Logger(label: "fitd.client"))
    }

    private static func rejected(_ error: FitScaleError) -> FitClientError {
        switch error {
        case .invalidScale: return .rejected(name: FitErrorName.invalidArgument.rawValue, message: error.description)
        default: return .rejected(name: FitErrorName.internal.rawValue, message: error.description)
        }
    }
}
