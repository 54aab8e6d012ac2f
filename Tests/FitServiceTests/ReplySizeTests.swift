@testable import FitBus
import FitClient
import FitProtocol
import FitService
import FitServiceTestSupport
import FitText
import Foundation
import Testing

/// A reply is never built past D-Bus's 64 MiB array limit: a batch that would pass it is
/// refused with TooLarge, before measuring when the request shows it, else the moment the
/// results pass it, so that a small request cannot make the daemon build a huge reply.
@Suite struct ReplySizeTests {
    private func fresh() throws -> TextEngine { try SharedEngine.fresh() }

    private func misses(_ engine: TextEngine) -> UInt64 {
        engine.cacheStatistics.first { $0.name == "results" }?.misses ?? 0
    }

    @Test func aBatchOfNewlinesWithLinesIsRefusedBeforeMeasuring() async throws {
        let engine = try fresh()
        let harness = try await ServiceHarness.start(engine: engine)
        defer { harness.stop() }
        let client = try await harness.client()
        // 10 × 200,000 paragraphs, at least 52 bytes each: about 99 MiB of lines.
        let text = String(repeating: "\n", count: 200_000)
        let batch = (0..<10).map { _ in MeasureRequest(text: text, font: "DejaVu Sans 10", includeLines: true) }
        let error = await #expect(throws: FitClientError.self) { _ = try await client.measureBatch(batch) }
        guard case .rejected(let name, let message)? = error else { return }
        #expect(name == FitErrorName.tooLarge.rawValue)
        // The private bus takes messages of 32 MiB (scripts/private-bus, PrivateBus), under the array limit.
        #expect(message.contains("the bus's limit of 32 MiB") && message.contains("without lines"), "\(message)")
        #expect(misses(engine) == 0, "nothing was measured")
        // The daemon serves on; a batch of lines under the limit is answered.
        let small = MeasureRequest(text: String(repeating: "\n", count: 1_000), font: "DejaVu Sans 10", includeLines: true)
        #expect(try await client.measureBatch([small, small]).map { try $0.get().metrics.lines.count } == [1_001, 1_001])
    }

    /// 1 MiB of line feeds with lines is about 50 MB of reply: under D-Bus's array limit, over
    /// the bus's message limit, which would make the bus drop the daemon (every call in
    /// flight then failed with NoReply, and the daemon exited).
    @Test func aMeasureReplyOverTheBussMessageLimitIsRefusedAndTheDaemonStaysOnTheBus() async throws {
        let harness = try await ServiceHarness.start(engine: try fresh())
        defer { harness.stop() }
        let client = try await harness.client()
        let text = String(repeating: "\n", count: 1 << 20)
        let error = await #expect(throws: FitClientError.self) {
            _ = try await client.measure(MeasureRequest(text: text, font: "DejaVu Sans 10", includeLines: true))
        }
        guard case .rejected(let name, let message)? = error else { return }
        #expect(name == FitErrorName.tooLarge.rawValue)
        #expect(message.contains("over the bus's limit of 32 MiB") && message.contains("without lines"), "\(message)")
        // Still on the bus, same connection: it answers.
        #expect(try await client.measure(MeasureRequest(text: "Hello", font: "DejaVu Sans 10")).metrics.width > 0)
    }

    /// Each new font is a fontconfig sort: a batch naming a font per text (10,000 families
    /// nobody has) held a worker for 6-10 s. Past TextLimits.maxFontsPerRequest distinct font
    /// strings the batch is refused before anything is measured.
    @Test func aBatchNamingMoreFontsThanTheLimitIsRefusedBeforeMeasuring() async throws {
        let engine = try fresh()
        let harness = try await ServiceHarness.start(engine: engine)
        defer { harness.stop() }
        let client = try await harness.client()
        let many = (0...TextLimits.maxFontsPerRequest).map { MeasureRequest(text: "text \($0)", font: "Nofamily\($0) 12") }
        let error = await #expect(throws: FitClientError.self) { _ = try await client.measureBatch(many) }
        guard case .rejected(let name, let message)? = error else { return }
        #expect(name == FitErrorName.tooLarge.rawValue)
        #expect(message.contains("more than \(TextLimits.maxFontsPerRequest) distinct fonts"), "\(message)")
        #expect(misses(engine) == 0, "nothing was measured")
        #expect(try await client.measureBatch(Array(many.dropLast())).count == TextLimits.maxFontsPerRequest)
    }

    @Test func resultsThatGrowPastTheLimitStopTheBatch() async throws {
        let engine = try fresh()
        let harness = try await ServiceHarness.start(engine: engine)
        defer { harness.stop() }
        let client = try await harness.client()
        // U+2028 breaks lines but is not counted before measuring: 1,100 lines of about 61
        // bytes per entry, 1,000 entries, about 64 MiB.
        let text = String(repeating: "a\u{2028}", count: 1_100)
        let batch = (0..<1_000).map { _ in MeasureRequest(text: text, font: "DejaVu Sans 10", includeLines: true) }
        let error = await #expect(throws: FitClientError.self) { _ = try await client.measureBatch(batch) }
        guard case .rejected(let name, let message)? = error else { return }
        #expect(name == FitErrorName.tooLarge.rawValue)
        #expect(message.contains("1000 texts"), "\(message)")
        #expect(try await client.measureBatch(Array(batch.prefix(100))).count == 100)
    }

    /// The estimates agree with the writer: the upper one is never below what is written, the
    /// lower one never above.
    @Test func estimatesBoundTheWrittenBytes() throws {
        let engine = try SharedEngine.engine()
        for (text, options) in [
            ("Hello", [:]), ("one\ntwo\n\nfour", ["lines": DBusValue.boolean(true)]),
            ("x\ny\nz\nw", ["lines": .boolean(true), "max_lines": .int32(2)]),
            (String(repeating: "word ", count: 50), ["lines": .boolean(true)]),
        ] as [(String, [String: DBusValue])] {
            var request = MeasureRequest(text: text, font: "DejaVu Sans 10", includeLines: options["lines"] != nil)
            if case .int32(let limit)? = options["max_lines"] { request.maxLines = Int(limit) }
            let result: MeasureCodec.BatchResult = .success((try engine.measure(request), 7))
            let body = try DBusReplyBody(signature: MeasureCodec.batchResultSignature) { (writer) throws(DBusError) in
                try MeasureCodec.writeBatchResults([result], to: &writer)
            }
            let written = body.bytes.count - 8  // the array's length and padding
            #expect(MeasureCodec.resultBytes(result) >= written, "\(text)")
            #expect(MeasureCodec.minimumResultBytes(text: text, options: OptionDictionary(options)) <= written, "\(text)")
        }
    }
}
