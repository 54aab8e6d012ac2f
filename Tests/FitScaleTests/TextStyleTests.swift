import Testing

@testable import FitScale

@Suite struct TextStyleTests {
    @Test func tableMatchesApplesPublishedValues() {
        #expect(TextStyle.allCases.count == 11)
        // Body column (UIFont.preferredFont(forTextStyle: .body) on iOS: 14 … 53).
        #expect(SizeCategory.allCases.map(\.bodyPointSize) == [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53])
        #expect(TextStyle.largeTitle.metrics(at: .large) == TextStyleMetrics(size: 34, leading: 41, weight: .regular))
        #expect(TextStyle.headline.metrics(at: .large) == TextStyleMetrics(size: 17, leading: 22, weight: .semibold))
        #expect(TextStyle.subheadline.metrics(at: .xxxLarge) == TextStyleMetrics(size: 21, leading: 28, weight: .regular))
        #expect(TextStyle.caption2.metrics(at: .accessibilityExtraExtraExtraLarge) == TextStyleMetrics(size: 40, leading: 48, weight: .regular))
        #expect(TextStyle.title3.metrics(at: .xSmall) == TextStyleMetrics(size: 17, leading: 22, weight: .regular))
        #expect(TextStyle.footnote.metrics(at: .accessibilityLarge) == TextStyleMetrics(size: 27, leading: 33, weight: .regular))
    }

    @Test func sizesNeverShrinkAsCategoriesGrowAndHeadingsGrowLess() {
        for style in TextStyle.allCases {
            let sizes = SizeCategory.allCases.map { style.metrics(at: $0).size }
            #expect(sizes == sizes.sorted(), "\(style)")
            for category in SizeCategory.allCases {
                #expect(style.metrics(at: category).leading >= style.metrics(at: category).size)
            }
        }
        // Headings grow less than body: large title ×1.76 from large to AX5, body ×3.1.
        let titleGrowth = TextStyle.largeTitle.metrics(at: .accessibilityExtraExtraExtraLarge).size / 34
        let bodyGrowth = TextStyle.body.metrics(at: .accessibilityExtraExtraExtraLarge).size / 17
        #expect(titleGrowth < bodyGrowth)
    }

    @Test func onlyHeadlineIsSemibold() {
        for style in TextStyle.allCases {
            #expect(style.weight == (style == .headline ? .semibold : .regular))
        }
    }

    @Test func resolvesStyleNamesToPangoDescriptions() throws {
        let ui = UIFont(family: "DejaVu Sans", pointSize: 11, source: .fontconfig)
        let headline = try #require(try TextStyleFont.resolve("headline", uiFont: ui, category: .large))
        #expect(headline.pangoDescription == "DejaVu Sans Semi-Bold 11")
        #expect(headline.lineHeight == 14.24)  // 22 × 11/17
        let body = try #require(try TextStyleFont.resolve("Body", uiFont: ui, category: .large))
        #expect(body.pangoDescription == "DejaVu Sans 11")
        #expect(body.pointSize == ui.pointSize)
        let big = try #require(try TextStyleFont.resolve("TITLE1 accessibilityLarge", uiFont: ui, category: .large))
        #expect(big.category == .accessibilityLarge)
        #expect(big.pointSize == 27.82)  // 43 × 11/17
        let caption = try #require(try TextStyleFont.resolve("caption", uiFont: ui, category: .xxLarge))
        #expect(caption.style == .caption)
        #expect(caption.pangoDescription == "DejaVu Sans 10.35")  // 16 × 11/17
        let semibold = try #require(try TextStyleFont.resolve("headline", uiFont: UIFont(family: "DejaVu Sans", pointSize: 11.5, source: .gnome), category: .large))
        #expect(semibold.pangoDescription == "DejaVu Sans Semi-Bold 11.5")
    }

    @Test func fontDescriptionsThatAreNotStylesPassThrough() throws {
        let ui = UIFont(family: "DejaVu Sans", pointSize: 11, source: .fontconfig)
        #expect(try TextStyleFont.resolve("DejaVu Sans 12", uiFont: ui, category: .large) == nil)
        #expect(try TextStyleFont.resolve("", uiFont: ui, category: .large) == nil)
        #expect(throws: FitScaleError.unknownSizeCategory("huge")) {
            try TextStyleFont.resolve("body huge", uiFont: ui, category: .large)
        }
    }

    @Test func familyThatEndsLikeAStyleWordKeepsItsComma() {
        let font = TextStyleFont.resolve(.body, uiFont: UIFont(family: "Foo Bold", pointSize: 10, source: .kde), category: .large)
        #expect(font.pangoDescription == "Foo Bold, 10")
    }

    @Test func textScaleRange() {
        for bad in [0, -1, .nan, .infinity, 4.0001, 12] as [Double] {
            #expect(throws: FitScaleError.self) { try TextScale(bad) }
            let message = (try? TextScale(bad)).map { _ in "" } ?? "\(FitScaleError.invalidScale(bad))"
            #expect(message.contains("(0, 4]"))
        }
        #expect(throws: Never.self) { try TextScale(4) }
        #expect(throws: Never.self) { try TextScale(0.01) }
    }

    @Test func parsesDesktopFontNames() throws {
        let gnome = try #require(UIFont(pangoDescription: "Cantarell 11", source: .gnome))
        #expect(gnome.family == "Cantarell" && gnome.pointSize == 11)
        let styled = try #require(UIFont(pangoDescription: "Noto Sans Bold 10.5", source: .gnome))
        #expect(styled.family == "Noto Sans" && styled.pointSize == 10.5)
        let kde = try #require(UIFont(qtFontString: "Noto Sans,10,-1,5,50,0,0,0,0,0", source: .kde))
        #expect(kde.family == "Noto Sans" && kde.pointSize == 10)
        #expect(UIFont(pangoDescription: "", source: .gnome) == nil)
        #expect(UIFont(qtFontString: ",10", source: .kde) == nil)
    }
}
