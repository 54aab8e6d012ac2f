import FitClient
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

    /// Longest request line read (a request holds at most TextLimits.maxTextBytes of text,
    /// which JSON escaping can at most sextuple).
    static let maxLineBytes = TextLimits.maxTextBytes * 6 + 4096

    static let knownKeys: Set<String> = [
        "text", "font", "max_width", "wrap", "max_lines", "ellipsize", "features", "letter_spacing",
        "unit", "lines", "id", "text_scale", "language", "metrics", "markup", "escapes", "ambiguous", "terminal",
    ]

    /// Measures every line; returns how many failed (fitctl then exits 2).
    func run() async -> Int {
        var failed = 0
        // Per font description: whether fontconfig substituted its family (warned once).
        var substitutions: [String: Bool] = [:]
        var pending: [(id: Any?, parsed: Result<(MeasureRequest, Bool, Bool), FitTextError>)] = []
        func flush() async {
            let valid = pending.compactMap { entry -> FitClient.BatchEntry? in
                guard case .success(let (request, _, ownScale)) = entry.parsed else { return nil }
                return FitClient.BatchEntry(request, userTextScale: !ownScale)
            }
            var results: [Result<TextMeasurement, FitClientError>] = []
            do {
                results = try await client.measureBatch(entries: valid)
            } catch {
                results = valid.map { _ in .failure(error) }
            }
            var next = results.makeIterator()
            for entry in pending {
                var output: [String: Any]
                switch entry.parsed {
                case .failure(let error):
                    output = ["error": error.description]
                case .success(let (request, includeLines, _)):
                    switch next.next() {
                    case .success(let measurement)?:
                        output = MetricsJSON.object(measurement.metrics, includeLines: includeLines)
                        if let known = substitutions[request.font] {
                            output["substituted"] = known
                        } else {
                            let substituted = await FontSubstitution.check(request.font, client: client)
                            substitutions[request.font] = substituted
                            output["substituted"] = substituted
                        }
                    case .failure(let error)?: output = ["error": error.description]
                    case nil: output = ["error": "no result"]
                    }
                }
                if output["error"] != nil { failed += 1 }
                if let id = entry.id { output["id"] = id }
                print(JSONOutput.string(output))
            }
            pending.removeAll()
        }
        while let line = readLine(strippingNewline: true) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            pending.append(parse(line))
            if pending.count >= BatchMeasurer.chunk { await flush() }
        }
        await flush()
        return failed
    }

    /// A request line: the request, whether it asks for lines, whether it sets its own text scale.
    func parse(_ line: String) -> (id: Any?, parsed: Result<(MeasureRequest, Bool, Bool), FitTextError>) {
        guard line.utf8.count <= BatchMeasurer.maxLineBytes else {
            return (nil, .failure(.invalidArgument(name: "request", reason: "line is \(line.utf8.count) bytes; the limit is \(BatchMeasurer.maxLineBytes)")))
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            return (nil, .failure(.invalidArgument(name: "request", reason: "not a JSON object")))
        }
        do {
            var (request, includeLines) = try BatchMeasurer.request(from: object)
            if request.language == nil { request.language = defaultLanguage }
            if object["escapes"] == nil, let defaultEscapes { request.escapes = defaultEscapes }
            if object["ambiguous"] == nil, let defaultAmbiguous { request.ambiguous = defaultAmbiguous }
            if object["terminal"] == nil, let defaultTerminal { request.terminal = defaultTerminal }
            return (object["id"], .success((request, includeLines, object["text_scale"] != nil)))
        } catch let error as FitTextError {
            return (object["id"], .failure(error))
        } catch {
            return (object["id"], .failure(.invalidArgument(name: "request", reason: "\(error)")))
        }
    }

    static func request(from object: [String: Any]) throws -> (MeasureRequest, Bool) {
        if let unknown = object.keys.first(where: { !knownKeys.contains($0) }) {
            throw FitTextError.invalidArgument(name: unknown, reason: "unknown field; known fields: \(knownKeys.sorted().joined(separator: ", "))")
        }
        guard let text = object["text"] as? String else {
            throw FitTextError.invalidArgument(name: "text", reason: "missing, or not a string")
        }
        var request = MeasureRequest(text: text)
        if let font = object["font"] {
            guard let font = font as? String else { throw FitTextError.invalidArgument(name: "font", reason: "not a string") }
            request.font = font
        }
        request.maxWidth = try number(object, "max_width")
        if let wrap = object["wrap"] {
            guard let wrap = wrap as? String else { throw FitTextError.invalidArgument(name: "wrap", reason: "not a string") }
            request.wrap = try WrapMode(parsing: wrap)
        }
        if let lines = try number(object, "max_lines") {
            guard lines == lines.rounded(), abs(lines) < 1e9 else { throw FitTextError.invalidArgument(name: "max_lines", reason: "not a whole number") }
            request.maxLines = Int(lines)
        }
        if let mode = object["ellipsize"] {
            guard let mode = mode as? String else { throw FitTextError.invalidArgument(name: "ellipsize", reason: "not a string") }
            request.ellipsize = try EllipsizeMode(parsing: mode)
        }
        if let features = object["features"] {
            if let list = features as? String {
                request.features = MeasureRequest.parseFeatureList(list)
            } else if let list = features as? [String] {
                request.features = list
            } else {
                throw FitTextError.invalidArgument(name: "features", reason: "give a string \"tnum,-liga\" or a list of strings")
            }
        }
        request.letterSpacing = try number(object, "letter_spacing") ?? 0
        if let mode = object["metrics"] {
            guard let mode = mode as? String else { throw FitTextError.invalidArgument(name: "metrics", reason: "not a string") }
            request.metrics = try MetricsMode(parsing: mode)
        }
        request.textScale = try number(object, "text_scale") ?? 1
        if let unit = object["unit"] {
            guard let unit = unit as? String, let parsed = MeasureUnit(rawValue: unit) else {
                throw FitTextError.invalidArgument(name: "unit", reason: "use \"px\" or \"cells\"")
            }
            request.unit = parsed
        }
        var includeLines = false
        if let lines = object["lines"] {
            guard let flag = lines as? Bool else { throw FitTextError.invalidArgument(name: "lines", reason: "not true or false") }
            includeLines = flag
        }
        request.includeLines = includeLines
        if let language = object["language"] {
            guard let language = language as? String else { throw FitTextError.invalidArgument(name: "language", reason: "not a string") }
            request.language = try MeasureRequest.canonicalLanguage(language)
        }
        if let markup = object["markup"] {
            guard let flag = markup as? Bool else { throw FitTextError.invalidArgument(name: "markup", reason: "not true or false") }
            request.markup = flag
        }
        if let value = object["escapes"] {
            guard let word = value as? String else { throw FitTextError.invalidArgument(name: "escapes", reason: "not a string") }
            request.escapes = try EscapeMode(parsing: word)
        }
        if let value = object["ambiguous"] {
            guard let word = value as? String else { throw FitTextError.invalidArgument(name: "ambiguous", reason: "not a string") }
            request.ambiguous = try AmbiguousWidth(parsing: word)
        }
        if let value = object["terminal"] {
            guard let word = value as? String else { throw FitTextError.invalidArgument(name: "terminal", reason: "not a string") }
            request.terminal = try TerminalProfile(parsing: word)
        }
        return (request, includeLines)
    }

    private static func number(_ object: [String: Any], _ key: String) throws -> Double? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        // JSONSerialization gives booleans as NSNumber too (type "c"); they are not numbers here.
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else {
            throw FitTextError.invalidArgument(name: key, reason: "not a number")
        }
        return number.doubleValue
    }
}
