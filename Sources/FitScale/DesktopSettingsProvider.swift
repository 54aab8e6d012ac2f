import FitTypes

/// What a desktop environment says about text size and fonts. A nil field means the desktop
/// does not set it, and the next source in precedence decides.
public struct DesktopSettings: Hashable, Sendable {
    /// The desktop's text scale (GNOME text-scaling-factor; KDE forceFontDPI / 96).
    public var textScale: Double?
    /// The UI font (GNOME font-name; KDE [General] font).
    public var uiFont: UIFont?
    /// The monospace font (GNOME monospace-font-name; KDE [General] fixed).
    public var monospaceFont: UIFont?
    /// GtkSettings that change how GTK 4 renders, and so measures (settings.ini
    /// `gtk-hint-font-metrics`); each field nil where unset.
    public var gtkRendering: GTKFontRenderingSettings = .unset
    /// Set by a source that GTK 3 and GTK 4 read apart (each its own settings.ini): then
    /// ``uiFont`` is GTK 4's and this GTK 3's (nil: the source names none for GTK 3). Other
    /// sources (XSETTINGS, GSettings, KDE) give both toolkits ``uiFont``.
    public var toolkitSpecificUIFont = false
    public var gtk3UIFont: UIFont? = nil

    /// The UI font this source gives GTK 3.
    public var uiFontForGTK3: UIFont? { toolkitSpecificUIFont ? gtk3UIFont : uiFont }
    /// Which source gave ``textScale`` when several were layered
    /// (``LayeredSettingsProvider``); nil: the provider's own ``DesktopSettingsProvider/source``.
    public var textScaleSource: TextScaleSource?
    /// A source that would have decided the text scale did not answer in time (a hung X
    /// server): ``TextScaleState`` keeps its last good scale and takes the rest of these
    /// settings (``LayeredSettingsProvider``).
    public var textScaleNotAnswering: FitScaleError?
    /// The same for the UI font: a source that could have named it (XSETTINGS on X11) did not
    /// answer in time, and ``TextScaleState`` keeps its last good font rather than drop to a
    /// lower source's for a moment (a generation change each way).
    public var uiFontNotAnswering: FitScaleError? = nil
    /// What a source said that was passed over, each naming the source and the value: a text
    /// scale outside ``TextScale/desktopRange`` (the next source decides), a file that could
    /// not be read (that source counts as absent). ``TextScaleState`` logs them as warnings.
    public var passedOver: [FitScaleError] = []

    public init(
        textScale: Double? = nil, uiFont: UIFont? = nil, monospaceFont: UIFont? = nil, textScaleSource: TextScaleSource? = nil,
        textScaleNotAnswering: FitScaleError? = nil
    ) {
        self.textScale = textScale
        self.uiFont = uiFont
        self.monospaceFont = monospaceFont
        self.textScaleSource = textScaleSource
        self.textScaleNotAnswering = textScaleNotAnswering
    }

    /// GNOME's org.gnome.desktop.interface values as org.freedesktop.portal.Settings.ReadOne
    /// returns them (`text-scaling-factor` d, `font-name` s, `monospace-font-name` s), already
    /// unpacked from their variants; nil for a key the portal did not have. A scale outside
    /// ``TextScale/desktopRange`` or an unparsable font is ignored with the reason in `problems`.
    public static func gnomeInterface(
        textScalingFactor: Double?, fontName: String?, monospaceFontName: String?, source: TextScaleSource = .gnome
    ) -> (settings: DesktopSettings, problems: [FitScaleError]) {
        var settings = DesktopSettings()
        var problems: [FitScaleError] = []
        if let factor = textScalingFactor {
            switch TextScale.desktop(factor, source: source, setting: "text-scaling-factor") {
            case .success(let scale): settings.textScale = scale
            case .failure(let problem): problems.append(problem)
            }
        }
        if let fontName {
            settings.uiFont = UIFont(pangoDescription: fontName, source: source)
            if settings.uiFont == nil { problems.append(.desktopSettings(source: source, reason: "font-name \"\(fontName)\" is not a Pango font description")) }
        }
        if let monospaceFontName {
            settings.monospaceFont = UIFont(pangoDescription: monospaceFontName, source: source)
            if settings.monospaceFont == nil { problems.append(.desktopSettings(source: source, reason: "monospace-font-name \"\(monospaceFontName)\" is not a Pango font description")) }
        }
        return (settings, problems)
    }
}

/// A source of desktop settings, third in precedence after fitd's explicit setting and
/// fontconfig. FitScale implements KDE's files (``KDESettingsProvider``); the daemon
/// implements GNOME's over D-Bus: org.freedesktop.portal.Settings.ReadOne
/// ("org.gnome.desktop.interface", "text-scaling-factor" / "font-name" /
/// "monospace-font-name") on the session bus, with ``DesktopSettings/gnomeInterface(textScalingFactor:fontName:monospaceFontName:)``
/// turning the values into settings, and its SettingChanged signal as ``changes()``.
public protocol DesktopSettingsProvider: Sendable {
    /// The source values from this provider are reported as (`.gnome`, `.gsettings`, `.kde`, `.xresources`; a ``LayeredSettingsProvider``: its first layer's).
    var source: TextScaleSource { get }

    /// Reads the current settings. Returns nil when this desktop is not in use or has no
    /// settings (no portal on the bus, no KDE files). Throws when it is in use but could not
    /// be read (a portal error reply, an unreadable file): the state then keeps the last good
    /// values from this provider and logs why.
    func currentSettings() async throws(FitScaleError) -> DesktopSettings?

    /// Files whose change may change the settings (KDE: kdeglobals, kcmfonts). The
    /// ``ChangeWatcher`` watches them and reports ``ChangeReason/desktop``. Default: none.
    var watchedFiles: [String] { get }

    /// Changes the provider learns of by itself, such as the portal's SettingChanged signal
    /// for the org.gnome.desktop.interface keys above. Each element means "read again"; the
    /// stream finishes when the provider stops. Default: a stream that finishes at once.
    func changes() -> AsyncStream<Void>
}

extension DesktopSettingsProvider {
    public var watchedFiles: [String] { [] }

    public func changes() -> AsyncStream<Void> {
        AsyncStream { $0.finish() }
    }
}
