import CFitGSettings
#if canImport(Glibc)
import Glibc
#endif

/// GNOME's `org.gnome.desktop.interface` keys through GSettings, for a GNOME session without
/// the settings portal: `text-scaling-factor`, `font-name`, `monospace-font-name`.
///
/// Why GIO's C API (loaded at the first read, not linked: fit_gsettings.h) and not
/// `gsettings get` or dconf's file: a process per read is slow and
/// can hang; dconf's database (GVDB) is a binary format private to GLib; GIO reads dconf's
/// database in-process (libdconfsettings), honours GSETTINGS_BACKEND (the keyfile backend the
/// tests use) and the schema's types. The schema is looked up first
/// (g_settings_schema_source_lookup): GSettings aborts on a schema that is not installed.
///
/// Only values the user set count (g_settings_get_user_value): the schema's defaults
/// ("Cantarell 11") are not a desktop setting, and must not override GTK's own default font
/// on a machine that merely has the schemas installed. Used only when dconf's user database
/// exists or GSETTINGS_BACKEND is set, so a machine without dconf does not print GLib's
/// "Using the 'memory' GSettings backend" message.
///
/// Changes: dconf's database file (and the keyfile) is watched and every re-read asks GIO
/// again; dconf answers from the file as it is now. The keyfile backend reads its file once
/// per process (its own monitor needs a GLib main loop, which fitd does not run), so with it a
/// change is seen after a restart only.
///
/// GIO takes `XDG_CONFIG_HOME` and `GSETTINGS_BACKEND` from the process environment, not from
/// ``FitScaleEnvironment``: pass the same ones.
public struct GSettingsProvider: DesktopSettingsProvider {
    public let environment: FitScaleEnvironment

    public init(environment: FitScaleEnvironment) {
        self.environment = environment
    }

    public var source: TextScaleSource { .gsettings }

    public var watchedFiles: [String] { [environment.dconfUserPath, environment.gsettingsKeyfilePath] }

    /// Whether GSettings has somewhere to read the user's values from.
    public var inUse: Bool {
        environment.gsettingsBackend != nil || access(environment.dconfUserPath, F_OK) == 0
    }

    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        read()
    }

    /// Synchronous read; nil when not in use, the schema is not installed or the user set
    /// none of the keys. A bad value is skipped (GSettings already checked its type).
    public func read() -> DesktopSettings? {
        guard inUse else { return nil }
        var scale = 0.0
        var hasScale: Int32 = 0
        var font: UnsafeMutablePointer<CChar>?
        var monospace: UnsafeMutablePointer<CChar>?
        guard fit_gsettings_interface(&scale, &hasScale, &font, &monospace) == 1 else { return nil }
        defer {
            free(font)
            free(monospace)
        }
        let fontName = font.map { String(cString: $0) }
        let monospaceName = monospace.map { String(cString: $0) }
        guard hasScale != 0 || fontName != nil || monospaceName != nil else { return nil }
        return DesktopSettings.gnomeInterface(
            textScalingFactor: hasScale != 0 ? scale : nil, fontName: fontName,
            monospaceFontName: monospaceName, source: .gsettings
        ).settings
    }
}
