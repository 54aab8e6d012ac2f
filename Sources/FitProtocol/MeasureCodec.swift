import FitBus
import FitTypes

/// Measure requests and results on the wire (protocol/org.fitd.Fit1.xml: Measure,
/// MeasureBatch). Shared by the daemon (decode requests, encode results) and FitClient
/// (the reverse), so both sides agree by construction.
public enum MeasureCodec {
    public static let optionKeys: Set<String> = [
        "max_width", "wrap", "max_lines", "ellipsize", "features", "letter_spacing", "unit", "lines", "text_scale",
        "language",
        "metrics",
        "markup",
        "escapes", "ambiguous", "terminal",
        "ui_font",
    ]

    /// The signature of one Metrics structure.
    public static let metricsSignature = "(dddubbasa(dddduusb)t)"

    /// A request from Measure's arguments. `textScale` is the user's, used unless the
    /// options override it.
    public static func request(text: String, font: String, options: DBusValue, textScale: Double) throws(DBusError) -> MeasureRequest {
        try request(text: text, font: font, options: try OptionDictionary(options), textScale: textScale)
    }

    public static func request(text: String, font: String, options: OptionDictionary, textScale: Double) throws(DBusError) -> MeasureRequest {
        var request = MeasureRequest(text: text, font: font, textScale: textScale)
        // Most requests carry no options: nine lookups of absent keys are not free.
        guard !options.entries.isEmpty else { return request }
        try options.rejectUnknown(known: optionKeys)
        request.maxWidth = try options.double("max_width")
        let wrap = try options.string("wrap")
        let ellipsize = try options.string("ellipsize")
        let metrics = try options.string("metrics")
        let escapes = try options.string("escapes")
        let ambiguous = try options.string("ambiguous")
        let terminal = try options.string("terminal")
        do throws(FitTextError) {
            if let metrics { request.metrics = try ToolkitProfile(parsing: metrics) }
            if let escapes { request.escapes = try EscapeMode(parsing: escapes) }
            if let ambiguous { request.ambiguous = try AmbiguousWidth(parsing: ambiguous) }
            if let terminal { request.terminal = try TerminalProfile(parsing: terminal) }
            if let wrap { request.wrap = try WrapMode(parsing: wrap) }
            if let ellipsize { request.ellipsize = try EllipsizeMode(parsing: ellipsize) }
        } catch {
            throw DBusError(error)
        }
        if let lines = try options.integer("max_lines") {
            guard lines >= 1 else { throw .invalidArgument("max_lines must be at least 1; leave it out for no limit") }
            request.maxLines = lines
        }
        if let features = try options.strings("features") {
            request.features = features.flatMap { MeasureRequest.parseFeatureList($0) }
        }
        request.letterSpacing = try options.double("letter_spacing") ?? 0
        if let unit = try options.string("unit") {
            guard let parsed = MeasureUnit(rawValue: unit) else { throw .invalidArgument("unit \"\(unit)\" is not px or cells") }
            request.unit = parsed
        }
        request.includeLines = try options.bool("lines") ?? false
        if let scale = try options.double("text_scale") { request.textScale = scale }
        if let language = try options.string("language") {
            do throws(FitTextError) { request.language = try MeasureRequest.canonicalLanguage(language) } catch { throw DBusError(error) }
        }
        request.markup = try options.bool("markup") ?? false
        request.uiFont = try options.uiFont()
        return request
    }

    /// The options of a request, for a client to send.
    public static func options(of request: MeasureRequest, sendTextScale: Bool) -> DBusValue {
        optionDictionary(of: request, sendTextScale: sendTextScale).dbusValue
    }

    static func optionDictionary(of request: MeasureRequest, sendTextScale: Bool) -> OptionDictionary {
        var entries: [String: DBusValue] = [:]
        if let maxWidth = request.maxWidth { entries["max_width"] = .double(maxWidth) }
        if request.wrap != .word { entries["wrap"] = .string(request.wrap.rawValue) }
        if let maxLines = request.maxLines { entries["max_lines"] = .uint32(UInt32(clamping: maxLines)) }
        if request.ellipsize != .none { entries["ellipsize"] = .string(request.ellipsize.rawValue) }
        if !request.features.isEmpty { entries["features"] = .array(elementSignature: "s", request.features.map(DBusValue.string)) }
        if request.letterSpacing != 0 { entries["letter_spacing"] = .double(request.letterSpacing) }
        if request.unit != .px { entries["unit"] = .string(request.unit.rawValue) }
        if request.includeLines { entries["lines"] = .boolean(true) }
        if request.metrics != .gtk4 { entries["metrics"] = .string(request.metrics.optionWord) }
        if request.markup { entries["markup"] = .boolean(true) }
        if request.escapes != .none { entries["escapes"] = .string(request.escapes.rawValue) }
        if request.ambiguous != .narrow { entries["ambiguous"] = .string(request.ambiguous.rawValue) }
        if request.terminal != .grapheme { entries["terminal"] = .string(request.terminal.rawValue) }
        if sendTextScale { entries["text_scale"] = .double(request.textScale) }
        if let language = request.language { entries["language"] = .string(language) }
        if let uiFont = request.uiFont { entries["ui_font"] = .string(uiFont) }
        return OptionDictionary(entries)
    }

    public static func encode(_ metrics: TextMetrics, generation: UInt64) -> DBusValue {
        .structure([
            .double(metrics.width), .double(metrics.height), .double(metrics.baseline),
            .uint32(UInt32(clamping: metrics.lineCount)), .boolean(metrics.ellipsized), .boolean(metrics.truncated),
            .array(elementSignature: "s", metrics.fontsUsed.map(DBusValue.string)),
            .array(elementSignature: "(dddduusb)", metrics.lines.map { line in
                .structure([
                    .double(line.width), .double(line.ascent), .double(line.descent), .double(line.baseline),
                    .uint32(UInt32(clamping: line.start)), .uint32(UInt32(clamping: line.length)),
                    .string(line.text), .boolean(line.ellipsized),
                ])
            }),
            .uint64(generation),
        ])
    }

    /// Zeros: the metrics slot of a failed batch entry.
    static let emptyTextMetrics = TextMetrics(
        width: 0, height: 0, baseline: 0, lineCount: 0, ellipsized: false, truncated: false, unit: .px, lines: [], fontsUsed: [])

    /// Metrics from a decoded value (the reader of MeasureCodec+Batch, through a message).
    public static func decode(_ value: DBusValue, unit: MeasureUnit) throws(DBusError) -> (TextMetrics, UInt64) {
        let (metrics, generation) = try DBusReader.read([value]) { (reader) throws(DBusError) in try readMetrics(&reader, unit: unit) }
        return (metrics, generation)
    }
}
