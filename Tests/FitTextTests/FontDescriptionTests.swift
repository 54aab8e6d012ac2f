import Testing

@testable import FitText

/// Pango's font description syntax, "[FAMILY-LIST] [STYLE-OPTIONS] [SIZE]"
/// (pango_font_description_from_string, pango/fonts.c).
@Suite struct FontDescriptionTests {
    @Test func familyStyleAndSizeInPoints() throws {
        let d = try FontDescription.parse("Noto Sans Bold 12")
        #expect(d.families == ["Noto Sans"])
        #expect(d.weight == .bold)
        #expect(d.style == .normal)
        #expect(d.size == .points(12))
        #expect(d.size?.pixels == 16)
    }

    @Test func commaSeparatedFamiliesAreTrimmed() throws {
        let d = try FontDescription.parse("DejaVu Sans Mono,  monospace ,Noto Sans Italic 10.5")
        #expect(d.families == ["DejaVu Sans Mono", "monospace", "Noto Sans"])
        #expect(d.style == .italic)
        #expect(d.size == .points(10.5))
    }

    @Test(arguments: [
        "Sans SEMI-BOLD condensed small-caps oblique 9",
        "Sans semibold CONDENSED SmallCaps Oblique 9",
        "Sans Semi-Bold Condensed Small-Caps OBLIQUE 9",
    ])
    func styleWordsMatchInAnyCaseWithOrWithoutDashes(_ text: String) throws {
        let d = try FontDescription.parse(text)
        #expect(d.families == ["Sans"])
        #expect(d.weight == .semiBold)
        #expect(d.stretch == .condensed)
        #expect(d.variant == .smallCaps)
        #expect(d.style == .oblique)
        #expect(d.size == .points(9))
    }

    @Test func everyWeightKeywordOfPango() throws {
        let expected: [String: FontWeight] = [
            "Thin": .thin, "Ultra-Light": .ultraLight, "Extra-Light": .ultraLight, "Light": .light,
            "Semi-Light": .semiLight, "Demi-Light": .semiLight, "Book": .book, "Medium": .medium,
            "Semi-Bold": .semiBold, "Demi-Bold": .semiBold, "Bold": .bold, "Ultra-Bold": .ultraBold,
            "Extra-Bold": .ultraBold, "Heavy": .heavy, "Black": .heavy, "Ultra-Heavy": .ultraHeavy,
        ]
        for (word, weight) in expected {
            let d = try FontDescription.parse("Sans \(word) 10")
            #expect(d.weight == weight, "\(word)")
            #expect(d.families == ["Sans"], "\(word)")
        }
    }

    @Test func everyStretchKeywordOfPango() throws {
        let expected: [String: FontStretch] = [
            "Ultra-Condensed": .ultraCondensed, "Extra-Condensed": .extraCondensed, "Condensed": .condensed,
            "Semi-Condensed": .semiCondensed, "Semi-Expanded": .semiExpanded, "Expanded": .expanded,
            "Extra-Expanded": .extraExpanded, "Ultra-Expanded": .ultraExpanded,
        ]
        for (word, stretch) in expected {
            #expect(try FontDescription.parse("Sans \(word)").stretch == stretch, "\(word)")
        }
    }

    @Test func normalRegularAndRomanAreStyleWordsThatChangeNothing() throws {
        for word in ["Normal", "regular", "ROMAN"] {
            let d = try FontDescription.parse("DejaVu Sans \(word) 10")
            #expect(d == FontDescription(families: ["DejaVu Sans"], size: .points(10)), "\(word)")
        }
    }

    @Test func pixelSizesWithPxSuffixInAnyCase() throws {
        #expect(try FontDescription.parse("sans-serif 14px").size == .pixels(14))
        #expect(try FontDescription.parse("monospace 9.5PX").size == .pixels(9.5))
        #expect(try FontDescription.parse("DejaVu Sans 13px").size?.pixels == 13)
    }

    @Test func decimalSizes() throws {
        #expect(try FontDescription.parse("Sans 10.25").size == .points(10.25))
        #expect(try FontDescription.parse("Sans .5").size == .points(0.5))
        #expect(try FontDescription.parse("Sans 12").size?.pixels == 16)
    }

    @Test func noSizeLeavesItToTheEngine() throws {
        let d = try FontDescription.parse("Noto Serif Italic")
        #expect(d.families == ["Noto Serif"])
        #expect(d.style == .italic)
        #expect(d.size == nil)
        #expect(d.pixelSize(defaultSize: .points(12), textScale: 1) == 16)
        #expect(d.pixelSize(defaultSize: .pixels(10), textScale: 1.5) == 15)
    }

    @Test func emptyDescriptionHasNoFamilyAndNoSize() throws {
        #expect(try FontDescription.parse("") == FontDescription())
        #expect(try FontDescription.parse("12") == FontDescription(size: .points(12)))
        #expect(try FontDescription.parse("Bold") == FontDescription(weight: .bold))
    }

    @Test(arguments: [
        ("Noto Sans CJK JP", "Noto Sans CJK JP", nil),
        ("Noto Sans CJK JP 12", "Noto Sans CJK JP", FontSize.points(12)),
        ("Noto Sans Mono CJK KR Bold 9", "Noto Sans Mono CJK KR", FontSize.points(9)),
        ("Foo 3D 11", "Foo 3D", FontSize.points(11)),
        ("Font 2000 Sans 8px", "Font 2000 Sans", FontSize.pixels(8)),
    ] as [(String, String, FontSize?)])
    func familyNamesMayContainDigitsAndCapitals(_ text: String, family: String, size: FontSize?) throws {
        let d = try FontDescription.parse(text)
        #expect(d.families == [family])
        #expect(d.size == size)
    }

    @Test func wordsThatAreNotNumbersStayInTheFamilyAsInPango() throws {
        // Pango keeps "inf", "nan" and "12pt" in the family name: they are not size words.
        #expect(try FontDescription.parse("Sans inf").families == ["Sans inf"])
        #expect(try FontDescription.parse("Sans nan").size == nil)
        #expect(try FontDescription.parse("Sans 12pt").families == ["Sans 12pt"])
    }

    @Test func canonicalDescription() throws {
        #expect(try FontDescription.parse("Noto Sans Bold 12").description == "Noto Sans Bold 12")
        #expect(try FontDescription.parse("sans-serif 14px").description == "sans-serif 14px")
        #expect(try FontDescription.parse("DejaVu Sans ,  Noto Sans 10.5").description == "DejaVu Sans,Noto Sans 10.5")
        #expect(try FontDescription.parse("Sans semi-bold italic 9").description == "Sans Italic Semi-Bold 9")
        #expect(try FontDescription.parse("Sans normal").description == "Sans")
        #expect(try FontDescription.parse("").description == "")
    }

    @Test(arguments: [
        "Noto Sans Bold 12", "DejaVu Sans Mono,monospace Italic 10.5", "sans-serif 14px",
        "Sans Ultra-Condensed All-Small-Caps Heavy Oblique 7.75", "Noto Sans CJK JP", "Bold 12",
        "Foo 3D Light 11px", "Serif Book Semi-Expanded",
    ])
    func descriptionParsesBackToTheSameValue(_ text: String) throws {
        let parsed = try FontDescription.parse(text)
        let again = try FontDescription.parse(parsed.description)
        #expect(again == parsed)
        #expect(again.description == parsed.description)
    }

    /// Found by Tests/Fuzzing (fuzz-font-description): ",1" parsed to the family "1", whose
    /// description "1" parsed back as a size. Pango writes a trailing comma in such cases
    /// (pango_font_description_to_string), and so does FontDescription now.
    @Test(arguments: [
        (",1", "1,"), ("Sans Bold,", "Sans Bold,"), ("Sans Bold, Bold 12", "Sans Bold, Bold 12"),
        ("Foo,Bar Italic, 9", "Foo,Bar Italic, 9"), ("Font 0,", "Font 0,"), ("Font 12, Light", "Font 12 Light"),
    ])
    func familyEndingInAStyleWordOrASizeGetsATrailingComma(_ text: String, _ canonical: String) throws {
        let parsed = try FontDescription.parse(text)
        #expect(parsed.description == canonical)
        #expect(try FontDescription.parse(parsed.description) == parsed)
    }

    /// Found by Tests/Fuzzing (fuzz-font-description): " 1e31" parsed, and its description
    /// trapped converting 1e31 to Int.
    @Test(arguments: ["Sans 1e31", " 1e31", "Sans 1e300px", "Sans 9223372036854775808"])
    func hugeSizesHaveADescriptionThatParsesBack(_ text: String) throws {
        let parsed = try FontDescription.parse(text)
        #expect(try FontDescription.parse(parsed.description) == parsed)
    }

    @Test func sizeZeroIsAnError() {
        #expect(throws: FitTextError.invalidFontSize(0, reason: "a size must be greater than 0")) {
            try FontDescription.parse("Sans 0")
        }
        #expect(throws: FitTextError.invalidFontSize(0, reason: "a size must be greater than 0")) {
            try FontDescription.parse("Sans 0px")
        }
    }

    @Test func negativeSizeIsAnError() {
        #expect(throws: FitTextError.invalidFontSize(-3, reason: "a size must be greater than 0")) {
            try FontDescription.parse("Sans -3")
        }
    }

    @Test(arguments: ["Sans +inf", "Sans -inf", "Sans 1e999", "Sans 1e400px"])
    func infiniteSizeIsAnError(_ text: String) {
        #expect {
            try FontDescription.parse(text)
        } throws: { error in
            guard case .invalidFontSize(let size, let reason) = error as? FitTextError else { return false }
            return size.isInfinite && reason == "not a finite number"
        }
    }

    @Test func notANumberSizeIsAnError() {
        #expect {
            try FontDescription.parse("Sans +nan")
        } throws: { error in
            guard case .invalidFontSize(let size, _) = error as? FitTextError else { return false }
            return size.isNaN
        }
    }

    @Test(arguments: ["Sans\u{07} 12", "Sans\n12", "Sans\u{7F}", "\u{01}", "Sans\t\u{1B}[31m 10"])
    func controlCharactersAreAnError(_ text: String) {
        #expect(throws: FitTextError.invalidFontDescription(text, reason: "contains control characters")) {
            try FontDescription.parse(text)
        }
    }

    @Test func overLongDescriptionIsAnErrorNamingTheLimit() throws {
        let text = String(repeating: "Sans,", count: 400) + " 12"
        #expect(FontDescription.maxLength == 1024)
        #expect {
            try FontDescription.parse(text)
        } throws: { error in
            guard case .invalidFontDescription(let shown, let reason) = error as? FitTextError else { return false }
            // The message quotes only the start of the text, and names the limit.
            return shown.count <= 41 && reason == "longer than 1024 bytes"
        }
        // Exactly at the limit is accepted.
        let atLimit = String(repeating: "a", count: 1021) + " 12"
        #expect(atLimit.utf8.count == 1024)
        #expect(try FontDescription.parse(atLimit).size == .points(12))
    }
}
