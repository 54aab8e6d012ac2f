import FitBus

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
