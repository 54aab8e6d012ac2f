import FitTypes

/// A validated text-scale factor: a number in (0, 4]. 1 is the default size; 1.25 is what a
/// fontconfig dpi of 120 (over 96) or GNOME's "Large Text" gives.
public struct TextScale: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Upper bound: GNOME's text-scaling-factor goes to 3, Apple's largest body size is
    /// 53/17 ≈ 3.1; 4 leaves room without letting a typo (12 for 1.2) make text unusable.
    public static let maximum: Double = 4

    /// The default factor.
    public static let identity = TextScale(unchecked: 1)

    public let factor: Double

    /// Throws ``FitScaleError/invalidScale(_:)`` for 0, negatives, NaN, infinities and values
    /// above ``maximum``.
    public init(_ factor: Double) throws(FitScaleError) {
        guard factor.isFinite, factor > 0, factor <= TextScale.maximum else {
            throw .invalidScale(factor)
        }
        self.factor = factor
    }

    private init(unchecked factor: Double) { self.factor = factor }

    /// The text scales a desktop source (the settings portal, GSettings, KDE's forceFontDPI,
    /// XSETTINGS, Xft.dpi) may set: the range fitd measures at (FitTypes' TextLimits.textScaleRange,
    /// which FitScale does not link; ScaleServiceTests checks the two agree), the range an
    /// explicit setting is measured within.
    public static let desktopRange: ClosedRange<Double> = 0.25...4

    /// A desktop source's scale when it is finite and within ``desktopRange``, else why it is
    /// passed over (naming the source, the setting and the value). Ignored, not clamped, as
    /// GNOME itself does: its schema gives text-scaling-factor a range, 0.5–3.0
    /// (gsettings-desktop-schemas, schemas/org.gnome.desktop.interface.gschema.xml.in), and GIO
    /// reads a stored value outside a key's range as unset (gio/gsettings.c,
    /// g_settings_read_from_backend through g_settings_schema_key_range_fixup; seen with GLib
    /// 2.74: g_settings_get_user_value returns NULL for 1e-300), so GTK falls back to its
    /// default, not to the nearest end. A value that far out is a broken or hostile source,
    /// not a size the user chose; the next source, or 1, decides.
    public static func desktop(_ factor: Double, source: TextScaleSource, setting: String) -> Result<Double, FitScaleError> {
        guard factor.isFinite, desktopRange.contains(factor) else {
            return .failure(.desktopSettings(
                source: source,
                reason: "\(setting) gives a text scale of \(factor), outside \(desktopRange.lowerBound.formatted)…\(desktopRange.upperBound.formatted), so the next source decides"))
        }
        return .success(factor)
    }

    /// The size category this scale falls in (``SizeCategory/init(textScale:)``).
    public var category: SizeCategory { SizeCategory(textScale: factor) }

    public static func < (lhs: TextScale, rhs: TextScale) -> Bool { lhs.factor < rhs.factor }

    public var description: String { factor.formatted }
}

extension Double {
    /// Shortest decimal form for config files and messages: "1.25", "1", "0.8".
    var formatted: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int(self)) }
        return "\(self)"
    }
}
