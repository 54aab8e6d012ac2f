import FitTypes
import Logging

/// Several desktop sources in precedence order, field by field: the first layer that sets the
/// text scale gives it (and is reported as its source), the first that names a UI font gives
/// that, and so on. fitd layers the portal (or KDE), GSettings and Xft.dpi this way, because
/// desktops do: GNOME on X11 writes its text-scaling-factor into Xft.dpi too, so Xft.dpi is the
/// fallback for desktops that set nothing else.
///
/// A layer that throws keeps the others readable: its error is thrown only when no layer gave
/// anything (the state then keeps its last good values and logs why); otherwise that layer
/// counts as unset for this read, and its error is in ``DesktopSettings/passedOver``. Except a passing error (``FitScaleError/isPassing``: an X
/// server that did not answer in time) from a layer that could still have set the text
/// scale: the read says so (``DesktopSettings/textScaleNotAnswering``) and no lower layer
/// sets the scale, so the state keeps its last good scale instead of flipping every client
/// to a lower layer's and back (a generation change each way), while the fonts the other
/// layers give still apply.
public struct LayeredSettingsProvider: DesktopSettingsProvider {
    public let layers: [any DesktopSettingsProvider]

    public init(_ layers: [any DesktopSettingsProvider]) {
        self.layers = layers
    }

    /// The first layer's source (the desktop's); the text scale carries its own.
    public var source: TextScaleSource { layers.first?.source ?? .default }

    public var watchedFiles: [String] { layers.flatMap(\.watchedFiles) }

    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        var merged = DesktopSettings()
        var any = false
        var firstError: FitScaleError?
        for layer in layers {
            let settings: DesktopSettings?
            do throws(FitScaleError) {
                settings = try await layer.currentSettings()
            } catch {
                if error.isPassing {
                    // A layer that could still have decided the scale or the font: the state
                    // keeps its last good value of each instead of a lower layer's.
                    var kept = false
                    if merged.textScale == nil && merged.textScaleNotAnswering == nil {
                        merged.textScaleNotAnswering = error
                        kept = true
                    }
                    if merged.uiFont == nil && merged.uiFontNotAnswering == nil {
                        merged.uiFontNotAnswering = error
                        kept = true
                    }
                    if kept {
                        any = true
                        continue
                    }
                }
                if firstError == nil { firstError = error }
                // A layer that cannot be read counts as absent, and says why.
                merged.passedOver.append(error)
                continue
            }
            guard let settings else { continue }
            any = true
            merged.passedOver += settings.passedOver
            if merged.textScale == nil, merged.textScaleNotAnswering == nil, let scale = settings.textScale {
                // Each provider passes its own out-of-range scale over; this keeps any other
                // layer's out too, so that the next layer decides (TextScale.desktop says why
                // ignore, not clamp).
                switch TextScale.desktop(scale, source: settings.textScaleSource ?? layer.source, setting: "its text scale") {
                case .success:
                    merged.textScale = scale
                    merged.textScaleSource = settings.textScaleSource ?? layer.source
                case .failure(let problem):
                    merged.passedOver.append(problem)
                }
            }
            if merged.uiFont == nil && merged.uiFontNotAnswering == nil { merged.uiFont = settings.uiFont }
            // GTK 3's UI font along its own chain: the same sources, settings.ini its own file.
            if merged.gtk3UIFont == nil && merged.uiFontNotAnswering == nil { merged.gtk3UIFont = settings.uiFontForGTK3 }
            if merged.monospaceFont == nil { merged.monospaceFont = settings.monospaceFont }
            if merged.gtkRendering.hintFontMetrics == nil { merged.gtkRendering.hintFontMetrics = settings.gtkRendering.hintFontMetrics }
        }
        if !any, let firstError { throw firstError }
        return any ? merged : nil
    }

    public func changes() -> AsyncStream<Void> {
        let streams = layers.map { $0.changes() }
        return AsyncStream { continuation in
            let task = Task {
                await withTaskGroup(of: Void.self) { group in
                    for stream in streams {
                        group.addTask { for await _ in stream { continuation.yield() } }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A desktop source whose text scale counts but whose UI font GTK would not use in this
/// session: GNOME's `font-name` (portal, GSettings) reaches GTK on Wayland
/// (gdk/wayland/gdkdisplay-wayland.c reads it), but on X11 only through an XSETTINGS daemon
/// (gsd-xsettings publishes it as `Gtk/FontName`), which ``XSettingsProvider`` reads itself.
/// Without one, GTK on X11 never sees the GSettings value, and neither may fitd.
public struct ScaleOnlySettingsProvider: DesktopSettingsProvider {
    public let base: any DesktopSettingsProvider

    public init(_ base: any DesktopSettingsProvider) {
        self.base = base
    }

    public var source: TextScaleSource { base.source }
    public var watchedFiles: [String] { base.watchedFiles }
    public func changes() -> AsyncStream<Void> { base.changes() }

    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        guard var settings = try await base.currentSettings() else { return nil }
        settings.uiFont = nil
        return settings
    }
}

extension LayeredSettingsProvider {
    /// The sources a process reads without the bus (fitctl --local, FitClient in-process):
    /// KDE's files when they exist, else GSettings (no portal to ask), then as the daemon.
    public static func inProcessSources(environment: FitScaleEnvironment) -> LayeredSettingsProvider {
        let kde = KDESettingsProvider(environment: environment)
        return kde.filesExist
            ? desktopSources([kde], gnome: false, environment: environment)
            : desktopSources([GSettingsProvider(environment: environment)], gnome: true, environment: environment)
    }

    /// The desktop's sources in precedence order, as fitd and `fitctl --local` both layer them:
    /// the desktop's own (`desktop`: the settings portal and GSettings, or KDE's files), then
    /// the X11 settings manager (XSETTINGS), GTK's settings.ini files, and X11's Xft.dpi
    /// resource. GNOME's UI font is not taken from its own sources in an X11 session
    /// (``ScaleOnlySettingsProvider``). `logger`: where the X display's watch says it lost
    /// or cannot reach the server.
    public static func desktopSources(
        _ desktop: [any DesktopSettingsProvider], gnome: Bool, environment: FitScaleEnvironment, logger: Logger? = nil
    ) -> LayeredSettingsProvider {
        let own = gnome && environment.isX11Session ? desktop.map { ScaleOnlySettingsProvider($0) } : desktop
        return LayeredSettingsProvider(
            own + [
                XSettingsProvider(display: environment.isWaylandSession ? nil : environment.display, logger: logger),
                GTKSettingsFileProvider(environment: environment),
                XResourcesProvider(display: environment.display),
            ])
    }
}
