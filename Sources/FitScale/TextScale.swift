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
