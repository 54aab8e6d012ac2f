import Testing

@testable import FitText

/// Pango markup as pango_parse_markup reads it (pango-markup.c 1.50, GMarkup); the error
/// texts and positions are Pango's own, checked with Pango.parse_markup.
@Suite struct MarkupParserTests {
    private func style(_ markup: String, at offset: Int = 0) throws -> MarkupStyle {
        let result = try MarkupParser.parse(markup)
        return try #require(result.runs.first { $0.utf16.contains(offset) }).style
    }

    private func error(_ markup: String) -> String? {
        do {
            _ = try MarkupParser.parse(markup)
            return nil
        } catch {
            guard case .invalidArgument(let name, let reason) = error, name == "markup" else { return "wrong error \(error)" }
            return reason
        }
    }

    @Test func plainTextAndStretches() throws {
        let result = try MarkupParser.parse("<b>Save</b> changes")
        #expect(result.text == "Save changes")
        #expect(result.runs.map(\.utf16) == [0..<4, 4..<12])
        #expect(result.runs[0].style.weight == .bold)
        #expect(result.runs[1].style == MarkupStyle())
    }

    @Test func entitiesAndCharacterReferences() throws {
        #expect(try MarkupParser.parse("&#65;&#x42;&lt;&gt;&amp;&quot;&apos;").text == "AB<>&\"'")
        #expect(try MarkupParser.parse("<span font_family=\"A&amp;B\">x</span>").runs[0].style.families == ["A&B"])
    }

    @Test func commentsAndCDATAAddNoText() throws {
        // GMarkup passes CDATA to a passthrough handler Pango does not set: it is dropped.
        #expect(try MarkupParser.parse("<!-- c -->x<![CDATA[<b>]]>").text == "x")
    }

    @Test func emptyElementsOpenAndClose() throws {
        #expect(try MarkupParser.parse("<b/>x<i></i>").runs.map(\.style) == [MarkupStyle()])
    }

    @Test func simpleTags() throws {
        #expect(try style("<i>x</i>").style == .italic)
        #expect(try style("<tt>x</tt>").families == ["Monospace"])
        #expect(try style("<s><u>x</u></s>") == MarkupStyle())
        #expect(try style("<markup>x</markup>") == MarkupStyle())
        #expect(try style("<big>x</big>").scale == 1.2)
        #expect(try style("<small>x</small>").scale == 1 / 1.2)
        #expect(try style("<big><big>x</big></big>").scale == 1.2 * 1.2)
        #expect(try style("<sub>x</sub>").fontScales.map(\.value) == [.subscript])
        #expect(try style("y<sup>x</sup>", at: 1).baselineShifts == [.init(value: .superscript, offset: 1)])
    }

    @Test func spanFontAttributes() throws {
        let s = try style("<span font_family=\"Noto Serif\" weight=\"600\" style=\"oblique\" stretch=\"condensed\" variant=\"small-caps\">x</span>")
        #expect(s.families == ["Noto Serif"])
        #expect(s.weight == .semiBold)
        #expect(s.style == .oblique)
        #expect(s.stretch == .condensed)
        #expect(s.variant == .smallCaps)
        #expect(try style("<span face=\"Mono\" font_weight=\"bold\">x</span>").weight == .bold)
        #expect(try style("<span font-weight=\"ultrabold\">x</span>").weight == .ultraBold)
    }

    @Test func enumNamesMatchAsPangoParseFieldDoes() throws {
        // pango/fonts.c field_matches: case-blind, the name's "-" optional; else an integer.
        #expect(try style("<span variant=\"smallcaps\">x</span>").variant == .smallCaps)
        #expect(try style("<span variant=\"SMALL-CAPS\">x</span>").variant == .smallCaps)
        #expect(try style("<span variant=\"AllPetiteCaps\">x</span>").variant == .allPetiteCaps)
        #expect(try style("<span variant=\"5\">x</span>").variant == .unicase)
        #expect(try style("<span variant=\"Normal\">x</span>").variant == .normal)
        #expect(try style("<span weight=\"Extra-Black\">x</span>").weight == .ultraHeavy)
        #expect(try style("<span weight=\"ultra-bold\">x</span>").weight == .ultraBold)
        #expect(try style("<span weight=\"regular\">x</span>").weight == .normal)
        #expect(try style("<span style=\"ROMAN\">x</span>").style == .normal)
        #expect(try style("<span stretch=\"Semi-Expanded\">x</span>").stretch == .semiExpanded)
        for bad in ["small_caps", "small-caps-", "smal", "small--caps", "-1", ""] {
            #expect(throws: FitTextError.self) { try MarkupParser.parse("<span variant=\"\(bad)\">x</span>") }
        }
    }

    @Test func fontDescriptionSetsEveryStyleField() throws {
        // pango_font_description_from_string sets style, weight, variant and stretch: a
        // font inside <b> is not bold unless it says so.
        let s = try style("<b><span font=\"Noto Serif 14\">x</span></b>")
        #expect(s.weight == .normal)
        #expect(s.families == ["Noto Serif"])
        #expect(s.size == .points(14))
    }

    @Test func sizeForms() throws {
        #expect(try style("<span size=\"20pt\">x</span>").size == .points(20))
        #expect(try style("<span size=\"20480\">x</span>").size == .points(20))
        #expect(try style("<span size=\"12.5pt\">x</span>").size == .points(12.5))
        #expect(try style("<span size=\"larger\">x</span>").scale == 1.2)
        #expect(try style("<span size=\"x-large\">x</span>").scale == 1.2 * 1.2)
        #expect(try style("<span size=\"xx-small\">x</span>").scale == 1 / 1.2 / 1.2 / 1.2)
        #expect(try style("<span size=\"150%\">x</span>").scale == 1.5)
        // Inside an absolute size, <big> is a size: 20 pt × 1.2.
        #expect(try style("<span size=\"20pt\"><big>x</big></span>").size == .points(24))
        // Outside, the scale multiplies the inner size (measured: 24 pt either way).
        let outer = try style("<big><span size=\"20pt\">x</span></big>")
        #expect(outer.size == .points(20) && outer.scale == 1.2)
        #expect(outer.apply(to: FontDescription(size: .points(10))).size == .points(24))
    }

    @Test func spacingRiseShiftFeaturesLanguage() throws {
        let s = try style("<span letter_spacing=\"1024\" rise=\"-3pt\" font_features=\"tnum\" lang=\"ja\"><span font_features=\"smcp\">x</span></span>")
        #expect(s.letterSpacing == 1024)
        #expect(s.rise == -3072)
        #expect(s.features == ["tnum", "smcp"])
        #expect(s.language == "ja")
        #expect(try style("<span baseline_shift=\"3pt\">x</span>").baselineShifts.map(\.value) == [.units(3072)])
        #expect(try style("<span font_scale=\"small-caps\">x</span>").fontScales.map(\.value) == [.smallCaps])
    }

    @Test func decorationsAndColoursAreAccepted() throws {
        let markup = "<span foreground=\"red\" background=\"#00ff00\" underline=\"double\" strikethrough=\"true\" alpha=\"50%\">x</span>"
        #expect(try MarkupParser.parse(markup).text == "x")
    }

    @Test(arguments: [
        ("<b>Save</i>", "Error on line 1 char 19: Element “i” was closed, but the currently open element is “b”"),
        ("x</b>", "Error on line 1 char 13: Element “b” was closed, but the currently open element is “markup”"),
        ("<b>x", "Error on line 1 char 21: Element “markup” was closed, but the currently open element is “b”"),
        ("x\n<b>y</i>", "Error on line 2 char 9: Element “i” was closed, but the currently open element is “b”"),
        ("<foo>x</foo>", "Unknown tag 'foo' on line 1 char 14"),
        ("<b x=\"1\">y</b>", "Tag 'b' does not support attribute 'x' on line 1 char 18"),
        ("<span foo=\"1\">x</span>", "Attribute 'foo' is not allowed on the <span> tag on line 1 char 23"),
        ("a &bogus; b", "Error on line 1: Entity name “bogus” is not known"),
        ("&#0;", "Error on line 1: Character reference “0” does not encode a permitted character"),
        ("<span size=\"huge\">x</span>", "Value of 'size' attribute on <span> tag on line 1 could not be parsed; should be an integer, or a string such as 'small', not 'huge'"),
        ("<span weight=\"superbold\">x</span>", "'superbold' is not a valid value for the 'weight' attribute on <span> tag, line 1; valid values are for example 'light', 'ultrabold' or a number"),
        ("<span letter_spacing=\"abc\">x</span>", "Value of 'letter_spacing' attribute on <span> tag on line 1 could not be parsed; should be an integer, not 'abc'"),
        ("<span size=12>x</span>", "Error on line 1 char 20: Odd character “1”, expected an open quote mark after the equals sign when giving value for attribute “size” of element “span”"),
    ])
    func errorsArePangosWithTheirPosition(_ markup: String, _ message: String) {
        #expect(error(markup) == message)
    }

    @Test func anAmpersandAloneIsAnError() {
        #expect(error("a & b")?.hasPrefix("Error on line 1: Entity did not end with a semicolon") == true)
    }

    @Test func nestingIsBounded() throws {
        let deep = String(repeating: "<b>", count: MarkupParser.maxDepth) + "x" + String(repeating: "</b>", count: MarkupParser.maxDepth)
        #expect(try MarkupParser.parse(deep).text == "x")
        let deeper = "<i>" + deep + "</i>"
        #expect(error(deeper)?.contains("nested deeper") == true)
    }

    @Test func badVariationsInAFontAreTheFontsError() {
        #expect(throws: FitTextError.self) { _ = try MarkupParser.parse("<span font=\"Inter 11 @bogus\">x</span>") }
    }

    /// Untrusted input: random sequences of markup fragments either parse, with stretches
    /// that cover the text exactly, or are a typed error — never a crash.
    @Test func randomFragmentsParseOrFailByName() throws {
        let fragments = [
            "<b>", "</b>", "<i>", "</i>", "<span size=\"larger\">", "<span rise=\"-3pt\">", "</span>", "<sup>", "</sup>",
            "&amp;", "&#x1F600;", "&#0;", "&", "<", ">", "\"", "'", "a", "é", "\n", "<!--", "-->", "<![CDATA[", "]]>",
            "<span font=\"Sans 0\">", "<span size=\"1%\">", "<b/>", "</", "<span a=", "&lt", "\u{10FFFF}", " ",
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(seed % UInt64(fragments.count))
        }
        var parsed = 0
        for _ in 0..<3_000 {
            let markup = (0..<(1 + next() % 12)).map { _ in fragments[next()] }.joined()
            do {
                let result = try MarkupParser.parse(markup)
                var covered = 0
                for run in result.runs {
                    #expect(run.utf16.lowerBound == covered, "\(markup)")
                    covered = run.utf16.upperBound
                }
                #expect(covered == result.text.utf16.count, "\(markup)")
                parsed += 1
            } catch {
                // The markup's own error, or a font="…" description fitd refuses.
                switch error {
                case .invalidArgument(name: "markup", _), .invalidFontSize, .invalidFontDescription: break
                default: Issue.record("\(markup): \(error)")
                }
            }
        }
        #expect(parsed > 100)
    }
}
