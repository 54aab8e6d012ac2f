/// The 11 text styles of Apple's Dynamic Type (UIFont.TextStyle), largest first. Each has a
/// size, a leading (line height) and a weight per ``SizeCategory`` (``DynamicTypeTable``).
public enum TextStyle: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case largeTitle
    case title1
    case title2
    case title3
    case headline
    case body
    case callout
    case subheadline
    case footnote
    case caption1
    case caption2

    public var description: String { rawValue }

    /// The style's size, leading and weight at `category`, in Apple's points.
    public func metrics(at category: SizeCategory) -> TextStyleMetrics {
        DynamicTypeTable.metrics(self, category)
    }

    /// The weight Apple gives the style: semibold for headline, regular for the rest.
    public var weight: TextStyleWeight { self == .headline ? .semibold : .regular }

    /// Parses a style name case-insensitively: the raw values ("headline", "Title1"), plus
    /// SwiftUI's and the HIG's spellings ("title" = title1, "caption" = caption1,
    /// "subhead" = subheadline, "large-title"/"large_title"/"large title").
    public init?(name: some StringProtocol) {
        self.init(utf8: name.utf8)
    }

    /// The same from a name's UTF-8 bytes. Case and separators are folded byte by byte into
    /// one integer: this runs on every font string a client sends (is it a style?), so it
    /// must not allocate.
    init?(utf8 name: some Sequence<UInt8>) {
        guard let key = TextStyle.foldedKey(name), let match = TextStyle.byFoldedName[key] else { return nil }
        self = match
    }

    /// Up to 16 bytes, lowercased, without `-`, `_` and spaces, packed; nil when longer than
    /// every style name.
    private static func foldedKey(_ bytes: some Sequence<UInt8>) -> UInt128? {
        var key: UInt128 = 0
        var count = 0
        for byte in bytes where byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") && byte != UInt8(ascii: " ") {
            guard count < 16 else { return nil }
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            key |= UInt128(folded) << (8 * count)
            count += 1
        }
        return key
    }

    /// Folded names to styles, with the aliases.
    private static let byFoldedName: [UInt128: TextStyle] = {
        var table: [UInt128: TextStyle] = [:]
        let names = TextStyle.allCases.map { ($0.rawValue, $0) } + [("title", .title1), ("caption", .caption1), ("subhead", .subheadline)]
        for (name, style) in names {
            if let key = foldedKey(name.utf8) { table[key] = style }
        }
        return table
    }()
}

/// A text style's weight, with Pango's name for it (pango_font_description_to_string spells
/// PANGO_WEIGHT_SEMIBOLD "Semi-Bold") and the CSS / OpenType numeric weight.
public enum TextStyleWeight: String, Hashable, Sendable, CustomStringConvertible {
    case regular
    case semibold

    /// The word Pango writes in a font description; empty for regular (Pango omits "Normal").
    public var pangoName: String {
        switch self {
        case .regular: return ""
        case .semibold: return "Semi-Bold"
        }
    }

    /// OpenType usWeightClass / CSS font-weight (PANGO_WEIGHT_* has the same numbers).
    public var numericWeight: Int {
        switch self {
        case .regular: return 400
        case .semibold: return 600
        }
    }

    public var description: String { rawValue }
}

/// One cell of the Dynamic Type table: size and leading in points, and the weight.
public struct TextStyleMetrics: Hashable, Sendable {
    public var size: Double
    public var leading: Double
    public var weight: TextStyleWeight

    public init(size: Double, leading: Double, weight: TextStyleWeight) {
        self.size = size
        self.leading = leading
        self.weight = weight
    }
}
