import Testing

@testable import FitText

/// Where Pango 1.50's breaks differ from ICU's (classes 10–12), on the pinned fonts; figures
/// from Tests/oracle/pango_measure.py (PANGO_RULES.md §12, "Breaking and GTK 3 metrics").
@Suite struct PangoBreakTests {
    private func lines(_ text: String, font: String = "DejaVu Sans 10", maxWidth: Double, wrap: WrapMode = .word) throws -> [String] {
        try TestEngine.measure(text, font: font, maxWidth: maxWidth, wrap: wrap, lines: true).lines.map(\.text)
    }

    /// The hyphen rules read ASCII from bit masks: they must hold exactly break.c's characters.
    @Test func theAsciiMasksOfTheHyphenRulesHoldBreakCsCharacters() {
        let spaceOrHyphen: Set<UInt32> = [0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x2D]
        let wordMid: Set<UInt32> = [0x22, 0x27, 0x2C, 0x2E, 0x3A, 0x3B]
        for c in UInt32(0)..<0x80 {
            #expect(TextAnalyzer.isSpaceOrHyphen(c) == spaceOrHyphen.contains(c), "U+\(String(c, radix: 16))")
            #expect(TextAnalyzer.isWordMid(c) == wordMid.contains(c), "U+\(String(c, radix: 16))")
        }
        // Beyond ASCII the switches still answer.
        #expect(TextAnalyzer.isSpaceOrHyphen(0x2010) && TextAnalyzer.isSpaceOrHyphen(0x3000) && !TextAnalyzer.isSpaceOrHyphen(0xE9))
        #expect(TextAnalyzer.isWordMid(0x2019) && TextAnalyzer.isWordMid(0xB7) && !TextAnalyzer.isWordMid(0xE9))
    }

    @Test func aBreakInsideAWordShapesTheLineAgainWithItsHyphen() throws {
        // Class 9 (PANGO_RULES.md §12): ش before the hyphen takes its final form, so الإش‐
        // (32.4 px) does not fit 30 px, though the summed widths of the whole word say it does
        // (الإش/عارا/ت).
        let m = try TestEngine.measure("الإشعارات", maxWidth: 30, wrap: .char, lines: true)
        #expect(m.lines.map(\.text) == ["الإ", "شعا", "رات"])
        let pango = [16.119140625, 26.478515625, 22.6943359375]
        for (line, width) in zip(m.lines, pango) { #expect(abs(line.width - width) < 0.01) }
    }

    @Test func aLineEndingInsideARunLosesTheKerningWithTheNextLetter() throws {
        // "ez-" sums to 19.65 px in the word, but shaped as the line's end (no "-v" kerning)
        // it is 20.01 and does not fit 20 px: Pango breaks "ez" / "-" (26 lines, not 25).
        let m = try TestEngine.measure("Voulez-vous vraiment supprimer ce fichier ?", maxWidth: 20, wrap: .wordChar, lines: true)
        #expect(m.lineCount == 26)
        #expect(Array(m.lines.map(\.text).prefix(5)) == ["V", "o", "ul", "ez", "-"])
        #expect(abs(m.lines[0].width - 13.933) < 0.01)  // "V‐": V without its kerning with "o"
    }

    @Test func noHyphenBeforeAMidLetterPunctuationBetweenLetters() throws {
        // break.c decides the hyphen before WB6 takes back the word boundary at "o|.": "photo"
        // (38.46 px) fits 40 px without a hyphen, not "phot‐" (the desktop corpus's wrap-0406).
        let m = try TestEngine.measure("photo.jpg", maxWidth: 40, wrap: .char, lines: true)
        #expect(m.lines.map(\.text) == ["photo", ".jpg"])
        #expect(abs(m.lines[0].width - 38.455078125) < 0.01)
        // U|.|S|.|A|. |e… at 10 px: the dots are lines of their own, no "U‐." (13 lines).
        #expect(try lines("U.S.A. example", maxWidth: 10, wrap: .char).prefix(6) == ["U", ".", "S", ".", "A", ". "])
    }

    @Test func thaiBreaksComeFromLibthaisDictionary() throws {
        // ICU's dictionary breaks ไม่|มี too; libthai keeps ไม่มี (break-thai.c).
        #expect(try lines("ภาษาไทยไม่มีช่องว่างระหว่างคำ", maxWidth: 24) == ["ภาษา", "ไทย", "ไม่มี", "ช่องว่าง", "ระหว่าง", "คำ"])
        #expect(try lines("ภาษาไทยไม่มีช่องว่างระหว่างคำ", maxWidth: 80) == ["ภาษาไทยไม่มี", "ช่องว่างระหว่าง", "คำ"])
    }

    @Test func laoIsNotBrokenInsideAWord() throws {
        // Pango reads complex-context letters as alphabetic and has a dictionary for Thai only.
        #expect(try lines("ພາສາລາວບໍ່ມີຍະຫວ່າງ", maxWidth: 30) == ["ພາສາລາວບໍ່ມີຍະຫວ່າງ"])
    }

    @Test func libthaiBreaksAreCodePointOffsets() {
        // ภาษา|ไทย: libthai reports the offset of the second word's first character.
        let scalars = "ภาษาไทย".unicodeScalars.map(\.value)
        #expect(ComplexContextBreaks.thaiBreaks(scalars[...]).contains(4))
    }

    @Test func charWrapBreaksAConjunctAfterItsVirama() throws {
        // Class 12 (PANGO_RULES.md §12): Pango's grapheme rules have no GB9c, so ग्|स is a char
        // break.
        let m = try TestEngine.measure("सेटिंग्स", font: "Noto Sans 10", maxWidth: 5, wrap: .char, lines: true)
        #expect(m.lineCount == 4)
        #expect(m.lines.map(\.text) == ["से", "टिं", "ग्", "स"])
    }

    @Test func aZeroWidthNonJoinerKeepsTheNextConsonantInItsCluster() throws {
        // break-indic.c: after ZWNJ, neither the next character nor one after a virama starts
        // a cluster: ಗ್‌ಗ stays on one line (Pango: 5 lines).
        let m = try TestEngine.measure("ಸೆಟ್ಟಿಂಗ್‌ಗಳು", font: "Noto Sans 10", maxWidth: 20, wrap: .char, lines: true)
        #expect(m.lineCount == 5)
        #expect(m.lines.map(\.text).contains("ಗ್\u{200C}ಗ"))
    }

    @Test func pangoKeepsMyanmarSpacingMarksInTheirClusterAndSplitsSaraAm() throws {
        // break.c joins every spacing mark (UAX #29 leaves U+102C, U+1038 out) and reads
        // U+0E33 as a letter: များ is one cluster, คำ two.
        #expect(try lines("စနစ်ဆက်တင်များ", font: "Noto Sans 10", maxWidth: 0, wrap: .char).last == "များ")
        #expect(try lines("คำ", font: "Noto Sans 10", maxWidth: 0, wrap: .char).count == 2)
    }

    @Test func charWrapAtWidthZeroTakesALaterBreakOnlyWhenNarrower() throws {
        // "لإ" (one lam-alef glyph) is narrower than "ل‐": Pango takes it (process_item).
        let m = try TestEngine.measure("الإشعارات", maxWidth: 0, wrap: .char, lines: true)
        #expect(m.lines.map(\.text).prefix(3) == ["ا", "لإ", "ش"])
    }

    @Test func letterSpacingIsOncePerConjunct() throws {
        // "क्षत्रिय" with -0.5 px spacing: Pango spaces glyph clusters (43.86 px).
        let m = try TestEngine.measure("क्षत्रिय", font: "DejaVu Sans 16", letterSpacing: -0.5)
        #expect(abs(m.width - 43.86) < 0.01)
    }

    @Test func linesBreakWherePangosRulesAllowNotWhereICUs() throws {
        // break.c has no IS × NU outside a number, no LB20a (a word-initial hyphen) and no LB15c
        // (PANGO_RULES.md, "Pango's line breaking over GLib's classes"); figures from Pango.
        let percent = try TestEngine.measure("abc %.250s", maxWidth: 40, lines: true)
        #expect(percent.lines.map(\.text) == ["abc ", "%.", "250s"])
        #expect(abs(percent.width - 32.3935546875) < 0.01)
        let hyphen = try TestEngine.measure("abc -def", maxWidth: 35, lines: true)
        #expect(hyphen.lines.map(\.text) == ["abc -", "def"])
        #expect(abs(hyphen.lines[0].width - 33.0126953125) < 0.01)
        // A wrapping label's minimum width: the layout at width 0.
        let format = try TestEngine.measure("%.1f KB", maxWidth: 0, lines: true)
        #expect(format.lines.map(\.text) == ["%.", "1f ", "KB"])
        #expect(abs(format.width - 17.8896484375) < 0.01)
    }

    @Test func aNoBreakSpaceIsWhiteAtTheEndOfALine() throws {
        // U+00A0, U+202F and U+2007 are Zs, so break.c's is_white: after a char break their
        // width is taken off the fit and the line, like a space's.
        for space in ["\u{00A0}", "\u{202F}", "\u{2007}"] {
            let m = try TestEngine.measure("aaaa\(space)bbbb", font: "DejaVu Sans Mono 10", maxWidth: 35, wrap: .char, lines: true)
            #expect(m.lines.map(\.text) == ["aaaa\(space)", "bbbb"])
            #expect(abs(m.lines[0].width - 32.109375) < 0.01)
        }
        let words = try TestEngine.measure("12\u{00A0}345\u{00A0}678 octets", maxWidth: 50, wrap: .wordChar, lines: true)
        #expect(words.lines.map(\.text) == ["12\u{00A0}345\u{00A0}", "678 ", "octets"])
        #expect(abs(words.lines[0].width - 46.650390625) < 0.01)
    }

    @Test func tibetanAndDigitsOfComplexScriptsTakeAHyphenAtACharBreak() throws {
        // break.c inserts hyphens after every script but Common, Han, Hangul and kana; Tibetan
        // letters are ALetter, so no word boundary between them: ཆོ‐ / ག‐ / ཆོག.
        let tibetan = try TestEngine.measure("ཆོགཆོག", font: "DejaVu Sans Mono 10", maxWidth: 20, wrap: .char, lines: true)
        #expect(tibetan.lines.map(\.text) == ["ཆོ", "ག", "ཆོག"])
        #expect(abs(tibetan.lines[0].width - 13.7861328125) < 0.01)
        // Thai digits are Thai script and WB Numeric (WB8 joins them): ๑๒‐ / ๓๔‐ / ๕๖.
        let digits = try TestEngine.measure("๑๒๓๔๕๖", font: "DejaVu Sans Mono 10", maxWidth: 20, wrap: .char, lines: true)
        #expect(digits.lines.map(\.text) == ["๑๒", "๓๔", "๕๖"])
        #expect(abs(digits.lines[0].width - 19.732421875) < 0.01)
    }

    @Test func complexContextLettersTakeNoHyphen() throws {
        // Their letters are WB "Other" to break.c (not ALetter: class SA), a word boundary on
        // either side, so no hyphen: ภา / ษาไ / ทย (18.0 = ษาไ without one).
        let thai = try TestEngine.measure("ภาษาไทย", font: "DejaVu Sans Mono 10", maxWidth: 20, wrap: .char, lines: true)
        #expect(thai.lines.map(\.text) == ["ภา", "ษาไ", "ทย"])
        #expect(abs(thai.lines[1].width - 18.0) < 0.01)
    }
}
