import FitClient
import FitJSON
import FitText
import Foundation

/// `fitctl measure --batch`: JSON lines in, JSON lines out, in order; a line that cannot be
/// measured gets {"error": …} and the others still come out. Lines go to the daemon in
/// MeasureBatch calls of `chunk` requests, so a long input streams.
struct BatchMeasurer {
    let client: FitClient
    /// The language of lines without a "language" field (--language); nil for the daemon's.
    var defaultLanguage: String? = nil
    /// --escapes, --ambiguous, --terminal (or the environment's terminal): for lines without
    /// their own field.
    var defaultEscapes: EscapeMode? = nil
    var defaultAmbiguous: AmbiguousWidth? = nil
    var defaultTerminal: TerminalProfile? = nil
    static let chunk = 512
    /// A chunk is also cut when its lines' text reaches this: with one chunk measured while the
    /// next is read, at most about twice this much request text is held (512 lines of 1 MiB
    /// would be 1 GiB).
    static let chunkTextBytes = 64 << 20

    /// Longest request line read (a request holds at most TextLimits.maxTextBytes of text,
    /// which JSON escaping can at most sextuple).
    static let maxLineBytes = TextLimits.maxTextBytes * 6 + 4096

    /// Longest "id" kept, written as JSON. An id names a request; up to 512 pending lines
    /// each holding a parsed 6 MiB id would be gigabytes.
    static let maxIDBytes = 4096

    static var knownKeys: [String] { RequestFields.Field.allCases.map(\.name) }

    /// A parsed line waiting for its result: the id to echo, and the request (whether it asks
    /// for lines, whether it sets its own scale) or why it has none.
    /// The request, whether it asks for lines, whether it sets its own text scale, and the
    /// label's `width-chars` / `max-width-chars` when it asks for a widget size (nil: none).
    typealias PendingLine = (id: JSONValue?, parsed: Result<(MeasureRequest, Bool, Bool, LabelCharWidths?), FitTextError>)

    /// Measures every line; returns how many failed (fitctl then exits 2). Output streams: a
    /// chunk's results are written (one write(2)) as soon as they are measured, and a chunk
    /// is cut short when standard input has no more bytes ready, so a line sent down a pipe
    /// that stays open is answered before the next arrives.
    ///
    /// Pipelined: while one chunk is measured (over every core, FitClient.measureBatch), the
    /// next is read and parsed, and the one before is written; done in turn, reading and
    /// writing would be a tenth of the work, done while the cores wait.
    func run() async throws(BatchFailure) -> Int {
        var pipeline = BatchPipeline(client: client, clock: StageClock(enabled: StageClock.requested))
        var input = LineReader(fd: 0, maxLineBytes: BatchMeasurer.maxLineBytes)
        while true {
            // Nothing more ready on standard input: answer what was read before waiting.
            if (!pipeline.pending.isEmpty || pipeline.measuring != nil) && !input.hasReadyInput() { try await pipeline.drain() }
            let readStart = pipeline.clock.now()
            guard let line = try input.next() else {
                pipeline.clock.add(.read, since: readStart)
                break
            }
            switch line {
            case .tooLong(let bytes):
                pipeline.pending.append((nil, .failure(.invalidArgument(name: "request", reason: "line is \(bytes) bytes; the limit is \(BatchMeasurer.maxLineBytes)"))))
            case .text(let bytes):
                if let entry = bytes.withUnsafeBufferPointer({ parse($0) }) {
                    if case .success(let (request, _, _, _)) = entry.parsed { pipeline.pendingTextBytes += request.text.utf8.count }
                    pipeline.pending.append(entry)
                }
            }
            pipeline.clock.add(.read, since: readStart)
            pipeline.clock.lines += 1
            if pipeline.pending.count >= BatchMeasurer.chunk || pipeline.pendingTextBytes >= BatchMeasurer.chunkTextBytes {
                // This chunk measures while the one before is written and the next is read.
                try await pipeline.advance()
            }
        }
        try await pipeline.drain()
        pipeline.clock.report()
        return pipeline.failed
    }

    /// A request line (without its line feed): the id to echo and the request, whether it
    /// asks for lines, whether it sets its own text scale; nil for a blank line (skipped).
    func parse(_ line: UnsafeBufferPointer<UInt8>) -> PendingLine? {
        var line = line
        if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }  // CRLF, as readLine took it
        if Self.isBlank(line) { return nil }
        let limits = JSONReader.Limits(maxDepth: Self.maxDepth, maxBytes: Self.maxLineBytes)
        let fields: RequestFields
        if let read = RequestFields(parsing: line, limits: limits) {
            fields = read
        } else {
            do {
                let value = try JSONReader.parse(line, limits: limits)
                guard case .object(let object) = value else {
                    return (nil, .failure(.invalidArgument(name: "request", reason: "not a JSON object (\(value.kindDescription))")))
                }
                fields = RequestFields(object)
            } catch {
                return (nil, .failure(.invalidArgument(name: "request", reason: "not a JSON object (\(error))")))
            }
        }
        let id = fields[.id]
        if let id, case let written = Self.writtenBytes(id), written > Self.maxIDBytes {
            return (nil, .failure(.invalidArgument(name: "id", reason: "\(written) bytes as JSON; the limit is \(Self.maxIDBytes): an id names a request, keep data elsewhere")))
        }
        do {
            var (request, includeLines) = try BatchMeasurer.request(from: fields)
            if request.language == nil { request.language = defaultLanguage }
            if fields[.escapes] == nil, let defaultEscapes { request.escapes = defaultEscapes }
            if fields[.ambiguous] == nil, let defaultAmbiguous { request.ambiguous = defaultAmbiguous }
            if fields[.terminal] == nil, let defaultTerminal { request.terminal = defaultTerminal }
            var widget: LabelCharWidths?
            if let flag = fields[.widget] {
                guard case .bool(let value) = flag else { throw FitTextError.invalidArgument(name: "widget", reason: "not true or false") }
                if value { widget = LabelCharWidths() }
            }
            var counts: [Int?] = []
            for field in [RequestFields.Field.widthChars, .maxWidthChars] {
                guard let count = try Self.number(fields, field) else {
                    counts.append(nil)
                    continue
                }
                guard count == count.rounded() else { throw FitTextError.invalidArgument(name: field.name, reason: "not a whole number") }
                guard abs(count) <= Double(LabelCharWidths.range.upperBound) else {
                    throw FitTextError.invalidArgument(name: field.name, reason: "\(count) is more characters than \(LabelCharWidths.range.upperBound)")
                }
                guard widget != nil else { throw FitTextError.invalidArgument(name: field.name, reason: "a GTK label's: give \"widget\": true too") }
                counts.append(Int(count))
            }
            if widget != nil {
                widget = LabelCharWidths(widthChars: counts[0], maxWidthChars: counts[1])
                try widget?.check()
            }
            return (id, .success((request, includeLines, fields[.textScale] != nil, widget)))
        } catch let error as FitTextError {
            return (id, .failure(error))
        } catch {
            return (id, .failure(.invalidArgument(name: "request", reason: "\(error)")))
        }
    }

    /// The length of `value` written as JSON (a number or short string costs no allocation
    /// worth counting; anything else is written once, bounded by the line's own limit).
    static func writtenBytes(_ value: JSONValue) -> Int {
        switch value {
        case .null, .bool: return 0
        // A number keeps its spelling (echoed exactly): "0.000…1" of 6 MiB is 6 MiB.
        case .number(_, let text): return text.utf8.count
        case .string(let text) where text.utf8.count < maxIDBytes / 6: return text.utf8.count
        default:
            var writer = JSONWriter()
            writer.value(value)
            return writer.bytes.count
        }
    }

    /// What one line comes to: its metrics, or its "error".
    enum LineOutcome {
        case measured(TextMetrics, includeLines: Bool, substituted: Bool, label: LabelSize?)
        case error(String)
    }

    /// Nesting allowed in a request line (an "id" may be any JSON value).
    static let maxDepth = 64

    /// Whether a line is empty or only whitespace (skipped, as before: spaces, tabs and the
    /// other Unicode space separators that `CharacterSet.whitespaces` holds).
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var ascii = true
        for byte in line {
            if byte == 0x20 || byte == 0x09 { continue }
            if byte < 0x80 { return false }
            ascii = false
        }
        if ascii { return true }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces).isEmpty
    }

    static func request(from object: RequestFields) throws -> (MeasureRequest, Bool) {
        if let unknown = object.unknown {
            throw FitTextError.invalidArgument(name: unknown, reason: "unknown field; known fields: \(knownKeys.sorted().joined(separator: ", "))")
        }
        guard case .string(let text)? = object[.text] else {
            throw FitTextError.invalidArgument(name: "text", reason: "missing, or not a string")
        }
        // Refused here, so a line over the limit keeps only its error while it waits.
        guard text.utf8.count <= TextLimits.maxTextBytes else {
            throw FitTextError.textTooLong(bytes: text.utf8.count, limit: TextLimits.maxTextBytes)
        }
        var request = MeasureRequest(text: text)
        if let font = object[.font] {
            guard case .string(let font) = font else { throw FitTextError.invalidArgument(name: "font", reason: "not a string") }
            request.font = font
        }
        // Every option as Measure takes it over D-Bus: MeasureOptions, the one table of them.
        for (option, field) in optionFields {
            guard let json = object[field], let value = try Self.optionValue(json, for: option) else { continue }
            try option.apply(&request, value)
        }
        let includeLines = request.includeLines
        return (request, includeLines)
    }

    /// The options' rows with the request-line field of the same name.
    private static let optionFields: [(MeasureOption, RequestFields.Field)] = MeasureOptions.all.compactMap { option in
        RequestFields.Field(named: option.name).map { (option, $0) }
    }

    /// A field's JSON value in the shape MeasureOptions takes; nil for `null` (as if left out).
    private static func optionValue(_ json: JSONValue, for option: MeasureOption) throws(FitTextError) -> OptionValue? {
        switch json {
        case .null: return nil
        case .number(let value, _): return .number(value)
        case .string(let text): return .string(text)
        case .bool(let flag): return .bool(flag)
        case .array(let items):
            guard let list = strings(items) else { throw option.wrongShape }
            return .strings(list)
        default: throw option.wrongShape
        }
    }

    private static func strings(_ items: [JSONValue]) -> [String]? {
        var list: [String] = []
        for item in items {
            guard case .string(let text) = item else { return nil }
            list.append(text)
        }
        return list
    }

    private static func number(_ object: RequestFields, _ field: RequestFields.Field) throws -> Double? {
        switch object[field] {
        case nil, .null?: return nil
        case .number(let value, _)?: return value
        default: throw FitTextError.invalidArgument(name: field.name, reason: "not a number")
        }
    }
}

/// `run`'s chunks in flight: the lines read and not yet sent, the chunk being measured, and
/// the output they are written to in order.
private struct BatchPipeline {
    typealias Measuring = (
        lines: [BatchMeasurer.PendingLine], results: Task<[Result<TextMeasurement, FitClientError>], Never>
    )
    let client: FitClient
    var clock: StageClock
    var pending: [BatchMeasurer.PendingLine] = []
    var pendingTextBytes = 0
    var measuring: Measuring? = nil
    var output = BatchOutput(fd: 1)
    /// Per font description: whether fontconfig substituted its family (warned once).
    var substitutions: [String: Bool] = [:]
    /// Lines answered with an error.
    var failed = 0

    init(client: FitClient, clock: StageClock) {
        self.client = client
        self.clock = clock
    }

    /// Starts measuring the pending lines; they are written by `finish`.
    mutating func start() {
        let lines = pending
        pending.removeAll(keepingCapacity: true)
        pendingTextBytes = 0
        let valid = lines.compactMap { entry -> FitClient.BatchEntry? in
            guard case .success(let (request, _, ownScale, _)) = entry.parsed else { return nil }
            return FitClient.BatchEntry(request, userTextScale: !ownScale)
        }
        let client = self.client
        measuring = (lines, Task { () async -> [Result<TextMeasurement, FitClientError>] in
            do throws(FitClientError) {
                return try await client.measureBatch(entries: valid)
            } catch {
                return valid.map { _ in .failure(error) }
            }
        })
    }

    /// Waits for a chunk's results and writes them.
    mutating func finish(_ chunk: Measuring?) async throws(BatchFailure) {
        guard let (lines, task) = chunk else { return }
        let engineStart = clock.now()
        let results = await task.value
        let outcomes = await self.outcomes(of: lines, results)
        clock.add(.engine, since: engineStart)
        let writeStart = clock.now()
        for (entry, outcome) in zip(lines, outcomes) {
            switch outcome {
            case .measured(let metrics, let includeLines, let substituted, let label):
                MetricsJSON.write(metrics, includeLines: includeLines, substituted: substituted, label: label, id: entry.id, to: &output.writer)
            case .error(let message):
                MetricsJSON.writeError(message, id: entry.id, to: &output.writer)
                failed += 1
            }
            output.writer.newline()
        }
        try output.flush()
        clock.add(.write, since: writeStart)
    }

    /// Each line's outcome in order; for a measured one whether its family was substituted:
    /// asked once per font, and counted as the engine's time (ResolveFont).
    private mutating func outcomes(
        of lines: [BatchMeasurer.PendingLine], _ results: [Result<TextMeasurement, FitClientError>]
    ) async -> [BatchMeasurer.LineOutcome] {
        var outcomes: [BatchMeasurer.LineOutcome] = []
        outcomes.reserveCapacity(lines.count)
        var next = results.makeIterator()
        for entry in lines {
            switch entry.parsed {
            case .failure(let error):
                outcomes.append(.error(error.description))
            case .success(let (request, includeLines, ownScale, widget)):
                switch next.next() {
                case .success(let measurement)?:
                    var label: LabelSize?
                    if let widget {
                        do throws(FitClientError) {
                            label = try await client.measureLabel(request, chars: widget, userTextScale: !ownScale).size
                        } catch {
                            outcomes.append(.error(error.description))
                            continue
                        }
                    }
                    let substituted: Bool
                    if let known = substitutions[request.font] {
                        substituted = known
                    } else {
                        substituted = await FontSubstitution.check(request.font, client: client)
                        substitutions[request.font] = substituted
                    }
                    outcomes.append(.measured(measurement.metrics, includeLines: includeLines, substituted: substituted, label: label))
                case .failure(let error)?: outcomes.append(.error(error.description))
                case nil: outcomes.append(.error("no result"))
                }
            }
        }
        return outcomes
    }

    /// Starts measuring the pending lines and writes the chunk measured before them, which
    /// the cores had to themselves while these were read; writing it overlaps this one.
    mutating func advance() async throws(BatchFailure) {
        let previous = measuring
        measuring = nil
        if !pending.isEmpty { start() }
        try await finish(previous)
    }

    /// Answers everything read so far: the chunk being measured, then the pending lines.
    mutating func drain() async throws(BatchFailure) {
        try await advance()
        let last = measuring
        measuring = nil
        try await finish(last)
    }
}
