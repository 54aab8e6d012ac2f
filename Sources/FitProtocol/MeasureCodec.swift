import FitBus
import FitTypes

/// Measure requests and results on the wire (protocol/org.fitd.Fit1.xml: Measure,
/// MeasureBatch). Shared by the daemon (decode requests, encode results) and FitClient
/// (the reverse), so both sides agree by construction.
public enum MeasureCodec {
    /// The signature of one Metrics structure.
    public static let metricsSignature = "(dddubbasa(dddduusb)t)"

    /// A request from Measure's arguments. `textScale` is the user's, used unless the
    /// options override it.
    public static func request(text: String, font: String, options: DBusValue, textScale: Double) throws(DBusError) -> MeasureRequest {
        try request(text: text, font: font, options: try OptionDictionary(options), textScale: textScale)
    }

    public static func request(text: String, font: String, options: OptionDictionary, textScale: Double) throws(DBusError) -> MeasureRequest {
        var request = MeasureRequest(text: text, font: font, textScale: textScale)
        // Most requests carry no options: a walk of the table finding nothing is not free.
        guard !options.entries.isEmpty else { return request }
        try options.rejectUnknown(known: MeasureOptions.names)
        // In the table's order, so that of two bad options the same one is named every time.
        for option in MeasureOptions.all {
            guard let value = try options.optionValue(option) else { continue }
            do throws(FitTextError) {
                try option.apply(&request, value)
            } catch {
                throw DBusError(error)
            }
        }
        return request
    }

    /// The options of a request, for a client to send.
    public static func options(of request: MeasureRequest, sendTextScale: Bool) -> DBusValue {
        optionDictionary(of: request, sendTextScale: sendTextScale).dbusValue
    }

    static func optionDictionary(of request: MeasureRequest, sendTextScale: Bool) -> OptionDictionary {
        var entries: [String: DBusValue] = [:]
        for option in MeasureOptions.all {
            // The user's scale is the daemon's to apply unless the caller sends its own.
            if option.name == MeasureOptions.textScale.name && !sendTextScale { continue }
            guard let value = option.value(request) else { continue }
            entries[option.name] = DBusValue(value, signature: option.signature)
        }
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
