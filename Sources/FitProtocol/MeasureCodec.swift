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
        try options.apply(MeasureOptions.all, names: MeasureOptions.names, to: &request)
        return request
    }

    /// The options of a request, for a client to send.
    public static func options(of request: MeasureRequest, sendTextScale: Bool) -> DBusValue {
        optionDictionary(of: request, sendTextScale: sendTextScale).dbusValue
    }

    static func optionDictionary(of request: MeasureRequest, sendTextScale: Bool) -> OptionDictionary {
        // The user's scale is the daemon's to apply unless the caller sends its own.
        OptionDictionary(request, table: MeasureOptions.all, leavingOut: sendTextScale ? nil : MeasureOptions.textScale)
    }

    /// Measure's reply: one Metrics structure, written by the same writer as each of a
    /// batch's results (``write(_:generation:to:)``), so there is one encoder of Metrics.
    public static func replyBody(_ metrics: TextMetrics, generation: UInt64) throws(DBusError) -> DBusReplyBody {
        try DBusReplyBody(signature: metricsSignature) { (writer) throws(DBusError) in
            try write(metrics, generation: generation, to: &writer)
        }
    }

    /// Measure's arguments `(s text, s font, a{sv} options)`, read off the wire.
    public static func readCall(_ reader: inout DBusReader) throws(DBusError) -> (text: String, font: String, options: OptionDictionary) {
        let text = try reader.string()
        let font = try reader.string()
        return (text, font, try OptionDictionary.read(&reader).get())
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
