import FitBus
import FitProtocol
import FitScale
import FitText
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
        case .daemon(let daemon):
            return try await daemon.textScale()
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
        case .daemon(let daemon):
            try await daemon.setTextScale(factor)
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
        case .daemon(let daemon):
            try await daemon.resetTextScale()
        }
    }

    /// Every text style at `category` (nil: the user's current one), largest first.
    public func textStyles(category: SizeCategory? = nil) async throws(FitClientError) -> [TextStyleRow] {
        switch backend {
        case .embedded:
            let snapshot = await Self.localState().reload()
            return TextStyleFont.table(uiFont: snapshot.uiFont, category: category ?? snapshot.category).map {
                TextStyleRow(style: $0.style.name, font: $0.pangoDescription, pointSize: $0.pointSize, lineHeight: ($0.lineHeightPixels * 100).rounded() / 100)
            }
        case .daemon(let daemon):
            return try await daemon.textStyles(categoryName: category?.name)
        }
    }

    /// Generation changes as the daemon announces them (GenerationChanged), from now on.
    /// Embedded: the stream finishes at once (nothing announces changes in-process). The
    /// stream ends when the connection closes; stop iterating to unsubscribe.
    public func generationChanges() async throws(FitClientError) -> AsyncStream<GenerationChange> {
        guard case .daemon(let daemon) = backend else { return AsyncStream { $0.finish() } }
        return try await daemon.generationChanges()
    }

    /// - Parameter engine: the engine in this process, whose fontconfig configuration the
    ///   first reload reads instead of loading its own.
    static func localState(sharing engine: TextEngine? = nil) -> TextScaleState {
        let environment = FitScaleEnvironment(environment: ProcessInfo.processInfo.environment)
        // In-process there is no bus to ask the portal.
        let desktop = LayeredSettingsProvider.inProcessSources(environment: environment)
        // The engine loaded FONTCONFIG_FILE (or fontconfig's default) as the reader would.
        var loaded: (@Sendable () -> OpaquePointer?)? = nil
        if let engine { loaded = { engine.referencedFontconfigConfiguration() } }
        return TextScaleState(
            environment: environment, desktop: desktop, logger: Logger(label: "fitd.client"),
            loadedFontconfig: loaded)
    }

    private static func rejected(_ error: FitScaleError) -> FitClientError {
        switch error {
        case .invalidScale: return .rejected(name: FitErrorName.invalidArgument.rawValue, message: error.description)
        default: return .rejected(name: FitErrorName.internal.rawValue, message: error.description)
        }
    }
}
