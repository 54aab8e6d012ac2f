import FitTypes

/// Apple's Dynamic Type table for the styles FitTypes names: each has a size, a leading (line
/// height) and a weight per ``SizeCategory`` (``DynamicTypeTable``).
extension TextStyle {
    /// The style's size, leading and weight at `category`, in Apple's points.
    public func metrics(at category: SizeCategory) -> TextStyleMetrics {
        DynamicTypeTable.metrics(self, category)
    }

    /// The weight Apple gives the style: semibold for headline, regular for the rest.
    public var weight: TextStyleWeight { self == .headline ? .semibold : .regular }
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
