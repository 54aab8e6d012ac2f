/// Where the text scale (or a font) came from, in precedence order: an explicit setting made
/// through fitd wins over the user's fontconfig configuration, which wins over the desktop
/// (GNOME through the settings portal, else GSettings; or KDE's files), then X11's Xft.dpi;
/// else the default. The table is in docs/text-scale.md ("Precedence").
public enum TextScaleSource: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// `scale` in `[text]` of `$XDG_CONFIG_HOME/fitd/fitd.conf` (fitctl scale set, the
    /// TextScale property).
    case explicit
    /// `dpi` (over 96) and `scale` as fontconfig's configuration assigns them to a pattern.
    case fontconfig
    /// GNOME's org.gnome.desktop.interface keys, read through org.freedesktop.portal.Settings.
    case gnome
    /// GNOME's org.gnome.desktop.interface keys read through GSettings (dconf, or the backend
    /// GSETTINGS_BACKEND names) when no portal answers.
    case gsettings
    /// KDE's kdeglobals / kcmfonts.
    case kde
    /// X11's `Xft.dpi` resource (RESOURCE_MANAGER on the root window, what `xrdb -query`
    /// shows) over 96.
    case xresources
    /// Nothing set: 1.0, and fontconfig's system-ui / monospace match for fonts.
    case `default`

    public var description: String { rawValue }
}
