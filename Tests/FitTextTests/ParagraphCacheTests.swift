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
            _ = try engine.measure(MeasureRequest(text: text, font: "DejaVu Sans 11", maxWidth: width, wrap: .wordChar))
        }
        // No shaped run or word was even looked up: the paragraph came whole from its cache.
        #expect(try statistics(engine, "shaped-runs").misses == runs.misses)
        #expect(try statistics(engine, "shaped-runs").hits == runs.hits)
        #expect(try statistics(engine, "paragraphs").hits == paragraphs.hits + 3)
        #expect(try statistics(engine, "paragraphs").entries == 1)
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
        let precomposed = CachedParagraph.Key(style: 1, letterSpacing: 0, text: "caf\u{E9}", start: 0)
        let decomposed = CachedParagraph.Key(style: 1, letterSpacing: 0, text: "cafe\u{301}", start: 0)
        #expect(precomposed != decomposed)
        #expect(precomposed == CachedParagraph.Key(style: 1, letterSpacing: 0, text: "caf\u{E9}", start: 0))
        #expect(precomposed != CachedParagraph.Key(style: 2, letterSpacing: 0, text: "caf\u{E9}", start: 0))
        #expect(precomposed != CachedParagraph.Key(style: 1, letterSpacing: 0, text: "caf\u{E9}", start: 5))
    }
}
