import Testing

@testable import FitText

/// The request shapes that a naive path measures in time quadratic in their size, at the size
/// of the daemon's limit or near it, give the right answers. How long they take is measured by
/// Benchmarks/Sources/FitBenchCost, not here; these check that the linear paths still count
/// every line.
@Suite struct LinearTimeTests {
    private func engine() throws -> TextEngine { try TestEngine.engine() }
    private let font = "DejaVu Sans 12"

    @Test func newlinesOnlyGiveOneLineEach() throws {
        let metrics = try engine().measure(MeasureRequest(text: String(repeating: "\n", count: 262_144), font: font))
        #expect(metrics.lineCount == 262_145)
        let one = try engine().measure(MeasureRequest(text: "", font: font))
        #expect(metrics.height == one.height * 262_145)
    }

    @Test func wordsAtWidthZeroGiveOneLineEach() throws {
        let metrics = try engine().measure(MeasureRequest(text: String(repeating: "a ", count: 131_072), font: font, maxWidth: 0))
        #expect(metrics.lineCount == 131_072)
        // The space hangs past the end of each wrapped line; the last line is not wrapped and
        // keeps it (Pango's process_item measures the rest of a paragraph whole).
        let last = try engine().measure(MeasureRequest(text: "a ", font: font))
        #expect(metrics.width == last.width)
    }

    @Test func shortParagraphsWithLinesGiveEveryLineItsRange() throws {
        let count = 100_000
        let metrics = try engine().measure(MeasureRequest(text: String(repeating: "a\n", count: count), font: font, includeLines: true))
        #expect(metrics.lineCount == count + 1)
        #expect(metrics.lines.count == count + 1)
        var wrong = 0
        for (i, line) in metrics.lines.enumerated().dropLast() where line.text != "a" || line.start != 2 * i || line.length != 1 {
            wrong += 1
        }
        #expect(wrong == 0)
        #expect(metrics.lines.last?.start == 2 * count)
        #expect(metrics.lines.last?.length == 0)
    }

    /// A long text of repeated words: every line but the last holds the same words.
    @Test func longProseWrapsIntoEqualLines() throws {
        let sentence = "lorem ipsum dolor sit amet "
        let repeats = 9_000  // 243,000 bytes
        let metrics = try engine().measure(MeasureRequest(
            text: String(repeating: sentence, count: repeats), font: font, maxWidth: 2_000, includeLines: true))
        let perLine = try #require(metrics.lines.first).length
        #expect(perLine % sentence.count == 0)  // a line ends after a whole sentence (it fits several)
        #expect(metrics.lineCount == (repeats * sentence.count + perLine - 1) / perLine)
        #expect(metrics.lines.dropLast().allSatisfy { $0.length == perLine })
    }

    /// One word of 256 K letters broken by characters, and by word-char: lines of equal length.
    @Test(arguments: [WrapMode.char, .wordChar])
    func aLongWordBreaksIntoEqualLines(_ wrap: WrapMode) throws {
        let length = 262_144
        let metrics = try engine().measure(MeasureRequest(
            text: String(repeating: "x", count: length), font: font, maxWidth: 200, wrap: wrap, includeLines: true))
        let perLine = try #require(metrics.lines.first).length
        #expect(perLine > 10)
        #expect(metrics.lineCount == (length + perLine - 1) / perLine)
        #expect(metrics.lines.dropLast().allSatisfy { $0.length == perLine })
    }

    /// White space hangs past a line's end, so it never stops the search for a line's end:
    /// a paragraph of spaces or tabs broken by characters was read to its end for every line.
    @Test(arguments: ["\t", " "])
    func whiteSpaceBrokenByCharactersGivesEqualLines(_ unit: String) throws {
        let count = 131_072
        let metrics = try engine().measure(MeasureRequest(
            text: "a" + String(repeating: unit, count: count), font: font, maxWidth: 100, wrap: .char, includeLines: true))
        let perLine = try #require(metrics.lines.dropFirst().first).length
        #expect(perLine > 1)
        let rest = count + 1 - metrics.lines[0].length
        #expect(metrics.lineCount == 1 + (rest + perLine - 1) / perLine)
        #expect(metrics.lines.dropFirst().dropLast().allSatisfy { $0.length == perLine })
    }

    /// A run cut into words once shaped whole: every word of a long run is stored, so each
    /// measured alone is a hit (the cut once searched each word from the run's start).
    @Test func everyWordOfALongRunIsStored() throws {
        let engine = try TestEngine.fresh()
        let words = (0..<5_000).map { "w\($0)" }
        _ = try engine.measure(MeasureRequest(text: words.joined(separator: " "), font: font))
        let before = try #require(engine.cacheStatistics.first { $0.name == "shaped-runs" })
        for word in words.prefix(1_000) {
            _ = try engine.measure(MeasureRequest(text: word + " " + word, font: font))
        }
        let after = try #require(engine.cacheStatistics.first { $0.name == "shaped-runs" })
        // Each text is new (a miss), and is made of the known word "wN " and the known "wN"
        // (the last word of the long run is the only one stored without its space).
        #expect(after.misses - before.misses == 1_000 + 1_000)
    }

    @Test func cellsOfALongTextCountEveryRow() throws {
        let metrics = try engine().measure(MeasureRequest(text: String(repeating: "abc def ", count: 32_768), maxWidth: 8, unit: .cells))
        // "abc def " is 8 columns; its final space hangs, so each row holds one "abc def" (the
        // last row, not wrapped, keeps its space).
        #expect(metrics.lineCount == 32_768)
        #expect(metrics.width == 8)
    }

    @Test func ellipsizingAHugeTextKeepsTheGoalWidth() throws {
        for mode in [EllipsizeMode.start, .middle, .end] {
            let metrics = try engine().measure(MeasureRequest(
                text: String(repeating: "lorem ipsum ", count: 20_000), font: font, maxWidth: 300, maxLines: 2, ellipsize: mode))
            #expect(metrics.lineCount == 2)
            #expect(metrics.ellipsized)
            #expect(metrics.width == 300)
        }
    }

    /// Cutting a run into words in order with a cursor gives what cutting each from the
    /// start gives; a cursor past the word starts over.
    @Test func slicingWithACursorGivesWhatSlicingFromTheStartGives() {
        let run = ShapedRun(clusters: (0..<100).map { ShapedRun.Cluster(start: Int32(3 * $0), advance: Double($0)) })
        var cursor = 0
        for word in stride(from: 0, to: 300, by: 30) {
            let from = Int32(word)
            let to = Int32(word + 30)
            let sliced = run.slice(from: from, to: to, cursor: &cursor)
            #expect(sliced?.clusters.map(\.advance) == run.slice(from: from, to: to)?.clusters.map(\.advance))
            #expect(sliced?.clusters.count == 10)
            #expect(cursor == Int(to) / 3)
        }
        cursor = 50
        #expect(run.slice(from: 3, to: 9, cursor: &cursor)?.clusters.map(\.advance) == [1, 2])
        // A cut inside a cluster: nil, as without a cursor.
        cursor = 0
        #expect(run.slice(from: 4, to: 9, cursor: &cursor) == nil)
    }
}
