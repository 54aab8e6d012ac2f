import FitTypes
import Testing

@testable import FitText

/// A long text stops measuring when the task that measures it is cancelled (a MeasureBatch
/// whose caller left the bus), between paragraphs and between lines; a short text,
/// never checked, measures as ever (FitTextCancellation).
@Suite struct CancellationTests {
    private let font = "DejaVu Sans 12"

    /// Measures `request` in a task that is cancelled before it starts measuring.
    private func measureCancelled(_ request: MeasureRequest, engine: TextEngine? = nil) async throws -> Result<TextMetrics, FitTextError> {
        let engine = try engine ?? TestEngine.fresh()
        let task = Task { () -> Result<TextMetrics, FitTextError> in
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { () throws(FitTextError) in try engine.measure(request) }
        }
        return await task.value
    }

    @Test func manyParagraphsStopBetweenParagraphs() async throws {
        let request = MeasureRequest(text: String(repeating: "a\n", count: 20_000), font: font)
        #expect(try await measureCancelled(request) == .failure(.cancelled))
    }

    @Test func manyLinesOfOneParagraphStopBetweenLines() async throws {
        // 1,500 lines of a paragraph too short for the check between paragraphs (3,000 units).
        let text = String(repeating: "a ", count: 1_500)
        #expect(text.utf16.count < FitTextCancellation.unitsBetweenChecks)
        let request = MeasureRequest(text: text, font: font, maxWidth: 0)
        #expect(try await measureCancelled(request) == .failure(.cancelled))
    }

    @Test func manyTerminalRowsOfOneParagraphStopBetweenLines() async throws {
        let text = String(repeating: "a ", count: 1_500)
        #expect(text.utf16.count < FitTextCancellation.unitsBetweenChecks)
        let request = MeasureRequest(text: text, maxWidth: 1, unit: .cells)
        #expect(try await measureCancelled(request) == .failure(.cancelled))
    }

    /// A paragraph of 1 MiB is checked between its stages too: without a width it is one
    /// line, which the line check never reaches.
    @Test func oneLongLineStopsAfterItsShaping() async throws {
        let text = String(repeating: "abc ", count: 2_000)
        #expect(text.utf16.count >= FitTextCancellation.unitsBetweenChecks)
        #expect(try await measureCancelled(MeasureRequest(text: text, font: font)) == .failure(.cancelled))
    }

    /// A cancelled measurement leaves nothing behind: the same engine then measures the same
    /// text as an engine that never saw it (no partial result cached, scratch given back).
    @Test func aCancelledMeasurementLeavesTheEngineAsItWas() async throws {
        let engine = try TestEngine.fresh()
        for request in [
            MeasureRequest(text: String(repeating: "word ", count: 2_000) + "\n" + String(repeating: "a\n", count: 5_000), font: font, maxWidth: 300, includeLines: true),
            MeasureRequest(text: String(repeating: "ab ", count: 1_500), maxWidth: 4, unit: .cells, includeLines: true),
        ] {
            #expect(try await measureCancelled(request, engine: engine) == .failure(.cancelled))
            let afterwards = try engine.measure(request)
            #expect(afterwards == (try TestEngine.fresh().measure(request)))
            #expect(afterwards.lineCount > 1_000)
        }
    }

    @Test func manyTerminalRowsStopBetweenParagraphs() async throws {
        let request = MeasureRequest(text: String(repeating: "ab\n", count: 20_000), unit: .cells)
        #expect(try await measureCancelled(request) == .failure(.cancelled))
    }

    @Test func aShortTextMeasuresInACancelledTask() async throws {
        let request = MeasureRequest(text: "Hello\nworld", font: font)
        let expected = try TestEngine.fresh().measure(request)
        #expect(try await measureCancelled(request) == .success(expected))
    }

    @Test func aLongTextMeasuresWhenNotCancelled() async throws {
        let request = MeasureRequest(text: String(repeating: "a\n", count: 20_000), font: font)
        let engine = try TestEngine.fresh()
        let metrics = try await Task { try engine.measure(request) }.value
        #expect(metrics.lineCount == 20_001)
    }
}
