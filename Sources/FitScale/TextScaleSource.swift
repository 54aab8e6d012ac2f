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
    /// The X11 XSETTINGS manager's `Gtk/FontName` and `Xft/DPI` (gsd-xsettings, xsettingsd,
    /// xfsettingsd), what GTK on X11 reads first (gdk/x11/gdksettings.c).
    case xsettings
    /// GTK's settings.ini files (`gtk-font-name`, `gtk-xft-dpi`), read as GTK reads them
    /// (gtksettings.c); what kde-gtk-config and nwg-look write.
    case gtkSettings = "settings.ini"
    /// X11's `Xft.dpi` resource (RESOURCE_MANAGER on the root window, what `xrdb -query`
    /// shows) over 96.
    case xresources
    /// Nothing set: 1.0; GTK's built-in `Sans 10` for the UI font, fontconfig's monospace match.
    case `default`

    public var description: String { rawValue }
}
