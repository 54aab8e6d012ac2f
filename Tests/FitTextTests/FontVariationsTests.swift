import Testing

@testable import FitText

/// Pango 1.50's "@axis=value,…" in font descriptions (pango/fonts.c,
/// pango_font_description_from_string: only the last word, only when it starts with "@").
@Suite struct FontVariationsTests {
    @Test func lastWordAfterTheSizeIsTheVariations() throws {
        let d = try FontDescription.parse("Cantarell Italic Light 15 @wght=200")
        #expect(d.variations == "wght=200")
        #expect(d.families == ["Cantarell"])
        #expect(d.weight == .light)
        #expect(d.style == .italic)
        #expect(d.size == .points(15))
    }

    @Test func severalAxesAreOneCommaSeparatedWord() throws {
        let d = try FontDescription.parse("Inter 11 @wght=650,opsz=32")
        #expect(d.variations == "wght=650,opsz=32")
        #expect(d.size == .points(11))
    }

    @Test func variationsBeforeTheSizeAreFamilyText() throws {
        // Pango reads "Inter @wght=650" as the family (and falls back to another font).
        let d = try FontDescription.parse("Inter @wght=650 11")
        #expect(d.variations == nil)
        #expect(d.families == ["Inter @wght=650"])
        #expect(d.size == .points(11))
    }

    @Test func variationsWithoutSizeOrFamily() throws {
        #expect(try FontDescription.parse("Inter @wght=300").variations == "wght=300")
        let alone = try FontDescription.parse("@wdth=80")
        #expect(alone.variations == "wdth=80")
        #expect(alone.families.isEmpty)
        #expect(try FontDescription.parse("Inter 11 @").variations == nil)
    }

    @Test(arguments: ["Inter 11 @bogus", "Inter 11 @wght=", "Inter 11 @wght=650,=3", "Inter 11 @wghtx=1"])
    func anEntryHarfBuzzCannotReadIsANamedError(_ text: String) {
        #expect {
            _ = try FontDescription.parse(text)
        } throws: { error in
            guard case FitTextError.invalidFontDescription(let named, let reason) = error else { return false }
            return named == text && reason.contains("not a font variation")
        }
    }

    @Test func tooManyEntriesAreRefused() {
        let list = (0..<65).map { _ in "wght=400" }.joined(separator: ",")
        #expect(throws: FitTextError.self) { _ = try FontDescription.parse("Inter 11 @" + list) }
    }

    @Test func theCanonicalFormKeepsTheVariationsLast() throws {
        let d = try FontDescription.parse("Inter Bold 11 @wght=650")
        #expect(d.description == "Inter Bold 11 @wght=650")
        #expect(try FontDescription.parse(d.description) == d)
    }

    @Test func variationsAreDistinctDescriptions() throws {
        #expect(try FontDescription.parse("Inter 11 @wght=650") != FontDescription.parse("Inter 11 @wght=651"))
    }

    @Test(arguments: ["X @wght=1 ,", "X @wght=1 , 12", "X @wght=1 Bold", "X @a, Y @b ,"])
    func aFamilyEndingInAnAtWordParsesBack(_ text: String) throws {
        let d = try FontDescription.parse(text)
        #expect(d.variations == nil)
        #expect(try FontDescription.parse(d.description) == d, "\(d.description)")
    }
}
