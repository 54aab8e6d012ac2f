/// The 11 text styles of Dynamic Type, in the order of Apple's size table (largest first,
/// but for headline, which is body in semibold). The one spelling fitd writes is SwiftUI's
/// `Font.TextStyle` case names (https://developer.apple.com/documentation/swiftui/font/textstyle):
/// `title` and `caption` where UIKit's `UIFont.TextStyle` says title1 and caption1. FitScale
/// adds each style's size, leading and weight per ``SizeCategory``.
public enum TextStyle: DynamicTypeName {
    case largeTitle
    case title
    case title2
    case title3
    case headline
    case body
    case callout
    case subheadline
    case footnote
    case caption
    case caption2

    /// The name fitd writes: SwiftUI's case name.
    public var name: String {
        switch self {
        case .largeTitle: return "largeTitle"
        case .title: return "title"
        case .title2: return "title2"
        case .title3: return "title3"
        case .headline: return "headline"
        case .body: return "body"
        case .callout: return "callout"
        case .subheadline: return "subheadline"
        case .footnote: return "footnote"
        case .caption: return "caption"
        case .caption2: return "caption2"
        }
    }

    /// Read besides the canonical names: UIKit's `UIFont.TextStyle` spellings (title1, caption1,
    /// https://developer.apple.com/documentation/uikit/uifont/textstyle) and the HIG's
    /// "Subhead". With separators ignored, the HIG's "Large Title" and "Title 1" parse too.
    public static let vocabulary = DynamicTypeVocabulary<TextStyle>(canonical: allCases.map { ($0.name, $0) }, aliases: [
        ("title1", .title), ("caption1", .caption), ("subhead", .subheadline),
    ])

    public static let kind = "text style"
}
