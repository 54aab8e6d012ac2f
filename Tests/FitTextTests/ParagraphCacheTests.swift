import Testing

@testable import FitText

/// The paragraph cache: a text measured again at another width is broken into lines again,
/// not analysed and shaped again — and measures exactly as on an engine that never saw it.
@Suite struct ParagraphCacheTests {
    /// An engine of its own, so the cache counters move only with this test.
    private func freshEngine() throws -> TextEngine { try TestEngine.fresh() }

    private func statistics(_ engine: TextEngine, _ name: String) throws -> CacheStatistics {
        try #require(engine.cacheStatistics.first { $0.name == name })
    }

    @Test func aTextMeasuredAtSeveralWidthsIsShapedOnce() throws {
        let engine = try freshEngine()
        let text = "Screen time this week"
        _ = try engine.measure(MeasureRequest(text: text, font: "DejaVu Sans 11"))
        let runs = try statistics(engine, "shaped-runs")
        let paragraphs = try statistics(engine, "paragraphs")
        for width in [0.0, 60, 320] {
            _ = try engine.measure(MeasureRequest(text: text, font: "DejaVu Sans 11", maxWidth: width, wrap: .word))
        }
        // No shaped run or word was even looked up: the paragraph came whole from its cache.
        #expect(try statistics(engine, "shaped-runs").misses == runs.misses)
        #expect(try statistics(engine, "shaped-runs").hits == runs.hits)
        #expect(try statistics(engine, "paragraphs").hits == paragraphs.hits + 3)
        #expect(try statistics(engine, "paragraphs").entries == 1)
        // Broken inside words, a line's last letter is shaped again with its hyphen, as Pango
        // does (HyphenReshaper): one entry per letter at most, the paragraph still not shaped.
        let entries = try statistics(engine, "shaped-runs").entries
        _ = try engine.measure(MeasureRequest(text: text, font: "DejaVu Sans 11", maxWidth: 0, wrap: .wordChar))
        #expect(try statistics(engine, "paragraphs").hits == paragraphs.hits + 4)
        #expect(try statistics(engine, "shaped-runs").entries <= entries + text.count)
    }

    /// The first measurement has no width, so the cached paragraph has no line-break
    /// opportunities or hyphen positions; the wrapped ones add them. Each must equal what an
    /// engine that measures only that request gives, lines and all.
    @Test(arguments: [
        "Go supercalifragilisticexpialidocious now",
        "Version 2.0 リリース — 你好世界 안녕",
        "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ",
        "שלום עולם and مرحبا بالعالم mixed",
        "Tab\tseparated\tcolumns",
        "emoji 👩🏽‍💻 and flags 🇩🇪🇫🇷 wrap",
        "first paragraph\nsecond, a little longer\r\nthird",
        "e\u{301}te\u{301} combining marks",
    ])
    func wrappingAParagraphShapedUnwrappedGivesWhatAFreshEngineGives(_ text: String) throws {
        let engine = try freshEngine()
        let unwrapped = MeasureRequest(text: text, font: "Noto Sans 11", includeLines: true)
        #expect(try engine.measure(unwrapped) == freshEngine().measure(unwrapped))
        // Word wrap adds line breaks only; char and word-char then add hyphen positions.
        for wrap in [WrapMode.word, .wordChar, .char] {
            for width in [0.0, 0.5, 45, 120] {
                for (lines, ellipsize) in [(nil, EllipsizeMode.none), (2, .none), (2, .end), (1, .middle)] as [(Int?, EllipsizeMode)] {
                    let request = MeasureRequest(
                        text: text, font: "Noto Sans 11", maxWidth: width, wrap: wrap, maxLines: lines, ellipsize: ellipsize,
                        includeLines: true)
                    let cached = try engine.measure(request)
                    let fresh = try freshEngine().measure(request)
                    #expect(cached == fresh, "\(wrap) at \(width), \(lines.map(String.init) ?? "no") line limit, \(ellipsize)")
                }
            }
        }
    }

    @Test func letterSpacingAndFontsAreKeptApart() throws {
        let engine = try freshEngine()
        let requests = [
            MeasureRequest(text: "office affairs", font: "DejaVu Sans 10"),
            MeasureRequest(text: "office affairs", font: "DejaVu Sans 10", letterSpacing: 1),
            MeasureRequest(text: "office affairs", font: "DejaVu Sans 10", maxWidth: 40, wrap: .wordChar, letterSpacing: 2),
            MeasureRequest(text: "office affairs", font: "DejaVu Serif 10", maxWidth: 40),
            MeasureRequest(text: "office affairs", font: "DejaVu Sans 10", maxWidth: 40, features: ["-liga"]),
            MeasureRequest(text: "office affairs", font: "DejaVu Sans 10", textScale: 1.5),
        ]
        for request in requests { _ = try engine.measure(request) }
        #expect(try statistics(engine, "paragraphs").entries == requests.count)
        for request in requests {
            engine.removeCachedResults()  // paragraphs stay: each request is answered from its own
            #expect(try engine.measure(request) == freshEngine().measure(request))
        }
    }

    @Test func removeCachedMeasurementsEmptiesTheParagraphCache() throws {
        let engine = try freshEngine()
        _ = try engine.measure(MeasureRequest(text: "Joe's Coffee Shop", font: "DejaVu Sans 11"))
        #expect(try statistics(engine, "paragraphs").entries == 1)
        engine.removeCachedMeasurements()
        #expect(try statistics(engine, "paragraphs").entries == 0)
        let before = try statistics(engine, "shaped-runs")
        _ = try engine.measure(MeasureRequest(text: "Joe's Coffee Shop", font: "DejaVu Sans 11", maxWidth: 0, wrap: .wordChar))
        #expect(try statistics(engine, "shaped-runs").misses > before.misses)  // shaped again
    }

    @Test func aParagraphKeyComparesTextsByTheirBytes() {
        // "é" precomposed and decomposed are equal Strings but shape apart (MeasureRequest ==).
        let precomposed = CachedParagraph.Key(style: 1, letterSpacing: 0, text: "caf\u{E9}")
        let decomposed = CachedParagraph.Key(style: 1, letterSpacing: 0, text: "cafe\u{301}")
        #expect(precomposed != decomposed)
        #expect(precomposed == CachedParagraph.Key(style: 1, letterSpacing: 0, text: "caf\u{E9}"))
        #expect(precomposed != CachedParagraph.Key(style: 2, letterSpacing: 0, text: "caf\u{E9}"))
        #expect(precomposed != CachedParagraph.Key(style: 1, letterSpacing: 0.5, text: "caf\u{E9}"))
    }

    /// The key is the paragraph's own text, not the request's (work stays linear in the paragraph): a
    /// paragraph that two texts share is analysed and shaped once, wherever it stands.
    @Test func twoTextsSharingAParagraphShareItsEntry() throws {
        let engine = try freshEngine()
        let font = "DejaVu Sans 11"
        _ = try engine.measure(MeasureRequest(text: "Shared paragraph\nfirst text's own", font: font))
        #expect(try statistics(engine, "paragraphs").entries == 2)
        let before = try statistics(engine, "paragraphs")
        // The shared paragraph second, and alone: both from the entry made above.
        _ = try engine.measure(MeasureRequest(text: "second text's own\nShared paragraph", font: font))
        _ = try engine.measure(MeasureRequest(text: "Shared paragraph", font: font))
        let after = try statistics(engine, "paragraphs")
        #expect(after.hits == before.hits + 2)
        #expect(after.entries == 3)
        let request = MeasureRequest(text: "second text's own\nShared paragraph", font: font, includeLines: true)
        #expect(try engine.measure(request) == freshEngine().measure(request))
    }

    /// Repeated paragraphs of one text are one entry: 10,000 lines of "a" make one entry and
    /// one miss, however long the text (the key once held the whole text and the paragraph's
    /// offset: 10,000 entries, each hashing the whole text).
    @Test func repeatedParagraphsOfOneTextAreOneEntry() throws {
        let engine = try freshEngine()
        let metrics = try engine.measure(MeasureRequest(text: String(repeating: "a\n", count: 10_000), font: "DejaVu Sans 11"))
        #expect(metrics.lineCount == 10_001)
        let paragraphs = try statistics(engine, "paragraphs")
        #expect(paragraphs.entries == 2)  // "a" and the empty last line
        #expect(paragraphs.misses == 2)
        #expect(paragraphs.hits == 9_999)
    }
}
