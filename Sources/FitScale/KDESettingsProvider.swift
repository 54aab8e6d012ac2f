#if canImport(Glibc)
import Glibc
#endif

/// KDE Plasma's font settings from its files in `$XDG_CONFIG_HOME`:
/// `kdeglobals` `[General] font=Noto Sans,10,-1,5,50,0,0,0,0,0` (UI font, QFont::toString)
/// and `fixed=` (monospace), `kcmfonts` `[General] forceFontDPI=120` (0 or absent: not forced;
/// the scale is forceFontDPI / 96). The files are KDE's, so they are parsed leniently: a line
/// fitd does not understand is skipped, not an error.
public struct KDESettingsProvider: DesktopSettingsProvider {
    public let environment: FitScaleEnvironment

    public init(environment: FitScaleEnvironment) {
        self.environment = environment
    }

    public var source: TextScaleSource { .kde }

    public var watchedFiles: [String] { [environment.kdeGlobalsPath, environment.kcmFontsPath] }

    /// Whether kdeglobals or kcmfonts exists: KDE has been configured for this user.
    public var filesExist: Bool { watchedFiles.contains { access($0, F_OK) == 0 } }

    public func currentSettings() async throws(FitScaleError) -> DesktopSettings? {
        try read()
    }

    /// Synchronous read (two small files).
    public func read() throws(FitScaleError) -> DesktopSettings? {
        let globals = try ConfigFile.load(path: environment.kdeGlobalsPath, strict: false, followingLinks: true)
        let fonts = try ConfigFile.load(path: environment.kcmFontsPath, strict: false, followingLinks: true)
        if globals == nil && fonts == nil { return nil }
        var settings = DesktopSettings()
        if let text = globals?.value(section: "General", key: "font") {
            settings.uiFont = UIFont(qtFontString: text, source: .kde)
        }
        if let text = globals?.value(section: "General", key: "fixed") {
            settings.monospaceFont = UIFont(qtFontString: text, source: .kde)
        }
        if let text = fonts?.value(section: "General", key: "forceFontDPI") {
            guard let dpi = Double(text), dpi.isFinite, dpi >= 0 else {
                throw .configValue(path: environment.kcmFontsPath, key: "forceFontDPI", value: text, reason: "not a number of dots per inch")
            }
            if dpi > 0 {
                // Out of range, the scale alone is passed over: the fonts beside it still count.
                switch TextScale.desktop(dpi / 96, source: .kde, setting: "\(environment.kcmFontsPath) forceFontDPI=\(text) (over 96)") {
                case .success(let scale): settings.textScale = scale
                case .failure(let problem): settings.passedOver.append(problem)
                }
            }
        }
        return settings
    }
}
