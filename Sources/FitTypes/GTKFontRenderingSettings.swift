/// The GtkSettings a user (or a desktop's settings tool) sets that change how GTK 4 sets up a
/// label's Pango context, and so the sizes it measures: nil where nothing sets them, and the
/// GTK line's own default applies (``ToolkitProfile/rendering``).
///
/// `gtk-hint-font-metrics` (GTK 4.6 and later; gtk/gtkwidget.c,
/// `gtk_widget_update_pango_context`; gtk/gtksettings.c, `settings_update_font_options`): cairo's
/// hint metrics, and with cairo ≥ 1.17.4 also whether glyph positions are rounded. GTK 4.8.3
/// with `gtk-hint-font-metrics=true` in settings.ini was seen to draw DejaVu Sans 10 labels
/// 17 px high instead of 16 (Tests/oracle/gtk_compare.py, settings "hint-metrics"). Which GTK
/// lines read it: ``ToolkitProfile/with(_:)``.
public struct GTKFontRenderingSettings: Hashable, Sendable, CustomStringConvertible {
    public var hintFontMetrics: Bool?

    public init(hintFontMetrics: Bool? = nil) {
        self.hintFontMetrics = hintFontMetrics
    }

    /// Nothing set: every GTK line's defaults.
    public static let unset = GTKFontRenderingSettings()

    public var isUnset: Bool { hintFontMetrics == nil }

    /// What of these the default toolkit (``ToolkitProfile/gtk4``, the installed GTK 4) reads:
    /// the `ToolkitSettings` property.
    public var readByDefaultToolkit: GTKFontRenderingSettings { ToolkitProfile.gtk4.with(self).settings }

    /// `gtk-hint-font-metrics=true`, as settings.ini says it; empty when nothing is set.
    public var description: String {
        hintFontMetrics.map { "gtk-hint-font-metrics=\($0)" } ?? ""
    }

    /// Parses ``description`` back ("" is ``unset``); nil for anything else.
    public init?(description: String) {
        self = .unset
        guard !description.isEmpty else { return }
        let pair = description.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, pair[0].trimmingSpaces() == "gtk-hint-font-metrics",
            let hinted = Self.keyFileBoolean(String(pair[1]))
        else { return nil }
        hintFontMetrics = hinted
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
}
