/// The user's preferred text size as one of SwiftUI's 12 content size categories
/// (`ContentSizeCategory`, UIKit's `UIContentSizeCategory`), smallest first. FitScale derives
/// the category from the text scale; the layout engine only compares categories (``threshold``).
/// The raw values are the SwiftUI case names, shared with FitScale and the wire format.
public enum ContentSizeCategory: String, CaseIterable, Comparable, Hashable, Sendable, Codable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge
    case accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge

    /// True from accessibilityMedium up, as SwiftUI's `ContentSizeCategory.isAccessibilityCategory`.
    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }

    /// Position in the list above, 0 for xSmall.
    public var ordinal: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.ordinal < rhs.ordinal }
}

/// The 11 Dynamic Type text styles (SwiftUI `Font.TextStyle`), largest first. The measurer
/// turns a style and a size category into a font; the layout engine only passes them on.
public enum TextStyle: String, CaseIterable, Hashable, Sendable, Codable {
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
}

/// Which font a text is measured in.
public enum LayoutFont: Hashable, Sendable {
    /// The measurer's default font (the desktop's UI font, or the terminal's).
    case `default`
    /// A Pango font description, e.g. "Noto Sans Bold 12".
    case description(String)
    /// A Dynamic Type style, sized for the layout's size category.
    case style(TextStyle)
}
