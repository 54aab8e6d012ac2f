#if canImport(Glibc)
import Glibc
#endif

/// The 12 content size categories of Apple's Dynamic Type (UIContentSizeCategory /
/// SwiftUI's DynamicTypeSize), smallest first. `large` is the default.
///
/// fitd derives the category from the user's text scale: the category whose body size on
/// Apple's table (``DynamicTypeTable``) is nearest to 17 pt × scale, measured in log space
/// (so 1.25× and 0.8× are equally far from 1×).
public enum SizeCategory: String, CaseIterable, Comparable, Hashable, Sendable, CustomStringConvertible {
    case xSmall
    case small
    case medium
    case large
    case xLarge
    case xxLarge
    case xxxLarge
    case accessibilityMedium
    case accessibilityLarge
    case accessibilityExtraLarge
    case accessibilityExtraExtraLarge
    case accessibilityExtraExtraExtraLarge

    /// The default category: body at 17 pt, a text scale of 1.
    public static let `default`: SizeCategory = .large

    /// The five larger accessibility sizes (AX1…AX5 in Apple's table).
    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }

    /// Position in the order xSmall … accessibilityExtraExtraExtraLarge (0…11).
    public var index: Int { SizeCategory.allCases.firstIndex(of: self)! }

    public static func < (lhs: SizeCategory, rhs: SizeCategory) -> Bool { lhs.index < rhs.index }

    public var description: String { rawValue }

    /// Body text size in points on Apple's iOS table (14 … 53).
    public var bodyPointSize: Double { DynamicTypeTable.metrics(.body, self).size }

    /// The text scale this category stands for: body size over the default 17 pt.
    public var nominalScale: Double { bodyPointSize / DynamicTypeTable.defaultBodySize }

    /// Parses a raw value case-insensitively ("xxlarge", "accessibilityMedium"), also Apple's
    /// short names for the accessibility sizes ("ax1" … "ax5").
    public init?(name: String) {
        let lowered = name.lowercased()
        if let match = SizeCategory.allCases.first(where: { $0.rawValue.lowercased() == lowered }) {
            self = match
            return
        }
        switch lowered {
        case "ax1": self = .accessibilityMedium
        case "ax2": self = .accessibilityLarge
        case "ax3": self = .accessibilityExtraLarge
        case "ax4": self = .accessibilityExtraExtraLarge
        case "ax5": self = .accessibilityExtraExtraExtraLarge
        default: return nil
        }
    }

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
