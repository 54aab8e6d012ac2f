import FitTypes

/// Apple's published iOS / iPadOS Dynamic Type table: size and leading (line height) in points
/// for every text style in every content size category.
///
/// Source: Apple Human Interface Guidelines, "Typography" → "Specifications" →
/// "iOS, iPadOS Dynamic Type sizes" (xSmall … xxxLarge) and "iOS, iPadOS larger
/// accessibility type sizes" (AX1 … AX5),
/// https://developer.apple.com/design/human-interface-guidelines/typography#Specifications
/// (the revision of June 21, 2023, "Updated to include guidance for visionOS"). All 12 × 11
/// size/leading pairs were transcribed from that page's tables; the body column agrees with
/// the sizes UIFont.preferredFont(forTextStyle: .body) reports on iOS (14 … 53).
/// Weights: the table lists Headline as Semibold and every other style as Regular in every
/// category (the "Emphasized weight" column, bold() variants, is not used by fitd).
///
/// Apple's points are fitd's points: a style is resolved at
/// `size × uiFontSize / 17` (``TextStyleFont``), so body at `large` is the user's UI font.
public enum DynamicTypeTable {
    /// Body size at the default category (`large`) and the iOS default text size (HIG,
    /// "Ensuring legibility": iOS, iPadOS default 17 pt).
    public static let defaultBodySize: Double = 17

    /// The cell for `style` at `category`.
    public static func metrics(_ style: TextStyle, _ category: SizeCategory) -> TextStyleMetrics {
        let (size, leading) = rows[category.index][styleColumn(style)]
        return TextStyleMetrics(size: Double(size), leading: Double(leading), weight: style.weight)
    }

    private static func styleColumn(_ style: TextStyle) -> Int {
        switch style {
        case .largeTitle: return 0
        case .title: return 1
        case .title2: return 2
        case .title3: return 3
        case .headline: return 4
        case .body: return 5
        case .callout: return 6
        case .subheadline: return 7
        case .footnote: return 8
        case .caption: return 9
        case .caption2: return 10
        }
    }

    /// One row per category in ``SizeCategory`` order; columns: Large Title, Title 1, Title 2,
    /// Title 3, Headline, Body, Callout, Subhead, Footnote, Caption 1, Caption 2 —
    /// (size, leading) in points, as on the HIG page.
    private static let rows: [[(Int, Int)]] = [
        // xSmall
        [(31, 38), (25, 31), (19, 24), (17, 22), (14, 19), (14, 19), (13, 18), (12, 16), (12, 16), (11, 13), (11, 13)],
        // Small
        [(32, 39), (26, 32), (20, 25), (18, 23), (15, 20), (15, 20), (14, 19), (13, 18), (12, 16), (11, 13), (11, 13)],
        // Medium
        [(33, 40), (27, 33), (21, 26), (19, 24), (16, 21), (16, 21), (15, 20), (14, 19), (12, 16), (11, 13), (11, 13)],
        // Large (Default)
        [(34, 41), (28, 34), (22, 28), (20, 25), (17, 22), (17, 22), (16, 21), (15, 20), (13, 18), (12, 16), (11, 13)],
        // xLarge
        [(36, 43), (30, 37), (24, 30), (22, 28), (19, 24), (19, 24), (18, 23), (17, 22), (15, 20), (14, 19), (13, 18)],
        // xxLarge
        [(38, 46), (32, 39), (26, 32), (24, 30), (21, 26), (21, 26), (20, 25), (19, 24), (17, 22), (16, 21), (15, 20)],
        // xxxLarge
        [(40, 48), (34, 41), (28, 34), (26, 32), (23, 29), (23, 29), (22, 28), (21, 28), (19, 24), (18, 23), (17, 22)],
        // AX1
        [(44, 52), (38, 46), (34, 41), (31, 38), (28, 34), (28, 34), (26, 32), (25, 31), (23, 29), (22, 28), (20, 25)],
        // AX2
        [(48, 57), (43, 51), (39, 47), (37, 44), (33, 40), (33, 40), (32, 39), (30, 37), (27, 33), (26, 32), (24, 30)],
        // AX3
        [(52, 61), (48, 57), (44, 52), (43, 51), (40, 48), (40, 48), (38, 46), (36, 43), (33, 40), (32, 39), (29, 35)],
        // AX4
        [(56, 66), (53, 62), (50, 59), (49, 58), (47, 56), (47, 56), (44, 52), (42, 50), (38, 46), (37, 44), (34, 41)],
        // AX5
        [(60, 70), (58, 68), (56, 66), (55, 65), (53, 62), (53, 62), (51, 60), (49, 58), (44, 52), (43, 51), (40, 48)],
    ]
}
