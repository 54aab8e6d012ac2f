#if canImport(Glibc)
import Glibc
#endif
import FitTypes

/// Dynamic Type's sizes for the categories FitTypes names.
///
/// fitd derives the category from the user's text scale: the category whose body size on
/// Apple's table (``DynamicTypeTable``) is nearest to 17 pt × scale, measured in log space
/// (so 1.25× and 0.8× are equally far from 1×).
extension SizeCategory {
    /// Body text size in points on Apple's iOS table (14 … 53).
    public var bodyPointSize: Double { DynamicTypeTable.metrics(.body, self).size }

    /// The text scale this category stands for: body size over the default 17 pt.
    public var nominalScale: Double { bodyPointSize / DynamicTypeTable.defaultBodySize }

    /// The category for a text scale: the one whose body size is nearest to 17 pt × `scale`
    /// in log space. Scales beyond the table clamp to xSmall / accessibilityExtraExtraExtraLarge.
    ///
    /// Ties (a scale exactly at the geometric mean of two neighbouring body sizes, e.g.
    /// √(17·19)/17 between large and xLarge) go to the SMALLER category: a user is never shown
    /// a step more than asked for. A scale that is not a finite positive number gives `large`
    /// (``TextScale`` rejects such values before they get here).
    public init(textScale scale: Double) {
        guard scale.isFinite, scale > 0 else {
            self = .default
            return
        }
        let target = (DynamicTypeTable.defaultBodySize * scale).logValue
        var best = SizeCategory.xSmall
        var bestDistance = Double.infinity
        for category in SizeCategory.allCases {
            let distance = abs(category.bodyPointSize.logValue - target)
            // Strictly less: on a tie the earlier (smaller) category stays.
            if distance < bestDistance - 1e-12 {
                best = category
                bestDistance = distance
            }
        }
        self = best
    }
}

extension Double {
    fileprivate var logValue: Double { log(self) }
}
