import CFitShims
import CFontconfig
import Testing

@testable import FitText

/// Classes 3–8 (Tests/oracle/desktop_corpus.py, MINIMAL): how Pango 1.50.12 itemizes (script
/// runs, the font of spaces, the baseline runs align on, the ellipsis' font), with the real
/// engine on the pinned fonts against Pango's figures (`FONTCONFIG_FILE=Tests/fonts/fonts.conf
/// /usr/bin/python3 Tests/oracle/pango_measure.py`), and the script iterator on its own.
/// PANGO_RULES.md, "Itemization". The minimal cases on the desktop fonts are compared with
/// live Pango by Tests/EndToEnd/itemize_classes.sh.
@Suite struct ItemizeRulesTests {
    // MARK: class 3 — spaces move to the next font when it is earlier in the set

    @Test(arguments: [
        // ☀ is not in Noto Sans / Noto Serif: DejaVu Sans draws it; the space goes with the
        // text after it (Noto's space), not with ☀ (DejaVu's wider space).
        ("☀ a", "Noto Sans 11", 25.1904296875, 19.9765625),
        ("☀ Save", "Noto Serif 12", 54.0390625, 21.7919921875),
    ])
    func trailingSpacesMoveToAnEarlierFont(text: String, font: String, width: Double, height: Double) throws {
        let r = try TestEngine.measure(text, font: font)
        #expect(r.width == width)
        #expect(r.height == height)
    }

    // MARK: class 4 — every space separator keeps the run's font

    @Test func narrowAndThinSpacesKeepTheRunFont() throws {
        // Noto Sans Devanagari lacks U+202F and U+2009; Pango keeps them in it (HarfBuzz
        // draws a space) instead of falling back to DejaVu Sans, which would make the line
        // taller (17.815) and wider.
        let r = try TestEngine.measure("1\u{202F}2\u{2009}", font: "Noto Sans Devanagari 10")
        #expect(r.width == 19.09375)
        #expect(r.height == 17.3857421875)
    }

    @Test func theArabicLetterMarkTakesAFontThatHasIt() throws {
        // U+061C (ICU's Arabic percent strings end in it) is no space to Pango: get_font
        // gives it Noto Sans Arabic, whose zero-width run sets the line's height.
        for (text, font, width) in [("٧٪\u{061C}", "DejaVu Sans 10", 14.322265625), ("٢٥٪\u{061C}", "Noto Sans 10", 21.4833984375)] {
            let r = try TestEngine.measure(text, font: font)
            #expect(abs(r.width - width) < 0.001)
            #expect(abs(r.height - 28.1591796875) < 0.001)
            #expect(abs(r.baseline - 18.3193359375) < 0.001)
        }
        #expect(try TestEngine.measure("\u{061C}", font: "DejaVu Sans 10").height == 28.1591796875)
    }

    @Test func keepsRunFontFollowsConsiderAsSpace() {
        for space: UInt32 in [0x20, 0xA0, 0x2009, 0x202F, 0x3000, 0x2028, 0x200B, 0xFE0F, 0x09] {
            #expect(UnicodeProperties.keepsRunFont(space), "U+\(String(space, radix: 16))")
        }
        // Ogham space mark is visible; the Arabic block's format characters are drawn.
        for other: UInt32 in [0x1680, 0x600, 0x41, 0x5D0] {
            #expect(!UnicodeProperties.keepsRunFont(other), "U+\(String(other, radix: 16))")
        }
    }

    // MARK: class 5 — runs align on the first run's dominant baseline

    @Test(arguments: [
        // Han first: the ideographic baseline of Noto Sans CJK (BASE table); Devanagari and
        // Thai runs (no BASE table: HarfBuzz's fallback, the descender) are raised onto it.
        ("你क", 23.4931640625, 19.3056640625, 15.4658203125),
        ("你ไทย", 33.4267578125, 20.9853515625, 17.1455078125),
    ])
    func runsAlignOnTheFirstRunsBaseline(text: String, width: Double, height: Double, baseline: Double) throws {
        let r = try TestEngine.measure(text, font: "DejaVu Sans 10")
        #expect(r.width == width)
        #expect(r.height == height)
        #expect(r.baseline == baseline)
    }

    // MARK: classes 6 and 7 — the script iterator

    private func runs(_ text: String) -> [String] {
        let scalars = text.unicodeScalars.map(\.value)
        var scripts = scalars.map { $0 < 0x80 ? TextAnalyzer.asciiScript($0) : fit_script($0) }
        ScriptRuns.resolve(&scripts) { ScriptRuns.pairIndex(scalars[$0]) }
        return scripts.map { String(cString: fit_script_short_name($0)) }
    }

    @Test func privateUseIsScriptNeutral() {
        // Unknown is not a real script (REAL_SCRIPT): the icon joins the Hebrew run.
        #expect(runs("aש \u{F007}") == ["Latn", "Hebr", "Hebr", "Hebr"])
        #expect(runs("\u{E000} क") == ["Deva", "Deva", "Deva"])
        // Neutrals alone are Common, also when they are private use.
        #expect(runs("\u{F007} 1") == ["Zyyy", "Zyyy", "Zyyy"])
    }

    @Test func pairedPunctuationTakesItsOpeningPartnersScript() {
        // The closing quote closes the one opened in the Bengali run.
        #expect(runs("স“d”") == ["Beng", "Beng", "Latn", "Beng"])
        #expect(runs("你(d)") == ["Hani", "Hani", "Latn", "Hani"])
        // An opening bracket before any real script gets the run's script once it is known.
        #expect(runs("(d) क") == ["Latn", "Latn", "Latn", "Latn", "Deva"])
        // A closing character without its partner is an ordinary neutral.
        #expect(runs("क”d") == ["Deva", "Deva", "Latn"])
        // Nesting: each closer finds its own opener.
        #expect(runs("क[d(e)]") == ["Deva", "Deva", "Latn", "Latn", "Latn", "Latn", "Deva"])
    }

    @Test func privateUseIconKeepsTheSpaceOfTheRunBeforeIt() throws {
        // `\u{E000} क`: no pinned font has U+E000; the icon and the space join the Devanagari
        // run and the space stays in Noto Sans Devanagari (the missing glyph counts after
        // every face, so it is no reason to move the space); the box is lower than the
        // Devanagari font, so the line is Noto Sans Devanagari's height.
        let r = try TestEngine.measure("\u{E000} क", font: "DejaVu Sans 10")
        #expect(r.width == 23.0126953125)
        #expect(r.height == 17.3857421875)
    }

    @Test func aHexBoxHasTheBoxsLogicalHeight() throws {
        // No pinned font has U+E000: Pango draws a hex box in DejaVu Sans, whose logical
        // rectangle is the box's (pangocairo-font.c), 11.694 px high, not DejaVu's 15.521.
        let r = try TestEngine.measure("\u{E000}", font: "DejaVu Sans 10")
        #expect(r.width == 9.3857421875)
        #expect(r.height == 11.6943359375)
        #expect(r.baseline == 10.611328125)
    }

    // MARK: class 8 — the ellipsis is in the base font

    @Test(arguments: [
        // The first elided character is wide: U+22EF, which Noto Sans lacks, so "..." in Noto
        // Sans (fallback on), which counts in the height although no other Noto Sans glyph is
        // left — not U+22EF in DejaVu Sans, the fallback chain's choice.
        ("😀😀😀😀😀😀😀😀", 19.9765625),
        ("你好世界你好世界", 21.3115234375),
    ])
    func ellipsisIsDrawnInTheBaseFont(text: String, height: Double) throws {
        let r = try TestEngine.measure(text, font: "Noto Sans 11", maxWidth: 60, ellipsize: .end)
        #expect(r.ellipsized)
        #expect(r.width == 60)
        #expect(r.height == height)
    }

    // MARK: fonts Pango never uses

    @Test(arguments: [
        ("TrueType", "/f/a.ttf", true), ("CFF", "/f/a.otf", true), ("truetype", "/f/a.ttc", true),
        ("Type 1", "/usr/share/fonts/X11/Type1/StandardSymbolsPS.pfb", false), ("PCF", "/f/a.pcf.gz", false),
        ("TrueType", "/f/a.woff2", false), ("CFF", "/f/a.woff", false), (nil, "/f/a.ttf", false),
    ] as [(String?, String, Bool)])
    func onlySFNTFontsAreSortedAsPangoFiltersThem(format: String?, file: String, supported: Bool) throws {
        // pangofc-fontmap.c pango_fc_is_supported_font_format: a Type 1 font (fonts-urw-base35)
        // covering U+F8FF was chosen and then failed to load, failing the measurement.
        let pattern = try #require(FcPatternCreate())
        defer { FcPatternDestroy(pattern) }
        _ = file.withCString { FcPatternAddString(pattern, FC_FILE, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        if let format {
            _ = format.withCString { FcPatternAddString(pattern, FC_FONTFORMAT, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        }
        #expect(FontResolver.isSupportedFormat(pattern) == supported)
    }
}
