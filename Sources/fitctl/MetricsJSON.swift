import FitJSON
import FitText
import Foundation

/// TextMetrics as the JSON objects `--json` and `--batch` print (field names in snake_case,
/// the same as the batch request's), in this order: id (batch, when the request has one),
/// width, height, baseline, lines, ellipsized, truncated, unit, fonts, substituted,
/// line_metrics (with "lines": true; each: text, start, length, width, ascent, descent,
/// baseline, ellipsized). A failed batch line: id, error.
enum MetricsJSON {
    /// The names, quoted once (``JSONWriter/Key``).
    private enum Keys {
        static let ascent = JSONWriter.Key("ascent")
        static let baseline = JSONWriter.Key("baseline")
        static let descent = JSONWriter.Key("descent")
        static let ellipsized = JSONWriter.Key("ellipsized")
        static let error = JSONWriter.Key("error")
        static let fonts = JSONWriter.Key("fonts")
        static let height = JSONWriter.Key("height")
        static let id = JSONWriter.Key("id")
        static let length = JSONWriter.Key("length")
        static let lineMetrics = JSONWriter.Key("line_metrics")
        static let lines = JSONWriter.Key("lines")
        static let start = JSONWriter.Key("start")
        static let substituted = JSONWriter.Key("substituted")
        static let text = JSONWriter.Key("text")
        static let truncated = JSONWriter.Key("truncated")
        static let unit = JSONWriter.Key("unit")
        static let width = JSONWriter.Key("width")
    }

    /// A GtkLabel's size request (`widget`: `fitctl measure --widget`, `"widget": true` in a
    /// batch, `fitctl fit --widget-sizes`).
    static func write(_ label: LabelSize, to writer: inout JSONWriter) {
        writer.key("widget")
        writer.beginObject()
        writer.member("minimum_width", label.minimumWidth)
        writer.member("natural_width", label.naturalWidth)
        writer.member("minimum_height", label.minimumHeight)
        writer.member("natural_height", label.naturalHeight)
        writer.member("baseline", label.baseline)
        writer.endObject()
    }

    static func write(
        _ metrics: TextMetrics, includeLines: Bool, substituted: Bool, label: LabelSize? = nil, id: JSONValue? = nil,
        to writer: inout JSONWriter
    ) {
        begin(id: id, to: &writer)
        writer.member(Keys.width, metrics.width)
        writer.member(Keys.height, metrics.height)
        writer.member(Keys.baseline, metrics.baseline)
        writer.member(Keys.lines, metrics.lineCount)
        writer.member(Keys.ellipsized, metrics.ellipsized)
        writer.member(Keys.truncated, metrics.truncated)
        writer.member(Keys.unit, metrics.unit.rawValue)
        writer.member(Keys.fonts, metrics.fontsUsed)
        writer.member(Keys.substituted, substituted)
        if let label { write(label, to: &writer) }
        if includeLines {
            writer.key(Keys.lineMetrics)
            writer.beginArray()
            for line in metrics.lines {
                writer.beginObject()
                writer.member(Keys.text, line.text)
                writer.member(Keys.start, line.start)
                writer.member(Keys.length, line.length)
                writer.member(Keys.width, line.width)
                writer.member(Keys.ascent, line.ascent)
                writer.member(Keys.descent, line.descent)
                writer.member(Keys.baseline, line.baseline)
                writer.member(Keys.ellipsized, line.ellipsized)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
    }

    static func writeError(_ message: String, id: JSONValue?, to writer: inout JSONWriter) {
        begin(id: id, to: &writer)
        writer.member(Keys.error, message)
        writer.endObject()
    }

    /// A result's object opened, with the request's id first when it has one.
    private static func begin(id: JSONValue?, to writer: inout JSONWriter) {
        writer.beginObject()
        if let id {
            writer.key(Keys.id)
            writer.value(id)
        }
    }
}

/// One JSON value on standard output, on a line of its own (every command's --json but
/// `measure --batch`, which streams through ``BatchOutput``).
enum JSONOutput {
    static func print(_ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter()
        body(&writer)
        Swift.print(writer.string)
    }
}

/// The human-readable form of a measurement.
enum MetricsText {
    static func render(_ metrics: TextMetrics, showLines: Bool) -> String {
        let unit = metrics.unit == .px ? "px" : " cells"
        var out = """
            width     \(format(metrics.width))\(unit)
            height    \(format(metrics.height))\(unit)
            baseline  \(format(metrics.baseline))\(unit)
            lines     \(metrics.lineCount)\(metrics.ellipsized ? " (ellipsized)" : metrics.truncated ? " (truncated)" : "")
            """
        if metrics.unit == .px { out += "\nfonts     \(metrics.fontsUsed.joined(separator: ", "))" }
        if showLines {
            for (i, line) in metrics.lines.enumerated() {
                out += "\n  \(i + 1): width \(format(line.width)) ascent \(format(line.ascent)) descent \(format(line.descent)) baseline \(format(line.baseline)) chars \(line.start)+\(line.length)  \"\(line.text)\""
            }
        }
        return out
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
