import Foundation
import Testing

@testable import FitText

/// The engine with real fonts against Pango 1.50's figures (Tests/oracle/PANGO_RULES.md, and
/// Tests/oracle/pango_measure.py run with the pinned fonts). Pango's numbers are whole Pango
/// units (1/1024 px) and the engine computes in the same units, so they compare exactly.
@Suite struct TextEngineTests {
    // MARK: widths, heights, baselines (PANGO_RULES.md §1, §2)

    @Test func helloInDejaVuSans10() throws {
        let r = try TestEngine.measure("Hello", font: "DejaVu Sans 10")
        #expect(r.width == 33.7939453125)
        #expect(r.height == 15.5205078125)
        #expect(r.baseline == 12.3759765625)
        #expect(r.lineCount == 1)
        #expect(r.unit == .px)
        #expect(!r.ellipsized && !r.truncated)
        #expect(r.fontsUsed == ["DejaVu Sans"])
        #expect(r.lines.isEmpty)  // not asked for
    }

    @Test(arguments: [
        ("Hello", "DejaVu Sans 12", 40.5546875, 18.625, 14.8515625),
        ("Hello", "DejaVu Sans 13px", 32.9521484375, 15.1328125, 12.0673828125),
        ("H", "Noto Sans 11", 10.8681640625, 19.9765625, 15.6787109375),
        ("Hello world", "Noto Sans 11", 78.6591796875, 19.9765625, 15.6787109375),
        ("Hello", "Noto Serif 12", 40.400390625, 21.7919921875, 17.103515625),
        ("Hello", "DejaVu Sans Mono 10", 40.13671875, 15.5205078125, 12.3759765625),
        ("Hello", "sans-serif 10", 33.7939453125, 15.5205078125, 12.3759765625),
        ("iiiiiiiiii", "DejaVu Sans 10", 37.041015625, 15.5205078125, 12.3759765625),
        ("Hello ", "DejaVu Sans 10", 38.0322265625, 15.5205078125, 12.3759765625),
        (" Hello", "DejaVu Sans 10", 38.0322265625, 15.5205078125, 12.3759765625),
        ("Hello  ", "DejaVu Sans 10", 42.2705078125, 15.5205078125, 12.3759765625),
    ])
    func metricsMatchPango(text: String, font: String, width: Double, height: Double, baseline: Double) throws {
        let r = try TestEngine.measure(text, font: font)
        #expect(r.width == width)
        #expect(r.height == height)
        #expect(r.baseline == baseline)
    }

    @Test func textScaleMultipliesThePointSize() throws {
        // 10 pt × 1.2 = 12 pt: the figures of DejaVu Sans 12.
        let r = try TestEngine.measure("Hello", textScale: 1.2)
        #expect(r.width == 40.5546875)
        #expect(r.height == 18.625)
    }

    @Test func descriptionWithoutSizeUsesTheDefault12Points() throws {
        #expect(try TestEngine.measure("Hello", font: "DejaVu Sans").width == 40.5546875)
    }

    // MARK: empty text and paragraphs (§2)

    @Test func emptyTextIsOneLineOfTheBaseFont() throws {
        let r = try TestEngine.measure("", lines: true)
        #expect(r.width == 0)
        #expect(r.height == 15.5205078125)
        #expect(r.baseline == 12.3759765625)
        #expect(r.lineCount == 1)
        #expect(r.lines.map(\.text) == [""])
        #expect(r.lines.map(\.length) == [0])
        // Empty text is never ellipsized.
        let e = try TestEngine.measure("", maxWidth: 10, ellipsize: .end)
        #expect(!e.ellipsized && !e.truncated)
    }

    @Test func aNewlineMakesTwoLines() throws {
        let r = try TestEngine.measure("a\nb", lines: true)
        #expect(r.lineCount == 2)
        #expect(r.height == 31.041015625)
        #expect(r.baseline == 12.3759765625)
        #expect(r.width == 8.462890625)
        #expect(r.lines.map(\.width) == [8.169921875, 8.462890625])
        #expect(r.lines.map(\.text) == ["a", "b"])
        #expect(r.lines.map(\.start) == [0, 2])
        #expect(r.lines.map(\.length) == [1, 1])
        #expect(r.lines.map(\.baseline) == [12.3759765625, 12.3759765625 + 15.5205078125])
    }

    @Test func aTrailingNewlineMakesAnEmptyLastLine() throws {
        let r = try TestEngine.measure("a\n", lines: true)
        #expect(r.lineCount == 2)
        #expect(r.height == 31.041015625)
        #expect(r.width == 8.169921875)
        #expect(r.lines.last?.width == 0)
        #expect(r.lines.last?.text == "")
        #expect(r.lines.last?.start == 2)
        #expect(r.lines.last?.height == 15.5205078125)
        let newline = try TestEngine.measure("\n")
        #expect(newline.lineCount == 2)
        #expect(newline.height == 31.041015625)
        #expect(newline.width == 0)
    }

    // MARK: fonts per script, emoji (§2, §3)

    @Test func emojiUseNotoColorEmojiAndOnlyItsMetrics() throws {
        let r = try TestEngine.measure("😀")
        #expect(r.fontsUsed == ["Noto Color Emoji"])
        #expect(r.width == 16.6015625)
        #expect(r.height == 15.6240234375)  // the base font is not on the line
        #expect(r.baseline == 12.369140625)
        let mixed = try TestEngine.measure("A😀")
        #expect(mixed.fontsUsed == ["DejaVu Sans", "Noto Color Emoji"])
        #expect(mixed.width == 25.72265625)
        #expect(mixed.height == 15.630859375)  // max ascent (DejaVu) + max descent (emoji)
        #expect(mixed.baseline == 12.3759765625)
    }

    @Test(arguments: ["😀", "👍🏽", "👩‍💻", "👨‍👩‍👧‍👦", "🇩🇪", "1️⃣", "#️⃣", "❤️", "☺️", "©️", "☕"])
    func everyEmojiPresentationSequenceIsOneColourGlyph(_ emoji: String) throws {
        let r = try TestEngine.measure(emoji)
        #expect(r.fontsUsed == ["Noto Color Emoji"])
        #expect(r.width == 16.6015625)
        let noto = try TestEngine.measure(emoji, font: "Noto Sans 11")
        #expect(noto.width == 18.26171875)
        #expect(noto.height == 17.1884765625)
    }

    @Test(arguments: [("❤", 11.171875), ("☺", 13.8994140625), ("✔", 11.171875), ("→", 11.171875), ("©", 13.3330078125)])
    func textPresentationSymbolsStayInDejaVuSans(symbol: String, width: Double) throws {
        let r = try TestEngine.measure(symbol)
        #expect(r.fontsUsed == ["DejaVu Sans"])
        #expect(r.width == width)
    }

    @Test func copyrightSignWithoutVS16UsesNotoSansWhenAskedFor() throws {
        let r = try TestEngine.measure("©", font: "Noto Sans 11")
        #expect(r.fontsUsed == ["Noto Sans"])
        #expect(r.width == 12.203125)
        #expect(try TestEngine.measure("❤", font: "Noto Sans 11").fontsUsed == ["DejaVu Sans"])
    }

    @Test(arguments: [
        ("שלום", "DejaVu Sans 10", "DejaVu Sans", 29.5048828125, 15.5205078125),
        ("مرحبا", "DejaVu Sans 10", "DejaVu Sans", 30.826171875, 15.5205078125),
        ("مرحبا", "Noto Sans 11", "DejaVu Sans", 33.91015625, 17.0732421875),
        ("ไทย", "DejaVu Sans 10", "Noto Sans Thai", 20.09375, 20.146484375),
        ("क", "DejaVu Sans 10", "Noto Sans Devanagari", 10.16015625, 17.3857421875),
        ("你", "DejaVu Sans 10", "Noto Sans CJK JP", 13.3330078125, 19.3056640625),
        ("你好", "Noto Sans 11", "Noto Sans CJK JP", 29.333984375, 21.2373046875),
        ("안녕", "DejaVu Sans 10", "Noto Sans CJK KR", 24.533203125, 19.3056640625),
        ("「引用」", "DejaVu Sans 10", "Noto Sans CJK JP", 53.33203125, 19.3056640625),
    ])
    func eachScriptGetsTheFallbackFontPangoPicks(text: String, font: String, family: String, width: Double, height: Double) throws {
        let r = try TestEngine.measure(text, font: font)
        #expect(r.fontsUsed == [family])
        #expect(r.width == width)
        #expect(r.height == height)
    }

    @Test func mixedScriptsTakeMaxAscentPlusMaxDescent() throws {
        let r = try TestEngine.measure("Aक")
        #expect(r.fontsUsed == ["DejaVu Sans", "Noto Sans Devanagari"])
        #expect(r.width == 19.28125)
        #expect(r.height == 17.8154296875)
        #expect(r.baseline == 12.3759765625)
        let thai = try TestEngine.measure("ไทย")
        #expect(thai.baseline == 14.146484375)
        let cjk = try TestEngine.measure("A你")
        #expect(cjk.height == 19.3056640625)
        #expect(cjk.baseline == 15.4658203125)
    }

    @Test func combiningMarksStayWithTheirBase() throws {
        #expect(try TestEngine.measure("e\u{301}").width == 8.203125)  // the same as "e"
        let han = try TestEngine.measure("中\u{301}")
        #expect(han.width == 13.3330078125)  // the mark adds no width
        #expect(try TestEngine.measure("abc\u{200D}").width == 23.962890625)  // "abc" alone
    }

    // MARK: letter spacing (§8)

    @Test func letterSpacingAddsNMinusOneSpacings() throws {
        #expect(try TestEngine.measure("A", letterSpacing: 2).width == 9.12109375)  // "A" alone
        #expect(try TestEngine.measure("ABC", letterSpacing: 2).width == 27.3427734375 + 4)
        #expect(try TestEngine.measure("A B", letterSpacing: 2).width == 26.505859375)
        #expect(try TestEngine.measure("مرحبا", letterSpacing: 1).width == 30.826171875 + 4)
        // 0.3 px is 307 Pango units: "你好" (2 clusters) grows by 307/1024 px.
        #expect(try TestEngine.measure("你好", letterSpacing: 0.3).width == 26.666015625 + 307.0 / 1024)
    }

    @Test func letterSpacingOfAWrappedLineLeavesOutTheZeroedSpace() throws {
        let r = try TestEngine.measure("AAAA BBBB", maxWidth: 50, letterSpacing: 2, lines: true)
        #expect(r.lines.map(\.width) == [43.59765625, 42.5859375])
        #expect(r.lines.map(\.text) == ["AAAA ", "BBBB"])
    }

    @Test func anEllipsizedLineLosesTheSpacingAtItsEnds() throws {
        // adjust_line_letter_spacing runs after ellipsizing: the line is the goal less the
        // first run's space_left and the ellipsis run's space_right (Pango: 58.5, not 60).
        let r = try TestEngine.measure("Save changes now", maxWidth: 60, ellipsize: .end, letterSpacing: 1.5)
        #expect(r.width == 58.5)
    }

    @Test func letterSpacingBreaksTheLigature() throws {
        // 36.783203125 is "office" unligated; 5 spacings of 1 px.
        #expect(try TestEngine.measure("office", letterSpacing: 1).width == 41.783203125)
    }

    @Test func letterSpacingBreaksTheLigatureEvenWhenTheUnspacedTextWasMeasuredFirst() throws {
        // A different text from the test above, so no other test warms the cache for it.
        #expect(try TestEngine.measure("offices", font: "DejaVu Sans 11").width > 0)
        let spaced = try TestEngine.measure("offices", font: "DejaVu Sans 11", letterSpacing: 1)
        let unligated = try TestEngine.measure("offices", font: "DejaVu Sans 11", features: ["-liga"])
        #expect(unligated.width == 48.1044921875)
        #expect(spaced.width == 54.1044921875)  // Pango: unligated + 6 spacings
    }

    // MARK: features (§1)

    @Test func featuresReachHarfBuzz() throws {
        #expect(try TestEngine.measure("office").width == 36.5810546875)
        #expect(try TestEngine.measure("office", features: ["-liga"]).width == 36.783203125)
        #expect(try TestEngine.measure("Small Caps", font: "Noto Sans 11").width == 74.919921875)
        #expect(try TestEngine.measure("Small Caps", font: "Noto Sans 11", features: ["smcp"]).width == 74.140625)
        // The Small-Caps variant of the description turns on the same feature.
        #expect(try TestEngine.measure("Small Caps", font: "Noto Sans Small-Caps 11").width == 74.140625)
    }

    // MARK: wrapping (§4, §5, §6)

    @Test func aLineFitsWhenItsWidthIsAtMostMaxWidthInPangoUnits() throws {
        // "Hello world" is 76536 u.
        #expect(try TestEngine.measure("Hello world", maxWidth: 76536.0 / 1024).lineCount == 1)
        #expect(try TestEngine.measure("Hello world", maxWidth: 76535.0 / 1024).lineCount == 2)
        #expect(try TestEngine.measure("Hello world", maxWidth: 76535.5 / 1024).lineCount == 1)
    }

    @Test func theSpaceAtAWrapDoesNotCount() throws {
        let r = try TestEngine.measure("Hello world", maxWidth: 33.7939453125, lines: true)
        #expect(r.lines.map(\.width) == [33.7939453125, 36.7099609375])
        #expect(r.lines.map(\.text) == ["Hello ", "world"])
        let two = try TestEngine.measure("Hello   world", maxWidth: 34.79, lines: true)
        #expect(two.lines.first?.width == 42.2705078125)  // only the last space is zeroed
    }

    @Test func wordWrapLetsALongWordOverflow() throws {
        let r = try TestEngine.measure("Go supercalifragilisticexpialidocious now", maxWidth: 80, lines: true)
        #expect(r.lines.map(\.text) == ["Go ", "supercalifragilisticexpialidocious ", "now"])
        #expect(r.lines.map(\.width) == [18.4892578125, 216.1005859375, 27.51171875])
        #expect(r.width == 216.1005859375)
        #expect(r.height == 46.5615234375)
    }

    @Test func charWrapBreaksInsideWordsWithAHyphenInTheWidth() throws {
        let r = try TestEngine.measure("Go supercalifragilisticexpialidocious now", maxWidth: 80, wrap: .char, lines: true)
        // Line texts do not contain the hyphen glyph; the widths do.
        #expect(r.lines.map(\.text) == ["Go superc", "alifragilisti", "cexpialidoc", "ious now"])
        #expect(r.lines.map(\.width) == [72.1201171875, 74.1884765625, 79.6962890625, 59.0078125])
    }

    /// A font's hyphen advance is kept with its metrics; it is the advance of U+2010 when the
    /// font has it (DejaVu Sans does).
    @Test func aFontKeepsTheAdvanceOfItsHyphen() throws {
        let style = try TestEngine.engine().style(for: MeasureRequest(text: "", font: "DejaVu Sans 10"))
        #expect(style.primary.hyphenAdvance == (try TestEngine.measure("\u{2010}").width))
        #expect(style.primary.hyphenAdvance > 0)
    }

    @Test func wordCharWrapBreaksOnlyTheWordThatCannotFit() throws {
        let r = try TestEngine.measure("Go supercalifragilisticexpialidocious now", maxWidth: 80, wrap: .wordChar, lines: true)
        #expect(r.lines.map(\.text) == ["Go ", "supercalifr", "agilisticex", "pialidocious ", "now"])
        #expect(r.lines.map(\.width) == [18.4892578125, 75.146484375, 71.6240234375, 78.953125, 27.51171875])
    }

    @Test func breaksAfterAnExistingHyphenAddNoHyphen() throws {
        let r = try TestEngine.measure("well-known-long-compound", maxWidth: 60, wrap: .char, lines: true)
        #expect(r.lines.map(\.text) == ["well-kn", "own-lon", "g-comp", "ound"])
        #expect(r.lines.map(\.width) == [52.3095703125, 57.4462890625, 55.0244140625, 33.5205078125])
    }

    @Test func cjkWrapsBetweenIdeographsWithoutHyphens() throws {
        let r = try TestEngine.measure("你好世界你好世界你好世界", maxWidth: 60, lines: true)
        #expect(r.lines.map(\.width) == [53.33203125, 53.33203125, 53.33203125])
        #expect(r.lines.map(\.text) == ["你好世界", "你好世界", "你好世界"])
        #expect(r.height == 57.9169921875)
    }

    @Test func thaiWrapsAtDictionaryBreaks() throws {
        let r = try TestEngine.measure("ภาษาไทยเป็นภาษาที่สวยงาม", maxWidth: 50, wrap: .char, lines: true)
        #expect(r.lines.map(\.width) == [47.4931640625, 47.42578125, 42.7998046875, 8.1865234375])
        #expect(r.height == 80.5859375)
    }

    @Test func linesReportCodePointRangesTextsAndBaselines() throws {
        let text = "Hello wide world\nsecond 日本 👍🏽 line"
        let r = try TestEngine.measure(text, maxWidth: 60, lines: true)
        #expect(r.lines.map(\.text) == ["Hello ", "wide ", "world", "second ", "日本 👍🏽 ", "line"])
        #expect(r.lines.map(\.start) == [0, 6, 11, 17, 24, 30])
        // "日本 👍🏽 " is 6 code points (👍🏽 is two), 8 UTF-16 units.
        #expect(r.lines.map(\.length) == [6, 5, 5, 7, 6, 4])
        #expect(r.lines.map(\.width) == [33.7939453125, 31.2744140625, 36.7099609375, 47.5498046875, 46.25390625, 24.0615234375])
        #expect(r.height == 96.908203125)
        // Each range is the line's text, in code points of the request.
        let scalars = Array(text.unicodeScalars)
        for line in r.lines {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[line.start..<(line.start + line.length)])
            #expect(String(view) == line.text)
        }
        // Baselines: each line's ascent below the previous line's bottom.
        var top = 0.0
        for line in r.lines {
            #expect(line.baseline == top + line.ascent)
            top += line.height
        }
        #expect(r.lines[4].ascent == 15.4658203125)  // the CJK line is taller
    }

    // MARK: ellipsizing and line limits (§7)

    private let fox = "The quick brown fox jumps over the lazy dog"

    @Test(arguments: [
        (EllipsizeMode.end, 100.0, "The quick br…"),
        (.end, 100.5, "The quick br…"),
        (.end, 37, "Th…"),
        (.middle, 100, "The q…zy dog"),
        (.start, 100, "… the lazy dog"),
        (.start, 37, "…og"),
    ])
    func ellipsizedLineIsExactlyMaxWidth(mode: EllipsizeMode, maxWidth: Double, text: String) throws {
        let r = try TestEngine.measure(fox, maxWidth: maxWidth, ellipsize: mode, lines: true)
        #expect(r.width == maxWidth)
        #expect(r.lineCount == 1)
        #expect(r.ellipsized && r.truncated)
        #expect(r.lines.map(\.text) == [text])
        #expect(r.lines.first?.ellipsized == true)
        // The range is the whole text the line stands for.
        #expect(r.lines.first?.start == 0)
        #expect(r.lines.first?.length == 43)
    }

    @Test func theEllipsisAloneMayBeWiderThanMaxWidth() throws {
        let r = try TestEngine.measure("Hello", maxWidth: 3, ellipsize: .end, lines: true)
        #expect(r.width == 13.3330078125)
        #expect(r.ellipsized)
        #expect(r.lines.map(\.text) == ["…"])
    }

    @Test func textThatFitsIsNotEllipsized() throws {
        let r = try TestEngine.measure("Hello", maxWidth: 100, ellipsize: .end)
        #expect(r.width == 33.7939453125)
        #expect(!r.ellipsized && !r.truncated)
    }

    @Test func wideTextGetsTheMidlineEllipsis() throws {
        let r = try TestEngine.measure("你好世界你好世界你好世界", maxWidth: 60, ellipsize: .end, lines: true)
        #expect(r.width == 60)
        #expect(r.lines.map(\.text) == ["你好世⋯"])
        #expect(r.fontsUsed == ["Noto Sans CJK JP", "DejaVu Sans"])  // DejaVu Sans has U+22EF
    }

    @Test func maxLinesWithEllipsisPutsTheRestOnTheLastLine() throws {
        let two = try TestEngine.measure(fox, maxWidth: 100, maxLines: 2, ellipsize: .end, lines: true)
        #expect(two.lines.map(\.text) == ["The quick ", "brown fox ju…"])
        #expect(two.lines.map(\.width) == [64.7041015625, 100])
        #expect(two.lines.map(\.ellipsized) == [false, true])
        #expect(two.height == 31.041015625)
        #expect(two.ellipsized && two.truncated)
        let three = try TestEngine.measure(fox, maxWidth: 100, maxLines: 3, ellipsize: .end, lines: true)
        #expect(three.lines.map(\.width) == [64.7041015625, 65.7333984375, 100])
        #expect(three.height == 46.5615234375)
    }

    @Test func theLineLimitOfEllipsizingCountsPerParagraph() throws {
        let r = try TestEngine.measure("first paragraph\nsecond", maxWidth: 200, maxLines: 1, ellipsize: .end, lines: true)
        #expect(r.lineCount == 2)
        #expect(r.lines.map(\.width) == [99.603515625, 47.5498046875])
        #expect(!r.ellipsized && !r.truncated)
    }

    @Test func maxLinesWithoutEllipsisClipsTheLayout() throws {
        let r = try TestEngine.measure(fox, maxWidth: 100, maxLines: 2, lines: true)
        #expect(r.lineCount == 2)
        #expect(r.truncated)
        #expect(!r.ellipsized)
        #expect(r.width == 65.7333984375)
        #expect(r.height == 31.041015625)
        #expect(r.lines.map(\.text) == ["The quick ", "brown fox "])
        // Across paragraphs too.
        let p = try TestEngine.measure("a\nb\nc", maxLines: 2, lines: true)
        #expect(p.lines.map(\.text) == ["a", "b"])
        #expect(p.truncated && !p.ellipsized)
        // A limit that is not reached truncates nothing.
        let all = try TestEngine.measure("a\nb", maxLines: 2)
        #expect(all.lineCount == 2 && !all.truncated)
    }

    // MARK: fonts

    @Test func resolveFontReportsThePangoScaleAndMetrics() throws {
        let f = try TestEngine.engine().resolveFont("DejaVu Sans 10", textScale: 1)
        #expect(f.family == "DejaVu Sans")
        #expect(f.pixelSize == 13653.0 / 1024)  // round(10 × 1024 × 96/72) Pango units
        #expect(f.pointSize == 13653.0 / 1024 * 0.75)
        #expect(f.ascent == 12.3759765625)
        #expect(f.descent == 3.14453125)
        #expect(f.matchedRequestedFamily)
        #expect(f.file.hasSuffix("DejaVuSans.ttf"))
        #expect(f.description == "DejaVu Sans 10")
        let generic = try TestEngine.engine().resolveFont("sans-serif 10", textScale: 1)
        #expect(generic.family == "DejaVu Sans")
        #expect(generic.matchedRequestedFamily)
        #expect(generic.fallbackFamilies.contains("Noto Color Emoji") || generic.fallbackFamilies.contains("Noto Sans"))
    }

    /// Without fallbacks (fitctl's substitution warning) the answer is the same font, and no
    /// face beyond those measuring used is prepared.
    @Test func resolveFontWithoutFallbacksNamesTheSameFont() throws {
        _ = try TestEngine.engine()  // the pinned fonts
        let engine = try TextEngine()
        let lean = try engine.resolveFont("Noto Serif Bold 11", textScale: 1, fallbacks: false)
        #expect(lean.fallbackFamilies.isEmpty)
        let full = try engine.resolveFont("Noto Serif Bold 11", textScale: 1)
        #expect(!full.fallbackFamilies.isEmpty)
        var withoutFallbacks = full
        withoutFallbacks.fallbackFamilies = []
        #expect(lean == withoutFallbacks)
    }

    // MARK: caches and threads

    @Test func aCachedResultEqualsTheUncachedOne() throws {
        let engine = try TestEngine.engine()
        let request = MeasureRequest(
            text: "Cache check \(UUID()) 你好 👍🏽 مرحبا", font: "DejaVu Sans 10", maxWidth: 90, wrap: .wordChar,
            includeLines: true)
        let first = try engine.measure(request)
        let second = try engine.measure(request)
        #expect(first == second)
        engine.removeCachedMeasurements()
        #expect(try engine.measure(request) == first)
    }

    @Test func cacheStatisticsCountHitsAndMisses() throws {
        let engine = try TestEngine.engine()
        func results() -> CacheStatistics? { engine.cacheStatistics.first { $0.name == "results" } }
        let request = MeasureRequest(text: "Statistics \(UUID())", font: "DejaVu Sans 10")
        let before = try #require(results())
        _ = try engine.measure(request)
        let afterMiss = try #require(results())
        _ = try engine.measure(request)
        let afterHit = try #require(results())
        // Other tests share the engine, so the counters may move further, never less.
        #expect(afterMiss.misses >= before.misses + 1)
        #expect(afterHit.hits >= afterMiss.hits + 1)
        #expect(afterHit.entries >= 1)
        #expect(afterHit.bytes <= afterHit.byteLimit)
        #expect(engine.cacheStatistics.map(\.name).starts(with: ["results", "shaped-runs"]))
    }

    @Test func resultsAreTheSameFromEightThreadsAtOnce() async throws {
        let engine = try TestEngine.engine()
        let requests = [
            MeasureRequest(text: "Hello", font: "DejaVu Sans 10"),
            MeasureRequest(text: fox, font: "DejaVu Sans 10", maxWidth: 100, ellipsize: .middle, includeLines: true),
            MeasureRequest(text: "Go supercalifragilisticexpialidocious now", font: "DejaVu Sans 10", maxWidth: 80, wrap: .wordChar, includeLines: true),
            MeasureRequest(text: "你好世界 안녕 ไทย क 😀 👨‍👩‍👧‍👦 مرحبا", font: "Noto Sans 11", maxWidth: 70, includeLines: true),
            MeasureRequest(text: "日本語テキスト", maxWidth: 7, unit: .cells, includeLines: true),
            MeasureRequest(text: "office", font: "DejaVu Sans 10", features: ["-liga"]),
        ]
        let expected = try requests.map { try engine.measure($0) }
        #expect(expected[0].width == 33.7939453125)
        #expect(expected[1].width == 100)
        engine.removeCachedMeasurements()  // the threads shape and cache concurrently
        let all = try await withThrowingTaskGroup(of: [TextMetrics].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var results: [TextMetrics] = []
                    for _ in 0..<5 {
                        for request in requests { results.append(try engine.measure(request)) }
                    }
                    return results
                }
            }
            var collected: [[TextMetrics]] = []
            for try await results in group { collected.append(results) }
            return collected
        }
        #expect(all.count == 8)
        for results in all {
            #expect(results == Array(repeating: expected, count: 5).flatMap { $0 })
        }
    }
}

@Suite struct CachedMeasurementTests {
    @Test func cachedMeasurementNeverMeasuresAndReturnsWhatMeasureCached() throws {
        let engine = try TestEngine.engine()
        let request = MeasureRequest(text: "Peek at me \(#line)", font: "DejaVu Sans 10")
        #expect(engine.cachedMeasurement(request) == nil)
        #expect(engine.cachedMeasurement(request) == nil)  // still nil: looking did not measure
        let measured = try engine.measure(request)
        #expect(engine.cachedMeasurement(request) == measured)
        var invalid = request
        invalid.maxWidth = -1
        #expect(engine.cachedMeasurement(invalid) == nil)
    }
}
