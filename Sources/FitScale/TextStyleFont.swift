import FitTypes

/// A text style resolved to a font: the user's UI font family at the style's size for a
/// category, scaled so that body at `large` is the UI font's size.
public struct ResolvedTextStyleFont: Hashable, Sendable, CustomStringConvertible {
    public var style: TextStyle
    public var category: SizeCategory
    public var family: String
    public var weight: TextStyleWeight
    /// Font size in points: table size × (UI font size / 17), to 1/100 pt.
    public var pointSize: Double
    /// Line height in points: table leading × (UI font size / 17), to 1/100 pt.
    public var lineHeight: Double

    /// Pango font description, "DejaVu Sans Semi-Bold 11.5".
    public var pangoDescription: String {
        PangoDescription.format(family: family, weight: weight, pointSize: pointSize)
    }

    /// The size in points for a text engine that multiplies every description's size by the
    /// text scale (docs/text-scale.md: px = pt × 96/72 × text scale). The category already carries the
    /// scale, so such an engine must be given `pointSize / scale` or the scale counts twice.
    public func pointSize(beforeTextScale scale: TextScale) -> Double { pointSize / scale.factor }

    /// Line height in CSS px (96 dpi), as fitd's results report lengths.
    public var lineHeightPixels: Double { lineHeight * 96 / 72 }

    public var description: String { "\(style) at \(category): \(pangoDescription), line height \(PangoDescription.formatSize(lineHeight)) pt" }
}

/// Lets a text style stand wherever a font is accepted (`--font body`, `"font": "headline"`):
/// a style name, case-insensitive, optionally followed by a size category that overrides the
/// user's ("headline", "Body", "title accessibilityLarge", "caption ax2"); any name
/// TextStyle(name:) and SizeCategory(name:) read.
public enum TextStyleFont {
    /// Resolves `style` for `uiFont` at `category`.
    public static func resolve(_ style: TextStyle, uiFont: UIFont, category: SizeCategory) -> ResolvedTextStyleFont {
        let metrics = style.metrics(at: category)
        let factor = uiFont.pointSize / DynamicTypeTable.defaultBodySize
        return ResolvedTextStyleFont(
            style: style, category: category, family: uiFont.family, weight: metrics.weight,
            pointSize: roundedToHundredths(metrics.size * factor),
            lineHeight: roundedToHundredths(metrics.leading * factor))
    }

    /// Resolves a font string if it names a text style. Returns nil when the first word is
    /// not a style name — the caller then treats the string as a Pango font description.
    /// Throws ``FitScaleError/unknownSizeCategory(_:)`` for a style followed by anything other
    /// than one category name.
    public static func resolve(_ text: String, uiFont: UIFont, category: SizeCategory) throws(FitScaleError) -> ResolvedTextStyleFont? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first, let style = TextStyle(name: first) else { return nil }
        var chosen = category
        if words.count > 1 {
            let rest = words.dropFirst().joined(separator: " ")
            guard words.count == 2, let override = SizeCategory(name: words[1]) else {
                throw .unknownSizeCategory(rest)
            }
            chosen = override
        }
        return resolve(style, uiFont: uiFont, category: chosen)
    }

    /// Resolves against a state snapshot: its UI font and category.
    public static func resolve(_ text: String, in snapshot: TextScaleSnapshot) throws(FitScaleError) -> ResolvedTextStyleFont? {
        try resolve(text, uiFont: snapshot.uiFont, category: snapshot.category)
    }

    /// Every style at `category`, largest first (for `fitctl scale`).
    public static func table(uiFont: UIFont, category: SizeCategory) -> [ResolvedTextStyleFont] {
        TextStyle.allCases.map { resolve($0, uiFont: uiFont, category: category) }
    }

    private static func roundedToHundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}

extension TextStyleFont {
    /// The UI font a request resolves an empty font and text styles against: the one it names
    /// itself (the `ui_font` option, as a Layout's), else the user's. Fails with the message a
    /// caller puts in its error when the named one is no Pango description with a family.
    public static func uiFont(requested: String?, user: UIFont) -> Result<UIFont, UIFontOptionError> {
        guard let requested else { return .success(user) }
        guard let font = UIFont(pangoDescription: requested, source: .explicit) else {
            return .failure(UIFontOptionError(description: requested))
        }
        return .success(font)
    }

    public struct UIFontOptionError: Error, CustomStringConvertible {
        public let description: String
        init(description requested: String) {
            description = "ui_font \"\(requested)\" is not a Pango font description with a family, such as \"Cantarell 11\""
        }
    }

    /// What the engine should measure for a font string that may name a text style ("body",
    /// "headline accessibilityLarge"): the style's Pango description at the category the text
    /// scale gives, measured at text scale 1 — the category already carries the user's scale,
    /// so applying it again would count it twice. Nil when the string is not a style (it is a
    /// Pango description then). Shared by the daemon and FitClient's in-process mode so both
    /// read fonts alike.
    /// An empty font is the UI font: what GTK draws a label with no font of its own in.
    public static func engineFont(_ font: String, uiFont: UIFont, textScale: Double) throws(FitScaleError) -> (font: String, textScale: Double)? {
        if font.isEmpty { return (uiFont.pangoDescription, textScale) }
        // Cheap test before splitting: style names start with an ASCII letter and are short.
        guard font.utf8.count <= 64, let first = font.utf8.first,
            (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z")
        else { return nil }
        // Most font strings are Pango descriptions: the first word settles it before any work.
        guard TextStyle(utf8: font.utf8.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) != nil else { return nil }
        guard let style = try resolve(font, uiFont: uiFont, category: SizeCategory(textScale: textScale)) else { return nil }
        return (style.pangoDescription, 1)
    }
}
