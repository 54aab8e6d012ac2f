import Testing

@testable import FitText

/// UAX #15's stream-safe bound applied to grapheme clusters: at most 31 code points each (a
/// first and 30 that extend it); what follows continues in clusters of its own.
@Suite struct StreamSafeClustersTests {
    let analyzer = TextAnalyzer()

    private func analyze(_ text: String) throws -> (ParagraphAnalysis, [UInt16]) {
        let units = Array(text.utf16)
        let analysis = try units.withUnsafeBufferPointer { try analyzer.analyze($0, lineBreaks: true) }
        return (analysis, units)
    }

    /// Code points per cluster, from the analysis's starts.
    private func scalarCounts(_ analysis: ParagraphAnalysis, _ units: [UInt16]) -> [Int] {
        (0..<analysis.clusterCount).map { c in
            let from = Int(analysis.graphemeStarts[c])
            let to = Int(analysis.graphemeStarts[c + 1])
            return String(decoding: units[from..<to], as: UTF16.self).unicodeScalars.count
        }
    }

    @Test func aBaseAndSixtyFiveThousandMarksAreCutEveryThirtyOneCodePoints() throws {
        let (analysis, units) = try analyze("a" + String(repeating: "\u{301}", count: 65_536))
        // 65,537 code points: 2,114 clusters of 31, then 3.
        #expect(analysis.clusterCount == 2_115)
        let counts = scalarCounts(analysis, units)
        #expect(counts.dropLast().allSatisfy { $0 == 31 })
        #expect(counts.last == 65_537 - 2_114 * 31)
        #expect(analysis.continuation.count == 2_115)
        #expect(analysis.continuation.first == false)
        #expect(analysis.continuation.dropFirst().allSatisfy { $0 })
    }

    @Test func clustersUpToThirtyOneCodePointsAreLeftWhole() throws {
        // A base and 30 marks: exactly the bound.
        let (whole, _) = try analyze("x a" + String(repeating: "\u{301}", count: 30) + " y")
        #expect(whole.clusterCount == 5)
        #expect(whole.continuation.isEmpty)
        // One more mark: a continuation of one code point.
        let (cut, units) = try analyze("x a" + String(repeating: "\u{301}", count: 31) + " y")
        #expect(cut.clusterCount == 6)
        #expect(scalarCounts(cut, units) == [1, 1, 31, 1, 1, 1])
        #expect(cut.continuation == [false, false, false, true, false, false])
        // Real text's longest clusters (an emoji ZWJ sequence with skin tones, a flag tag
        // sequence) are far below the bound.
        let (emoji, _) = try analyze("👩🏻‍❤️‍💋‍👨🏼 🏴󠁧󠁢󠁳󠁣󠁴󠁿")
        #expect(emoji.clusterCount == 3)
        #expect(emoji.continuation.isEmpty)
    }

    /// Every code point extending a cluster counts, supplementary ones once (not per UTF-16
    /// unit): 40 skin-tone modifiers after "a" are 41 code points, cut after the 31st.
    @Test func codePointsAreCountedNotCodeUnits() throws {
        let (analysis, units) = try analyze("a" + String(repeating: "\u{1F3FD}", count: 40))
        #expect(scalarCounts(analysis, units) == [31, 10])
        #expect(analysis.continuation == [false, true])
    }

    /// The continuation is measured as its marks alone, without the dotted circle HarfBuzz
    /// puts before a mark that starts a text: combining marks take no width in DejaVu Sans, so
    /// "a" with any number of acute accents is as wide as "a" with one — one line, no box.
    @Test func aCutClusterMeasuresAsItsBaseAndMarks() throws {
        let engine = try TestEngine.engine()
        let one = try engine.measure(MeasureRequest(text: "a\u{301}", font: "DejaVu Sans 12"))
        for count in [31, 32, 100, 65_536] {
            let many = try engine.measure(MeasureRequest(text: "a" + String(repeating: "\u{301}", count: count), font: "DejaVu Sans 12"))
            #expect(many.width == one.width, "\(count) marks")
            #expect(many.lineCount == 1)
        }
        // In cells, marks take no column: one cell however many there are.
        let cells = try engine.measure(MeasureRequest(text: "a" + String(repeating: "\u{301}", count: 65_536), unit: .cells))
        #expect(cells.width == 1)
    }
}
