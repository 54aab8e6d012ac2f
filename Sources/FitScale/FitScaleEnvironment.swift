#if canImport(Glibc)
import Glibc
#endif

/// Where FitScale looks: the XDG config directory and which fontconfig configuration to load.
/// Passed in, never read from globals inside the module, so tests (and a daemon serving
/// another user's session) choose their own.
public struct FitScaleEnvironment: Hashable, Sendable {
    /// `$XDG_CONFIG_HOME`, else `$HOME/.config` (XDG Base Directory Specification).
    public var configHome: String
    /// A fontconfig configuration file to load instead of fontconfig's default; nil loads the
    /// default the way every program does (FcInitLoadConfigAndFonts: FONTCONFIG_FILE, else
    /// /etc/fonts/fonts.conf, which includes the user's `$XDG_CONFIG_HOME/fontconfig`).
    public var fontconfigFile: String?
    /// fitd's own directory: `configHome/fitd`, or the one systemd made for the unit.
    public var fitdConfigDirectory: String
    /// `$DISPLAY`: the X server whose `Xft.dpi` resource is read; nil: no X11 source.
    public var display: String?
    /// `$GSETTINGS_BACKEND` (tests: `keyfile`); nil: GSettings' default (dconf).
    public var gsettingsBackend: String?
    /// `$WAYLAND_DISPLAY`: set in a Wayland session, where GTK takes its font from the
    /// settings portal or GSettings (gdk/wayland/gdkdisplay-wayland.c) rather than XSETTINGS.
    public var waylandDisplay: String? = nil
    /// `$XDG_DATA_HOME`, else `$HOME/.local/share` (XDG Base Directory Specification).
    public var dataHome: String? = nil
    /// `$GSETTINGS_SCHEMA_DIR`: directories (colon-separated) of compiled schemas GIO reads
    /// before the others.
    public var gsettingsSchemaDirectories: [String] = []
    /// `$XDG_CONFIG_DIRS`, most important first (XDG Base Directory Specification; default
    /// /etc/xdg): GTK reads a settings.ini in each.
    public var configDirectories: [String] = ["/etc/xdg"]

    /// Whether GTK would run on Wayland here (GDK tries Wayland first when both are set).
    public var isWaylandSession: Bool { waylandDisplay != nil }
    /// Whether GTK would run on X11 here: a display and no Wayland one. Neither (a daemon
    /// started before the session exported them) is not known to be X11.
    public var isX11Session: Bool { display != nil && waylandDisplay == nil }

    public init(configHome: String, fontconfigFile: String? = nil, fitdConfigDirectory: String? = nil, display: String? = nil, gsettingsBackend: String? = nil) {
        self.configHome = configHome
        self.fontconfigFile = fontconfigFile
        self.fitdConfigDirectory = fitdConfigDirectory ?? configHome + "/fitd"
        self.display = display
        self.gsettingsBackend = gsettingsBackend
    }

    /// From a process environment (`ProcessInfo.processInfo.environment`, or `environ`).
    /// Without HOME, the home directory of the user in the password database.
    public init(environment: [String: String]) {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = xdg
        } else {
            configHome = (environment["HOME"] ?? Self.passwordDatabaseHome()) + "/.config"
        }
        fontconfigFile = nil
        fitdConfigDirectory = Self.systemdConfigurationDirectory(environment) ?? configHome + "/fitd"
        display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        gsettingsBackend = environment["GSETTINGS_BACKEND"].flatMap { $0.isEmpty ? nil : $0 }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            dataHome = (environment["HOME"] ?? Self.passwordDatabaseHome()) + "/.local/share"
        }
        gsettingsSchemaDirectories = (environment["GSETTINGS_SCHEMA_DIR"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        waylandDisplay = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        let dirs = (environment["XDG_CONFIG_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        configDirectories = dirs.isEmpty ? ["/etc/xdg"] : dirs
    }

    /// The directory systemd created for fitd.service's `ConfigurationDirectory=fitd`
    /// (systemd.exec(5): $CONFIGURATION_DIRECTORY, colon-separated absolute paths; for a user
    /// unit below the manager's $XDG_CONFIG_HOME, which need not be the one a login shell
    /// has). Only a directory named "fitd": a variable inherited from some other unit's
    /// environment names that unit's directory, not fitd's.
    static func systemdConfigurationDirectory(_ environment: [String: String]) -> String? {
        guard let list = environment["CONFIGURATION_DIRECTORY"] else { return nil }
        return list.split(separator: ":").map(String.init).first { $0.hasPrefix("/") && $0.hasSuffix("/fitd") }
    }

    /// The user's home directory from getpwuid_r(3), or "/" when the user has no entry.
    static func passwordDatabaseHome() -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        // The entry's strings point into the buffer: read them before it goes.
        var buffer = [CChar](repeating: 0, count: 4096)
        return buffer.withUnsafeMutableBufferPointer { storage in
            guard let base = storage.baseAddress else { return "/" }
            let code = getpwuid_r(getuid(), &entry, base, storage.count, &result)
            guard code == 0, result != nil, let directory = entry.pw_dir, directory.pointee != 0 else { return "/" }
            return String(cString: directory)
        }
    }

    /// fitd's own settings: `$XDG_CONFIG_HOME/fitd/fitd.conf` (under systemd, the unit's
    /// ConfigurationDirectory, the same directory when the manager and the shell agree on
    /// $XDG_CONFIG_HOME).
    public var fitdConfigPath: String { fitdConfigDirectory + "/fitd.conf" }
    /// The user's fontconfig directory, watched even before it exists.
    public var userFontconfigDirectory: String { configHome + "/fontconfig" }
    /// KDE's global settings (fonts: [General] font=, fixed=).
    public var kdeGlobalsPath: String { configHome + "/kdeglobals" }
    /// KDE's font module settings ([General] forceFontDPI=).
    public var kcmFontsPath: String { configHome + "/kcmfonts" }
    /// dconf's user database (GVDB), which dconf-service replaces on every write.
    public var dconfUserPath: String { configHome + "/dconf/user" }
    /// The user's compiled GSettings schemas, which GIO maps before the system's
    /// (gio/gsettingsschema.c, initialise_schema_sources).
    public var gsettingsSchemaFiles: [String] {
        (gsettingsSchemaDirectories + [dataHome.map { $0 + "/glib-2.0/schemas" }].compactMap { $0 }).map { $0 + "/gschemas.compiled" }
    }
    /// GLib's keyfile GSettings backend (GSETTINGS_BACKEND=keyfile).
    public var gsettingsKeyfilePath: String { configHome + "/glib-2.0/settings/keyfile" }
}
