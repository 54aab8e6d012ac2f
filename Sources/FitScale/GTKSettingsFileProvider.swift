import FitTypes

/// GTK's own settings files: `[Settings]` in `settings.ini`, read where and in the order GTK 4
/// reads them (gtk/gtksettings.c, `gtk_settings_init`): the system's `/etc/gtk-4.0`, every
/// directory of `$XDG_CONFIG_DIRS` from the last to the first, then `$XDG_CONFIG_HOME`, each
/// `gtk-4.0/settings.ini`, a later file's key replacing an earlier one's. What a label with no
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
    /// "gtk-4.0" (GTK 3 reads "gtk-3.0").
    public let toolkitDirectory: String

    public init(environment: FitScaleEnvironment, toolkitDirectory: String = "gtk-4.0") {
        self.environment = environment
        self.toolkitDirectory = toolkitDirectory
    }

    public var source: TextScaleSource { .gtkSettings }

    /// Least important first: the order GTK loads them in.
    public var files: [String] {
        ["/etc/\(toolkitDirectory)/settings.ini"]
            + environment.configDirectories.reversed().map { "\($0)/\(toolkitDirectory)/settings.ini" }
            + ["\(environment.configHome)/\(toolkitDirectory)/settings.ini"]
    }

    public var watchedFiles: [String] { files }

    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        try read()
    }

    /// Nil when none of the files exists or none sets `gtk-font-name`, `gtk-hint-font-metrics`
    /// or `gtk-font-rendering` (the last two only in GTK 4's files). A file that cannot be
    /// read (not UTF-8, not a regular file, too large) is passed over as GTK passes it over;
    /// its error is thrown only when no other file sets anything. A value GTK cannot parse is
    /// ignored with a warning, as GTK ignores it (gtksettings.c, `gtk_settings_load_from_key_file`).
    public func read() throws(FitScaleError) -> DesktopSettings? {
        var fontName: (value: String, path: String)?
        var rendering = GTKFontRenderingSettings.unset
        var passedOver: [FitScaleError] = []
        var unreadable: FitScaleError?
        let readsRendering = toolkitDirectory == "gtk-4.0"
        for path in files {
            let file: ConfigFile?
            do throws(FitScaleError) {
                file = try ConfigFile.load(path: path, strict: false, followingLinks: true)
            } catch {
                unreadable = error
                continue
            }
            guard let file else { continue }
            if let value = file.value(section: "Settings", key: "gtk-font-name") { fontName = (value, path) }
            guard readsRendering else { continue }
            if let value = file.value(section: "Settings", key: "gtk-hint-font-metrics") {
                if let hinted = GTKFontRenderingSettings.keyFileBoolean(value) {
                    rendering.hintFontMetrics = hinted
                } else {
                    passedOver.append(.configValue(path: path, key: "gtk-hint-font-metrics", value: value, reason: "not a boolean (true, false, 1 or 0); GTK ignores it too"))
                }
            }
            if let value = file.value(section: "Settings", key: "gtk-font-rendering") {
                if let mode = GTKFontRenderingSettings.fontRendering(value) {
                    rendering.fontRendering = mode
                } else {
                    passedOver.append(.configValue(path: path, key: "gtk-font-rendering", value: value, reason: "not automatic or manual; GTK ignores it too"))
                }
            }
        }
        var settings = DesktopSettings()
        settings.gtkRendering = rendering
        settings.passedOver = passedOver
        if let fontName {
            // GKeyFile strings may be quoted by the tools that write them.
            let text = fontName.value.hasPrefix("\"") && fontName.value.hasSuffix("\"") && fontName.value.count >= 2
                ? String(fontName.value.dropFirst().dropLast()) : fontName.value
            guard let font = UIFont(pangoDescription: text, source: .gtkSettings) else {
                throw .configValue(path: fontName.path, key: "gtk-font-name", value: text, reason: "not a Pango font description such as \"Cantarell 11\"")
            }
            settings.uiFont = font
        }
        guard settings.uiFont != nil || !rendering.isUnset else {
            if let unreadable { throw unreadable }
            return passedOver.isEmpty ? nil : settings
        }
        return settings
    }
}
