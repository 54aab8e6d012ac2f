/// The user's preferred text size as one of the 12 content size categories of Dynamic Type,
/// smallest first; `large` is the default. The one spelling fitd writes (on the bus, in layout
/// documents, in fitctl's output) is SwiftUI's `ContentSizeCategory` case names
/// (https://developer.apple.com/documentation/swiftui/contentsizecategory). FitScale derives
/// the category from the text scale and adds Apple's size table; the layout engine compares
/// categories (a `threshold`'s `category`).
public enum SizeCategory: DynamicTypeName, Comparable {
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

    /// True from accessibilityMedium up (AX1…AX5 in Apple's table), as SwiftUI's
    /// `ContentSizeCategory.isAccessibilityCategory`.
    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }

    /// Position in the order xSmall … accessibilityExtraExtraExtraLarge (0…11).
    public var index: Int { SizeCategory.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: SizeCategory, rhs: SizeCategory) -> Bool { lhs.index < rhs.index }

    /// The name fitd writes: SwiftUI's case name ("xxLarge", "accessibilityMedium").
    public var name: String {
        switch self {
        case .xSmall: return "xSmall"
        case .small: return "small"
        case .medium: return "medium"
        case .large: return "large"
        case .xLarge: return "xLarge"
        case .xxLarge: return "xxLarge"
        case .xxxLarge: return "xxxLarge"
        case .accessibilityMedium: return "accessibilityMedium"
        case .accessibilityLarge: return "accessibilityLarge"
        case .accessibilityExtraLarge: return "accessibilityExtraLarge"
        case .accessibilityExtraExtraLarge: return "accessibilityExtraExtraLarge"
        case .accessibilityExtraExtraExtraLarge: return "accessibilityExtraExtraExtraLarge"
        }
    }

    public static let vocabulary = DynamicTypeVocabulary<SizeCategory>(canonical: allCases.map { ($0.name, $0) }, aliases: [
        ("ax1", .accessibilityMedium), ("ax2", .accessibilityLarge), ("ax3", .accessibilityExtraLarge),
        ("ax4", .accessibilityExtraExtraLarge), ("ax5", .accessibilityExtraExtraExtraLarge),
        ("accessibility1", .accessibilityMedium), ("accessibility2", .accessibilityLarge),
        ("accessibility3", .accessibilityExtraLarge), ("accessibility4", .accessibilityExtraExtraLarge),
        ("accessibility5", .accessibilityExtraExtraExtraLarge),
        ("extraSmall", .xSmall), ("extraLarge", .xLarge), ("extraExtraLarge", .xxLarge),
        ("extraExtraExtraLarge", .xxxLarge),
    ])

    public static let kind = "size category"
}
