import Foundation
import Testing

@testable import FitText

/// Input from outside the process (a D-Bus peer, a batch file): each case gets a clear error
/// that names what was wrong, or a defined result. Nothing crashes or runs long.
@Suite struct BadInputTests {
    private func error(_ request: MeasureRequest) throws -> FitTextError? { try TestEngine.error(of: request) }

    private func argumentName(_ error: FitTextError?) -> String? {
        if case .invalidArgument(let name, _) = error { return name }
        return nil
    }

    // MARK: text

    @Test func emptyTextIsOneEmptyLine() throws {
        let px = try TestEngine.measure("")
        #expect(px.lineCount == 1 && px.width == 0 && px.height == 15.5205078125)
        let cells = try TestEngine.cells("")
        #expect(cells.lineCount == 1 && cells.width == 0 && cells.height == 1)
    }

    @Test func tenMegabytesOfTextIsRejectedQuicklyNamingTheLimit() throws {
        let text = String(repeating: "0123456789", count: 1_048_576)  // 10 MiB
        let request = MeasureRequest(text: text, font: "DejaVu Sans 10")
        let clock = ContinuousClock()
        var failure: FitTextError?
        let elapsed = try clock.measure { failure = try error(request) }
        #expect(failure == .textTooLong(bytes: 10_485_760, limit: TextLimits.maxTextBytes))
        #expect(failure?.description.contains("1048576") == true)
        #expect(elapsed < .milliseconds(200))
        // The same for cells, and one byte over the limit is already too long.
        var cells = request
        cells.unit = .cells
        #expect(try error(cells) == .textTooLong(bytes: 10_485_760, limit: 1 << 20))
        let justOver = MeasureRequest(text: String(repeating: "a", count: TextLimits.maxTextBytes + 1))
        #expect(try error(justOver) == .textTooLong(bytes: TextLimits.maxTextBytes + 1, limit: TextLimits.maxTextBytes))
    }

    @Test func unassignedCodePointsAreMeasuredAsPangoDoes() throws {
        // Pango draws U+0378 (unassigned) as a hex box, 9.3857 px in DejaVu Sans 10, and gives
        // U+E0080 (unassigned, default ignorable) no width (pango_measure.py).
        let r = try TestEngine.measure("a\u{378}b\u{E0080}c", lines: true)
        #expect(r.lineCount == 1)
        #expect(r.lines.first?.length == 5)
        #expect(r.lines.first?.text == "a\u{378}b\u{E0080}c")
        #expect(try TestEngine.measure("\u{E0080}").width == 0)
        let box = try TestEngine.measure("\u{378}").width
        #expect(isClose(box, 9.3857421875), "Pango: 9.3857421875 (hex box); engine: \(box)")
    }

    @Test func aLoneCombiningMarkGetsADottedCircleAsInPango() throws {
        // HarfBuzz inserts U+25CC before a mark that starts the text (Pango passes
        // HB_BUFFER_FLAG_BOT): Pango measures "\u{301}" as 11.6338 px, "\u{301}\u{308}x" as
        // 19.5244 (pango_measure.py). After a space the mark attaches to it: no circle.
        let alone = try TestEngine.measure("\u{301}")
        #expect(alone.lineCount == 1)
        #expect(alone.width == 11.6337890625, "Pango: 11.6337890625; engine: \(alone.width)")
        #expect(try TestEngine.measure("\u{301}\u{308}x").width == 19.5244140625)
        #expect(try TestEngine.measure("x \u{301}").width == 12.12890625)
        // In cells a lone mark takes no column.
        #expect(try TestEngine.cells("\u{301}").width == 0)
    }

    @Test func controlCharactersAreMeasuredAsPangoDoes() throws {
        // Pango shows U+0001 as a hex box (9.3857 px); a tab goes to the next 8-space stop.
        let control = try TestEngine.measure("a\u{1}b", lines: true)
        #expect(control.lineCount == 1)
        #expect(control.lines.first?.text == "a\u{1}b")
        #expect(isClose(control.width, 26.0185546875), "Pango: 26.0185546875; engine: \(control.width)")
        #expect(try TestEngine.measure("a\tb").width == 42.369140625)
        // In cells a control character takes no column, a tab runs to the next multiple of 8.
        #expect(try TestEngine.cells("a\u{1}b").width == 2)
        #expect(try TestEngine.cells("ab\tc").width == 9)
    }

    @Test func aTabAfterTextLeavesAtLeastASpaceBeforeTheStop() throws {
        // PANGO_RULES.md §4: "Hello\t" = 67.8125 — "Hello" (33.79) ends 0.11 px before the
        // first stop (8 spaces, 33.906), closer than a space, so the tab runs to the second.
        let r = try TestEngine.measure("Hello\t")
        #expect(r.width == 67.8125, "Pango: 67.8125; engine: \(r.width)")
    }

    // MARK: fonts

    @Test func anUnknownFamilyFallsBackAndSaysWhatWasUsed() throws {
        let r = try TestEngine.measure("Hello", font: "No Such Family 12")
        #expect(r.fontsUsed == ["DejaVu Sans"])
        #expect(r.width == 40.5546875)  // DejaVu Sans 12, as Pango
        let f = try TestEngine.engine().resolveFont("No Such Family 12", textScale: 1)
        #expect(!f.matchedRequestedFamily)
        #expect(f.family == "DejaVu Sans")
        #expect(f.description == "No Such Family 12")
        #expect(try TestEngine.engine().resolveFont("Noto Sans 12", textScale: 1).matchedRequestedFamily)
    }

    @Test func sizeZeroIsAnError() throws {
        #expect(try error(MeasureRequest(text: "a", font: "DejaVu Sans 0")) == .invalidFontSize(0, reason: "a size must be greater than 0"))
    }

    @Test func negativeSizeIsAnError() throws {
        #expect(try error(MeasureRequest(text: "a", font: "DejaVu Sans -3")) == .invalidFontSize(-3, reason: "a size must be greater than 0"))
    }

    @Test func notANumberSizeIsAnError() throws {
        let failure = try error(MeasureRequest(text: "a", font: "DejaVu Sans -nan"))
        guard case .invalidFontSize(let size, let reason) = failure else {
            Issue.record("expected invalidFontSize, got \(String(describing: failure))")
            return
        }
        #expect(size.isNaN)
        #expect(reason == "not a finite number")
    }

    @Test func tenThousandPointsIsAnErrorNamingTheLimit() throws {
        let failure = try error(MeasureRequest(text: "a", font: "DejaVu Sans 10000"))
        guard case .invalidFontSize(let size, let reason) = failure else {
            Issue.record("expected invalidFontSize, got \(String(describing: failure))")
            return
        }
        #expect(size == 10_000 * 96.0 / 72)
        #expect(reason.contains("2048"))
        #expect(reason.contains("TextLimits.maxPixelSize"))
        // The limit applies after the text scale: 1000 pt is fine, × 4 is not.
        #expect(try error(MeasureRequest(text: "a", font: "DejaVu Sans 1000")) == nil)
        guard case .invalidFontSize = try error(MeasureRequest(text: "a", font: "DejaVu Sans 1000", textScale: 4)) else {
            Issue.record("1000 pt × 4 should be over the limit")
            return
        }
        // resolveFont checks the same.
        #expect(throws: FitTextError.self) { try TestEngine.engine().resolveFont("DejaVu Sans 10000", textScale: 1) }
    }

    @Test func badFontDescriptionsAreErrors() throws {
        guard case .invalidFontDescription(_, let reason) = try error(MeasureRequest(text: "a", font: "Sans\u{1B} 10")) else {
            Issue.record("a control character in the font should be an error")
            return
        }
        #expect(reason == "contains control characters")
        guard case .invalidFontDescription = try error(MeasureRequest(text: "a", font: String(repeating: "x", count: 5000))) else {
            Issue.record("a 5000-byte font description should be an error")
            return
        }
    }

    // MARK: widths and lines

    @Test func maxWidthZeroPutsOneWordOnEachLine() throws {
        let r = try TestEngine.measure("Hello big world", maxWidth: 0, lines: true)
        #expect(r.lines.map(\.text) == ["Hello ", "big ", "world"])
        #expect(r.lines.map(\.width) == [33.7939453125, 20.6298828125, 36.7099609375])  // Pango
        let cells = try TestEngine.cells("Hello big world", maxWidth: 0)
        #expect(cells.lines.map(\.text) == ["Hello ", "big ", "world"])
    }

    @Test func maxWidthZeroWithCharWrapPutsOneClusterOnEachLine() throws {
        let r = try TestEngine.measure("Hello", maxWidth: 0, wrap: .char, lines: true)
        #expect(r.lines.map(\.text) == ["H", "e", "l", "l", "o"])
        #expect(r.width == 14.8369140625)  // Pango: "H" and its hyphen
        #expect(r.height == 77.6025390625)
        let cells = try TestEngine.cells("日本", maxWidth: 0, wrap: .char)
        #expect(cells.lines.map(\.text) == ["日", "本"])
    }

    @Test(arguments: [-1.0, -.infinity, .infinity, .nan, 2_000_000])
    func maxWidthOutOfRangeIsAnError(_ width: Double) throws {
        #expect(argumentName(try error(MeasureRequest(text: "a", font: "DejaVu Sans 10", maxWidth: width))) == "max_width")
        #expect(argumentName(try error(MeasureRequest(text: "a", maxWidth: width, unit: .cells))) == "max_width")
    }

    @Test(arguments: [0, -1, Int.min])
    func maxLinesBelowOneIsAnError(_ lines: Int) throws {
        let failure = try error(MeasureRequest(text: "a", font: "DejaVu Sans 10", maxLines: lines))
        #expect(failure == .invalidArgument(name: "max_lines", reason: "\(lines) must be at least 1; omit it for no limit"))
    }

    @Test func unknownWrapAndEllipsizeWordsAreErrors() throws {
        #expect(throws: FitTextError.invalidArgument(name: "wrap", reason: "\"sideways\" is not a wrap mode; use word, char or word-char")) {
            try WrapMode(parsing: "sideways")
        }
        #expect(throws: FitTextError.self) { try WrapMode(parsing: "") }
        #expect(throws: FitTextError.self) { try WrapMode(parsing: "word_char") }
        #expect(throws: FitTextError.invalidArgument(name: "ellipsize", reason: "\"both\" is not an ellipsize mode; use none, start, middle or end")) {
            try EllipsizeMode(parsing: "both")
        }
        // Words are exact, as option keys are (protocol/README.md, "Measure options").
        #expect(try WrapMode(parsing: "word-char") == .wordChar)
        #expect(try EllipsizeMode(parsing: "middle") == .middle)
        #expect(throws: FitTextError.self) { try WrapMode(parsing: "WORD-CHAR") }
        #expect(throws: FitTextError.self) { try EllipsizeMode(parsing: "Middle") }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1001, -1001])
    func letterSpacingOutOfRangeIsAnError(_ spacing: Double) throws {
        #expect(argumentName(try error(MeasureRequest(text: "ab", font: "DejaVu Sans 10", letterSpacing: spacing))) == "letter_spacing")
    }

    @Test(arguments: [0.0, 0.2, 4.5, .nan, .infinity])
    func textScaleOutOfRangeIsAnError(_ scale: Double) throws {
        #expect(argumentName(try error(MeasureRequest(text: "ab", font: "DejaVu Sans 10", textScale: scale))) == "text_scale")
    }

    @Test func malformedFeaturesAreAnError() throws {
        let failure = try error(MeasureRequest(text: "office", font: "DejaVu Sans 10", features: ["not a feature!!"]))
        #expect(failure == .invalidArgument(
            name: "features", reason: "\"not a feature!!\" is not an OpenType feature setting (e.g. \"tnum\", \"-liga\", \"ss01=2\")"))
        let tooMany = Array(repeating: "kern", count: TextLimits.maxFeatures + 1)
        #expect(argumentName(try error(MeasureRequest(text: "a", font: "DejaVu Sans 10", features: tooMany))) == "features")
        // An unknown but well-formed tag is accepted and changes nothing, as in HarfBuzz.
        #expect(try TestEngine.measure("office", features: ["zzzz"]).width == 36.5810546875)
    }

    @Test func aBatchKeepsGoodResultsNextToBadOnes() throws {
        let results = try TestEngine.engine().measureBatch([
            MeasureRequest(text: "Hello", font: "DejaVu Sans 10"),
            MeasureRequest(text: "Hello", font: "DejaVu Sans 0"),
            MeasureRequest(text: "Hello", font: "DejaVu Sans 10", maxLines: 0),
            MeasureRequest(text: "Hello", font: "DejaVu Sans 12"),
        ])
        #expect(try results[0].get().width == 33.7939453125)
        #expect(throws: FitTextError.self) { try results[1].get() }
        #expect(throws: FitTextError.self) { try results[2].get() }
        #expect(try results[3].get().width == 40.5546875)
    }
}
