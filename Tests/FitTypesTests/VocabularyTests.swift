import Testing

@testable import FitTypes

/// One parser per name: every canonical name reads back as its case, in any ASCII case and
/// with separators; the aliases (UIKit's, the HIG's, Apple's AX short names) read as the case
/// they stand for; nothing else parses.
@Suite struct VocabularyTests {
    @Test func everyCategoryRoundTripsThroughItsName() {
        #expect(SizeCategory.allCases.map(\.name) == [
            "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "accessibilityMedium",
            "accessibilityLarge", "accessibilityExtraLarge", "accessibilityExtraExtraLarge",
            "accessibilityExtraExtraExtraLarge",
        ])
        for category in SizeCategory.allCases {
            #expect(SizeCategory(name: category.name) == category)
            #expect(SizeCategory(name: category.name.uppercased()) == category)
            #expect(SizeCategory(utf8: Array(category.name.utf8)) == category)
            #expect("\(category)" == category.name)
        }
    }

    @Test func everyStyleRoundTripsThroughItsSwiftUIName() {
        #expect(TextStyle.allCases.map(\.name) == [
            "largeTitle", "title", "title2", "title3", "headline", "body", "callout", "subheadline", "footnote",
            "caption", "caption2",
        ])
        for style in TextStyle.allCases {
            #expect(TextStyle(name: style.name) == style)
            #expect(TextStyle(name: style.name.uppercased()) == style)
            #expect(TextStyle(utf8: Array(style.name.utf8)) == style)
            #expect("\(style)" == style.name)
        }
    }

    @Test func categoryAliasesParse() {
        let expected: [(String, SizeCategory)] = [
            ("ax1", .accessibilityMedium), ("AX2", .accessibilityLarge), ("Ax3", .accessibilityExtraLarge),
            ("ax4", .accessibilityExtraExtraLarge), ("ax5", .accessibilityExtraExtraExtraLarge),
            ("accessibility1", .accessibilityMedium), ("accessibility5", .accessibilityExtraExtraExtraLarge),
            ("extraSmall", .xSmall), ("extraExtraExtraLarge", .xxxLarge),
            ("xxlarge", .xxLarge), ("X-Large", .xLarge), ("accessibility_medium", .accessibilityMedium),
        ]
        for (name, category) in expected {
            #expect(SizeCategory(name: name) == category, "\(name)")
        }
        for alias in SizeCategory.aliases {
            #expect(SizeCategory(name: alias.name) == alias.value, "\(alias.name)")
        }
    }

    @Test func styleAliasesParse() {
        let expected: [(String, TextStyle)] = [
            ("title1", .title), ("Title 1", .title), ("caption1", .caption), ("CAPTION1", .caption),
            ("subhead", .subheadline), ("large-title", .largeTitle), ("Large_Title", .largeTitle),
            ("large title", .largeTitle), ("Headline", .headline),
        ]
        for (name, style) in expected {
            #expect(TextStyle(name: name) == style, "\(name)")
        }
        for alias in TextStyle.aliases {
            #expect(TextStyle(name: alias.name) == alias.value, "\(alias.name)")
        }
    }

    @Test func otherWordsAreNeitherCategoriesNorStyles() {
        for other in ["", "-", "huge", "ax0", "ax6", "xxxxLarge", "largelarge", "accessibility", "lärge", "large\u{0}"] {
            #expect(SizeCategory(name: other) == nil, "\(other)")
        }
        for other in ["", "DejaVu", "bodyx", "title4", "caption3", "a-very-long-name-indeed", "largeTitleLargeTitle", "bödy", "large"] {
            #expect(TextStyle(name: other) == nil, "\(other)")
        }
    }

    /// Aliases never shadow a canonical name or each other.
    @Test func namesAreUnambiguous() {
        let categoryNames = SizeCategory.allCases.map(\.name) + SizeCategory.aliases.map(\.name)
        let styleNames = TextStyle.allCases.map(\.name) + TextStyle.aliases.map(\.name)
        #expect(Set(categoryNames.compactMap { DynamicTypeFoldedName($0.utf8) }).count == categoryNames.count)
        #expect(Set(styleNames.compactMap { DynamicTypeFoldedName($0.utf8) }).count == styleNames.count)
    }

    @Test func orderAndAccessibility() {
        #expect(SizeCategory.allCases.map(\.index) == Array(0..<12))
        #expect(SizeCategory.xxxLarge < .accessibilityMedium)
        #expect(SizeCategory.allCases.filter(\.isAccessibilityCategory) == Array(SizeCategory.allCases.suffix(5)))
        #expect(SizeCategory.default == .large)
    }
}
