import FitTypes

/// GTK's own settings files: `[Settings]` in `settings.ini`, read where and in the order GTK
/// reads them (gtk/gtksettings.c, `gtk_settings_init`): the system's `/etc/gtk-4.0`, every
/// directory of `$XDG_CONFIG_DIRS` from the last to the first, then `$XDG_CONFIG_HOME`, each
/// `gtk-4.0/settings.ini`, a later file's key replacing an earlier one's; GTK 3 the same
/// under `gtk-3.0`, which gives its own `gtk-font-name` (``DesktopSettings/gtk3UIFont``). What a label with no
/// font of its own is drawn in when no settings daemon says otherwise: `gtk-font-name`. Its
/// `gtk-xft-dpi` is not read: GTK's display backends always set the resolution themselves
/// (X11: XSETTINGS or Xft.dpi; Wayland: GSettings), and GTK 4.8 was seen to ignore the file's.
///
/// KDE's kde-gtk-config writes these files from Plasma's fonts, as nwg-look and lxappearance
/// do on wlroots and X11 desktops, so they are how GTK on those desktops learns the user's font.
/// GTK parses them with GKeyFile and ignores what it does not understand: so does this reader
/// (a key it cannot use is skipped, the rest still counts).
public struct GTKSettingsFileProvider: DesktopSettingsProvider {
    public let environment: FitScaleEnvironment

    public init(environment: FitScaleEnvironment) {
        self.environment = environment
    }

    public var source: TextScaleSource { .gtkSettings }

    /// Least important first, the order GTK loads them in: GTK 4's ("gtk-4.0") or GTK 3's
    /// ("gtk-3.0").
    public func files(_ toolkitDirectory: String) -> [String] {
        ["/etc/\(toolkitDirectory)/settings.ini"]
            + environment.configDirectories.reversed().map { "\($0)/\(toolkitDirectory)/settings.ini" }
            + ["\(environment.configHome)/\(toolkitDirectory)/settings.ini"]
    }

    public var watchedFiles: [String] { files("gtk-4.0") + files("gtk-3.0") }

    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        try read()
    }

    /// Nil when none of the files exists or none sets `gtk-font-name` or
    /// `gtk-hint-font-metrics` (which only GTK 4 reads). A file that cannot be read (not
    /// UTF-8, not a regular file, too large) is passed over as GTK passes it over; its error is
    /// thrown only when no other file sets anything. A value GTK cannot parse is ignored with
    /// a warning, as GTK ignores it (gtksettings.c, `gtk_settings_load_from_key_file`).
    public func read() throws(FitScaleError) -> DesktopSettings? {
        var gtk4 = try Self.read(files("gtk-4.0"), renderingSettings: true)
        let gtk3 = try Self.read(files("gtk-3.0"), renderingSettings: false)
        guard gtk4.font != nil || gtk3.font != nil || !gtk4.rendering.isUnset || !(gtk4.passedOver + gtk3.passedOver).isEmpty else {
            if let unreadable = gtk4.unreadable ?? gtk3.unreadable { throw unreadable }
            return nil
        }
        var settings = DesktopSettings()
        settings.uiFont = gtk4.font
        settings.toolkitSpecificUIFont = true
        settings.gtk3UIFont = gtk3.font
        settings.gtkRendering = gtk4.rendering
        gtk4.passedOver += gtk3.passedOver
        settings.passedOver = gtk4.passedOver
        return settings
    }

    private struct FileSettings {
        var font: UIFont?
        var rendering = GTKFontRenderingSettings.unset
        var passedOver: [FitScaleError] = []
        var unreadable: FitScaleError?
    }

    /// One toolkit's files, the later key winning.
    private static func read(_ files: [String], renderingSettings: Bool) throws(FitScaleError) -> FileSettings {
        var result = FileSettings()
        var fontName: (value: String, path: String)?
        for path in files {
            let file: ConfigFile?
            do throws(FitScaleError) {
                file = try ConfigFile.load(path: path, strict: false, followingLinks: true)
            } catch {
                result.unreadable = error
                continue
            }
            guard let file else { continue }
            if let value = file.value(section: "Settings", key: "gtk-font-name") { fontName = (value, path) }
            guard renderingSettings else { continue }
            if let value = file.value(section: "Settings", key: "gtk-hint-font-metrics") {
                if let hinted = GTKFontRenderingSettings.keyFileBoolean(value) {
                    result.rendering.hintFontMetrics = hinted
                } else {
                    result.passedOver.append(.configValue(path: path, key: "gtk-hint-font-metrics", value: value, reason: "not a boolean (true, false, 1 or 0); GTK ignores it too"))
                }
            }
            if let value = file.value(section: "Settings", key: "gtk-font-rendering") {
                // GTK cannot take an enum from settings.ini (`_gtk_settings_parse_convert`
                // turns the file's string only into strings): it warns and draws as before.
                result.passedOver.append(.configValue(path: path, key: "gtk-font-rendering", value: value, reason: "GTK cannot read this setting from settings.ini (it is an enum), so it changes nothing; GNOME sets it through GSettings"))
            }
        }
        if let fontName {
            // GKeyFile strings may be quoted by the tools that write them.
            let text = fontName.value.hasPrefix("\"") && fontName.value.hasSuffix("\"") && fontName.value.count >= 2
                ? String(fontName.value.dropFirst().dropLast()) : fontName.value
            guard let font = UIFont(pangoDescription: text, source: .gtkSettings) else {
                throw .configValue(path: fontName.path, key: "gtk-font-name", value: text, reason: "not a Pango font description such as \"Cantarell 11\"")
            }
            result.font = font
        }
        return result
    }
}
