/// The GtkSettings a user (or a desktop's settings tool) sets that change how GTK 4 sets up a
/// label's Pango context, and so the sizes it measures: nil where nothing sets them, and the
/// GTK line's own default applies (``ToolkitProfile/rendering``).
///
/// - `gtk-hint-font-metrics` (GTK 4.6 and later): cairo's hint metrics, and with cairo ≥
///   1.17.4 also whether glyph positions are rounded (gtk/gtkwidget.c,
///   `gtk_widget_update_pango_context`; gtk/gtksettings.c, `settings_update_font_options`).
///   GTK 4.8.3 with `gtk-hint-font-metrics=true` in settings.ini was seen to draw DejaVu Sans
///   10 labels 17 px high instead of 16 (Tests/oracle/gtk_compare.py, settings "hint-metrics").
/// - `gtk-font-rendering` (GTK 4.16 and later): `automatic` (the default) lets GTK choose and
///   ignores `gtk-hint-font-metrics`; `manual` follows it (gtksettings.c, "gtk-font-rendering").
public struct GTKFontRenderingSettings: Hashable, Sendable, CustomStringConvertible {
    public enum FontRendering: String, Hashable, Sendable {
        case automatic, manual
    }

    public var hintFontMetrics: Bool?
    public var fontRendering: FontRendering?

    public init(hintFontMetrics: Bool? = nil, fontRendering: FontRendering? = nil) {
        self.hintFontMetrics = hintFontMetrics
        self.fontRendering = fontRendering
    }

    /// Nothing set: every GTK line's defaults.
    public static let unset = GTKFontRenderingSettings()

    public var isUnset: Bool { hintFontMetrics == nil && fontRendering == nil }

    /// `gtk-hint-font-metrics=true, gtk-font-rendering=manual`: what is set, as settings.ini
    /// says it; empty when nothing is.
    public var description: String {
        var parts: [String] = []
        if let hintFontMetrics { parts.append("gtk-hint-font-metrics=\(hintFontMetrics)") }
        if let fontRendering { parts.append("gtk-font-rendering=\(fontRendering.rawValue)") }
        return parts.joined(separator: ", ")
    }

    /// Parses ``description`` back ("gtk-hint-font-metrics=true, gtk-font-rendering=manual";
    /// "" is ``unset``); nil for anything else.
    public init?(description: String) {
        self = .unset
        for part in description.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            let (key, value) = (pair[0].trimmingSpaces(), String(pair[1]))
            switch key {
            case "gtk-hint-font-metrics":
                guard let hinted = Self.keyFileBoolean(value) else { return nil }
                hintFontMetrics = hinted
            case "gtk-font-rendering":
                guard let mode = Self.fontRendering(value) else { return nil }
                fontRendering = mode
            default: return nil
            }
        }
    }

    /// A GKeyFile boolean as GTK reads settings.ini (`g_key_file_get_boolean`: "true",
    /// "false", "1" or "0", white space around it allowed); nil for anything else, which GTK
    /// warns about and ignores.
    public static func keyFileBoolean(_ text: String) -> Bool? {
        switch text.trimmingSpaces() {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }

    /// A `GtkFontRendering` value as GTK parses an enum setting from a string (the nick, the
    /// full name, or the number, as GLib's enum transforms take them); nil otherwise.
    public static func fontRendering(_ text: String) -> FontRendering? {
        switch text.trimmingSpaces() {
        case "automatic", "GTK_FONT_RENDERING_AUTOMATIC", "0": return .automatic
        case "manual", "GTK_FONT_RENDERING_MANUAL", "1": return .manual
        default: return nil
        }
    }
}
