import FitBus

/// The text-scale part of the org.fitd.Fit1 contract (protocol/org.fitd.Fit1.xml): property
/// and method names, the reasons GenerationChanged carries, and GetTextStyles' rows.
public enum TextScaleNames {
    public static let textScale = "TextScale"
    public static let textScaleSource = "TextScaleSource"
    public static let sizeCategory = "SizeCategory"
    public static let dpi = "Dpi"
    public static let uiFont = "UIFont"
    public static let monospaceFont = "MonospaceFont"
    /// Where UIFont came from (a TextScaleSource: xsettings, settings.ini, gnome, …, default).
    public static let uiFontSource = "UIFontSource"
    /// The toolkit a measurement reproduces when it names none ("gtk-4.8": the GTK 4
    /// installed where fitd runs).
    public static let toolkit = "Toolkit"
    /// The user's GtkSettings that the toolkit of ``toolkit`` reads and that change its
    /// measurements ("gtk-hint-font-metrics=true"); empty when none is set.
    public static let toolkitSettings = "ToolkitSettings"
    public static let generation = "Generation"
    public static let resetTextScale = "ResetTextScale"
    public static let getTextStyles = "GetTextStyles"

    /// The properties a text-scale change can touch, in the order PropertiesChanged lists them.
    public static let properties = [textScale, textScaleSource, sizeCategory, dpi, uiFont, uiFontSource, monospaceFont, toolkitSettings]
}

/// Why the generation changed, as GenerationChanged's `reasons` spell it.
public enum GenerationReason: String, CaseIterable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A font was installed or removed (a watched font directory changed).
    case fonts
    /// fontconfig's configuration changed (a file, a config directory, the user's directory).
    case fontconfig
    /// The text scale, size category, UI or monospace font in force changed.
    case textScale = "text-scale"
    /// fitd's own config file ($XDG_CONFIG_HOME/fitd/fitd.conf) changed.
    case config
    /// The desktop's settings changed (the portal's SettingChanged, KDE's files).
    case desktop

    public var description: String { rawValue }

    public static func < (lhs: GenerationReason, rhs: GenerationReason) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One row of GetTextStyles: `(s style, s font, d point_size, d line_height)`.
public struct TextStyleRow: Sendable, Hashable {
    /// The style's name as fitd accepts it in a font string ("largeTitle", "body").
    public var style: String
    /// A Pango font description at the style's size ("DejaVu Sans Semi-Bold 13.59"); the size
    /// already includes the size category, so it is measured with a text scale of 1.
    public var font: String
    /// Font size in points.
    public var pointSize: Double
    /// Line height (Apple's leading) in CSS px at 96 dpi, like every length fitd returns.
    public var lineHeight: Double

    public init(style: String, font: String, pointSize: Double, lineHeight: Double) {
        self.style = style
        self.font = font
        self.pointSize = pointSize
        self.lineHeight = lineHeight
    }

    public static let signature = "(ssdd)"

    public var dbusValue: DBusValue {
        .structure([.string(style), .string(font), .double(pointSize), .double(lineHeight)])
    }

    public init(dbusValue value: DBusValue) throws(DBusError) {
        guard case .structure(let f) = value, f.count == 4, case .string(let style) = f[0], case .string(let font) = f[1],
            case .double(let size) = f[2], case .double(let height) = f[3]
        else { throw DBusError(.invalidArgs, "a text style row is not \(TextStyleRow.signature): \(value.signature)") }
        self.init(style: style, font: font, pointSize: size, lineHeight: height)
    }
}
