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
        try read()
    }

    /// The files GIO opens for a read, each with the size fitd lets it have: the backend's
    /// store (GLib's keyfile backend reads its whole file into memory with GKeyFile; dconf
    /// maps its GVDB database, a few hundred KiB for a busy user) and the user's compiled
    /// schemas, which GIO maps once per process (gio/gsettingsschema.c,
    /// initialise_schema_sources: $GSETTINGS_SCHEMA_DIR, then $XDG_DATA_HOME/glib-2.0/schemas).
    /// GIO opens them with a plain blocking open(2) and reads a keyfile to its end: a FIFO
    /// there held fitd's start until a writer came, a link to /dev/zero until memory ran out.
    public var checkedFiles: [(path: String, limit: Int)] {
        var files = [(path: String, limit: Int)]()
        if environment.gsettingsBackend == "keyfile" {
            files.append((environment.gsettingsKeyfilePath, Self.keyfileLimit))
        } else {
            files.append((environment.dconfUserPath, Self.databaseLimit))
        }
        files += environment.gsettingsSchemaFiles.map { ($0, Self.databaseLimit) }
        return files
    }

    /// A keyfile of GNOME's settings is a few KiB.
    public static let keyfileLimit = 1 << 20
    /// dconf's user database and a compiled schema file (GVDB, memory-mapped): Debian 12's
    /// system schemas compile to 41 KB here; a desktop with every GNOME application has a few
    /// hundred KiB of each. 16 MiB passes any real one and stops a file of any size.
    public static let databaseLimit = 16 << 20

    /// Synchronous read; nil when not in use, the schema is not installed or the user set
    /// none of the keys. A bad value is skipped (GSettings already checked its type and its
    /// schema's range). Throws, without asking GIO, when one of ``checkedFiles`` is not a
    /// regular file of a sane size: GSettings then counts as absent for this read.
    public func read() throws(FitScaleError) -> DesktopSettings? {
        guard inUse else { return nil }
        for file in checkedFiles {
            // dconf-service and GLib's keyfile backend replace their files by rename, so a
            // link there is the user's own (a dotfile manager's): followed, the target checked.
            _ = try SafeFile.check(path: file.path, limit: file.limit)
        }
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
        var (settings, problems) = DesktopSettings.gnomeInterface(
            textScalingFactor: hasScale != 0 ? scale : nil, fontName: fontName,
            monospaceFontName: monospaceName, source: .gsettings)
        settings.passedOver = problems
        return settings
    }
}
