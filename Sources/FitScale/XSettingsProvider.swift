import CFitXResources
import FitThreads
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The X11 settings manager's values (XSETTINGS: gsd-xsettings on GNOME, xfsettingsd,
/// xsettingsd under i3 and others, KDE's kde-gtk-config), which GTK on X11 reads before its
/// settings.ini (gdk/x11/xsettings-client.c): `Gtk/FontName`, the font of a label with no
/// font of its own, and the resolution (``XSettings/gtkDPI(gdkScaleIsSet:)``).
///
/// Read through libxcb like ``XResourcesProvider`` (fit_xresources.h,
/// `fit_x_settings_property`): the `_XSETTINGS_SETTINGS` property of the `_XSETTINGS_S<screen>`
/// selection's owner for the display's screen, on a thread of its own with a deadline, a fresh
/// connection per read.
/// Nil without a display, without a settings manager, or when the X server cannot be reached.
///
/// ``changes()`` follows the display live (``XDisplayWatch``): the manager's settings, a
/// manager starting or exiting, and the root window's RESOURCE_MANAGER that
/// ``XResourcesProvider`` reads, all on one connection, so that provider has no watch of its own.
public struct XSettingsProvider: DesktopSettingsProvider {
    public let display: String?
    public let timeoutMilliseconds: Int32
    /// Where the watch says that it lost the server, or cannot reach it (nil: nowhere).
    public let logger: Logger?

    /// - Parameter display: an X display name; nil (no X11 session: GTK on Wayland reads no
    ///   XSETTINGS) reads nothing and watches nothing.
    public init(display: String?, timeoutMilliseconds: Int32 = 500, logger: Logger? = nil) {
        self.display = display
        self.timeoutMilliseconds = timeoutMilliseconds
        self.logger = logger
    }

    public var source: TextScaleSource { .xsettings }

    /// A report each time the display's settings may have changed (``XDisplayWatch``); a
    /// stream that finishes at once without a display. Each call opens a watch of its own,
    /// which ends when the stream does.
    public func changes() -> AsyncStream<Void> {
        guard let display else { return AsyncStream { $0.finish() } }
        return XDisplayWatch.changes(display: display, timeoutMilliseconds: timeoutMilliseconds, logger: logger)
    }

    /// ``read()`` on a thread of its own, as ``XResourcesProvider`` reads.
    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        guard display != nil else { return nil }
        return try await XResourcesProvider.readOnOwnThread(named: "fitd-xsettings") { () throws(FitScaleError) in try read() }
    }

    /// Throws ``FitScaleError/desktopNotAnswering(source:reason:)`` when the server does not
    /// answer in time, and ``FitScaleError/desktopSettings(source:reason:)`` when the settings
    /// manager's property is not in the XSETTINGS format or holds an unusable value.
    public func read() throws(FitScaleError) -> DesktopSettings? {
        guard let display else { return nil }
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = display.withCString { fit_x_settings_property($0, timeoutMilliseconds, &bytes, &length) }
        defer { free(bytes) }
        switch status {
        case FIT_X_OK: break
        case FIT_X_TIMED_OUT:
            throw .desktopNotAnswering(source: .xsettings, reason: "the X server at \(display) did not answer within \(timeoutMilliseconds) ms")
        case FIT_X_BUSY:
            throw .desktopNotAnswering(source: .xsettings, reason: "an earlier read still waits for the X server at \(display)")
        default: return nil
        }
        guard let bytes, length > 0 else { return nil }
        let parsed: XSettings
        do throws(XSettingsError) {
            parsed = try XSettings(bytes: Array(UnsafeBufferPointer(start: bytes, count: length)))
        } catch {
            throw .desktopSettings(source: .xsettings, reason: "the settings manager's _XSETTINGS_SETTINGS: \(error)")
        }
        return try Self.settings(from: parsed, gdkScaleIsSet: getenv("GDK_SCALE") != nil)
    }

    /// What the settings say for fitd: the UI font and the text scale (the resolution over 96).
    static func settings(from parsed: XSettings, gdkScaleIsSet: Bool) throws(FitScaleError) -> DesktopSettings? {
        var settings = DesktopSettings()
        if let name = parsed.fontName {
            guard let font = UIFont(pangoDescription: name, source: .xsettings) else {
                throw .desktopSettings(source: .xsettings, reason: "Gtk/FontName \"\(name)\" is not a Pango font description")
            }
            settings.uiFont = font
        }
        // A resolution fitd cannot take as a scale (outside TextScale.desktopRange × 96 dpi)
        // is passed over alone: the font named beside it still counts.
        if let dpi = parsed.gtkDPI(gdkScaleIsSet: gdkScaleIsSet) {
            switch TextScale.desktop(dpi / 96, source: .xsettings, setting: "Xft/DPI \(dpi.formatted) (over 96)") {
            case .success(let scale): settings.textScale = scale
            case .failure(let problem): settings.passedOver.append(problem)
            }
        }
        return settings.uiFont == nil && settings.textScale == nil && settings.passedOver.isEmpty ? nil : settings
    }
}
