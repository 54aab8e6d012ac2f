import Foundation
import Testing

@testable import FitScale

@Suite struct SizeCategoryTests {
    @Test(arguments: [
        (1.0, SizeCategory.large), (1.25, .xxLarge), (0.8, .xSmall), (0.88, .small), (0.94, .medium),
        (1.1, .xLarge), (1.35, .xxxLarge), (1.4, .xxxLarge), (1.5, .accessibilityMedium), (1.65, .accessibilityMedium),
        (2.0, .accessibilityLarge), (2.3, .accessibilityExtraLarge), (2.8, .accessibilityExtraExtraLarge),
        (3.1, .accessibilityExtraExtraExtraLarge), (4.0, .accessibilityExtraExtraExtraLarge), (0.1, .xSmall),
    ])
    func categoryForScale(scale: Double, expected: SizeCategory) {
        #expect(SizeCategory(textScale: scale) == expected)
    }

    @Test func everyCategoryIsItsOwnNearest() {
        for category in SizeCategory.allCases {
            #expect(SizeCategory(textScale: category.nominalScale) == category)
        }
    }

    @Test func tiesInLogSpaceGoToTheSmallerCategory() {
        // Body 17 (large) and 19 (xLarge): the geometric mean is the tie.
        let tie = (17.0 * 19.0).squareRoot() / 17
        #expect(SizeCategory(textScale: tie) == .large)
        #expect(SizeCategory(textScale: tie * 1.000001) == .xLarge)
        // Log space, not linear: 17.99 pt is linearly nearer 19 than 17 only past 18.
        #expect(SizeCategory(textScale: 17.95 / 17) == .large)
        #expect(SizeCategory(textScale: 18.0 / 17) == .xLarge)
    }
}
