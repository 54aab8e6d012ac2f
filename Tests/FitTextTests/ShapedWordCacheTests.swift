import Testing

@testable import FitText

/// The shaped-word cache: strings made of known words, and known strings wrapped at a new
/// width, are measured without shaping, and measure as if shaped whole.
@Suite struct ShapedWordCacheTests {
    /// An engine of its own, so the cache counters move only with this test.
    private func freshEngine() throws -> TextEngine { try TestEngine.fresh() }

    private func shapedWords(_ engine: TextEngine) throws -> CacheStatistics {
        try #require(engine.cacheStatistics.first { $0.name == "shaped-runs" })
    }

    @Test func aStringOfKnownWordsIsNotShapedAgain() throws {
        let engine = try freshEngine()
        _ = try engine.measure(MeasureRequest(text: "Delete the selected files", font: "DejaVu Sans 10"))
        let before = try shapedWords(engine)
        let assembled = try engine.measure(MeasureRequest(text: "the selected files", font: "DejaVu Sans 10"))
        let after = try shapedWords(engine)
        // The string as a whole is new (one miss); "the ", "selected ", "files" are known.
        #expect(after.misses == before.misses + 1)
        #expect(after.hits == before.hits + 3)
        #expect(after.entries == before.entries)  // nothing was shaped, so nothing stored
        let whole = try freshEngine().measure(MeasureRequest(text: "the selected files", font: "DejaVu Sans 10"))
        #expect(assembled.width == whole.width)
        #expect(assembled.height == whole.height)
    }

    @Test func rewrappingDoesNotReshape() throws {
        let engine = try freshEngine()
        let text = "Your changes will be lost if you don't save them"
        _ = try engine.measure(MeasureRequest(text: text, font: "Noto Sans 11"))
        let before = try shapedWords(engine)
        for width in [60.0, 120, 200] {
            let wrapped = try engine.measure(MeasureRequest(text: text, font: "Noto Sans 11", maxWidth: width))
            #expect(wrapped.lineCount > 1)
        }
        #expect(try shapedWords(engine).misses == before.misses)
    }
}
