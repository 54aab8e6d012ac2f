/// A font family at a size in points: the user's UI (or monospace) font as the desktop or
/// fontconfig names it. Text styles scale from it (``TextStyleFont``).
public struct UIFont: Hashable, Sendable, CustomStringConvertible {
    /// Family name as fontconfig knows it ("DejaVu Sans", "Cantarell").
    public var family: String
    /// Size in points (Pango's unit in a font description).
    public var pointSize: Double
    /// Where this font came from.
    public var source: TextScaleSource

    /// The size used when a source names a family but no usable size: GNOME's default
    /// font-name is "Cantarell 11"; Pango's own default is 10 pt.
    public static let fallbackPointSize: Double = 11

    public init(family: String, pointSize: Double, source: TextScaleSource) {
        self.family = family
        self.pointSize = pointSize
        self.source = source
    }

    /// A Pango font description string, "DejaVu Sans 11".
    public var pangoDescription: String {
        PangoDescription.format(family: family, weight: .regular, pointSize: pointSize)
    }

    public var description: String { "\(pangoDescription) (\(source))" }

    /// Parses a Pango font description as GNOME stores it in `font-name` /
    /// `monospace-font-name` ("Cantarell 11", "Noto Sans Bold 10", "Source Code Pro 10.5"):
    /// the last word is the size when it is a number; style and weight words before it are
    /// dropped (the UI font's family is what text styles use; their weight is their own).
    /// Returns nil for an empty family or a size that is not a positive finite number.
    public init?(pangoDescription text: String, source: TextScaleSource) {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        var size = UIFont.fallbackPointSize
        if let last = words.last, let value = Double(last.hasSuffix("px") ? String(last.dropLast(2)) : last) {
            guard value.isFinite, value > 0, value <= 1000 else { return nil }
            // Pango sizes ending in "px" are pixels at 96 dpi: 72/96 pt per px.
            size = last.hasSuffix("px") ? value * 72 / 96 : value
            words.removeLast()
        }
        while let last = words.last, PangoDescription.styleWords.contains(last.lowercased()), words.count > 1 {
            words.removeLast()
        }
        var family = words.joined(separator: " ")
        if family.hasSuffix(",") { family.removeLast() }
        // A family list ("Cantarell, Sans 11"): the first is the one the desktop asked for.
        if let comma = family.firstIndex(of: ",") { family = String(family[..<comma]) }
        family = family.trimmingBlanks()
        guard !family.isEmpty else { return nil }
        self.init(family: family, pointSize: size, source: source)
    }

    /// Parses Qt's QFont::toString() form that KDE writes in kdeglobals
    /// ("Noto Sans,10,-1,5,50,0,0,0,0,0" — family, point size, pixel size, …).
    /// Returns nil without a family or with a point size that is not positive (Qt writes -1
    /// when the font was given in pixels; then the pixel size at 96 dpi is used).
    public init?(qtFontString text: String, source: TextScaleSource) {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingBlanks()
        }
        guard let family = fields.first, !family.isEmpty else { return nil }
        var size: Double?
        if fields.count > 1, let points = Double(fields[1]), points.isFinite, points > 0, points <= 1000 {
            size = points
        } else if fields.count > 2, let pixels = Double(fields[2]), pixels.isFinite, pixels > 0, pixels <= 1000 {
            size = pixels * 72 / 96
        }
        guard let size else { return nil }
        self.init(family: family, pointSize: size, source: source)
    }
}

/// Pango's font-description string syntax ("[FAMILY-LIST] [STYLE-OPTIONS] [SIZE]", see
/// pango_font_description_from_string) as far as fitd writes and reads it.
enum PangoDescription {
    /// Style, variant, weight, stretch and gravity words Pango recognises (lowercased).
    static let styleWords: Set<String> = [
        "normal", "roman", "oblique", "italic", "small-caps", "all-small-caps", "petite-caps",
        "all-petite-caps", "unicase", "title-caps", "thin", "ultra-light", "extra-light", "light",
        "semi-light", "demi-light", "book", "regular", "medium", "semi-bold", "demi-bold",
        "bold", "ultra-bold", "extra-bold", "heavy", "black", "ultra-heavy", "ultra-black",
        "ultra-condensed", "extra-condensed", "condensed", "semi-condensed", "semi-expanded",
        "expanded", "extra-expanded", "ultra-expanded", "not-rotated", "south", "upside-down",
        "north", "rotated-left", "east", "rotated-right", "west", "semibold", "demibold",
        "ultralight", "extralight", "semilight", "ultrabold", "extrabold",
    ]

    /// "Family [Weight] Size" with the size to 1/100 pt. A family whose last word Pango would
    /// read as a style word or a size gets a trailing comma, as pango_font_description_to_string
    /// does, so the string parses back to the same family.
    static func format(family: String, weight: TextStyleWeight, pointSize: Double) -> String {
        var familyPart = family
        if let last = family.split(separator: " ").last,
            styleWords.contains(last.lowercased()) || Double(last) != nil
        {
            familyPart += ","
        }
        var parts = [familyPart]
        if !weight.pangoName.isEmpty { parts.append(weight.pangoName) }
        parts.append(formatSize(pointSize))
        return parts.joined(separator: " ")
    }

    /// 1/100 pt is finer than Pango's 1/1024 pt steps matter for UI text; trailing zeros go.
    static func formatSize(_ size: Double) -> String {
        let hundredths = (size * 100).rounded()
        let whole = Int(hundredths) / 100
        let fraction = Int(hundredths) % 100
        if fraction == 0 { return String(whole) }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

extension String {
    func trimmingBlanks() -> String {
        var slice = Substring(self)
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
