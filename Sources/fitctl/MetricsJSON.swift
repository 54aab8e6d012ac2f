import FitJSON
import FitText
import Foundation

/// TextMetrics as the JSON objects `--json` and `--batch` print (field names in snake_case,
/// the same as the batch request's), in this order: id (batch, when the request has one),
/// width, height, baseline, lines, ellipsized, truncated, unit, fonts, substituted,
/// line_metrics (with "lines": true; each: text, start, length, width, ascent, descent,
/// baseline, ellipsized). A failed batch line: id, error.
enum MetricsJSON {
    static func write(
        _ metrics: TextMetrics, includeLines: Bool, substituted: Bool, id: JSONValue? = nil, to writer: inout JSONWriter
    ) {
        writer.beginObject()
        if let id {
            writer.key("id")
            writer.value(id)
        }
        writer.member("width", metrics.width)
        writer.member("height", metrics.height)
        writer.member("baseline", metrics.baseline)
        writer.member("lines", metrics.lineCount)
        writer.member("ellipsized", metrics.ellipsized)
        writer.member("truncated", metrics.truncated)
        writer.member("unit", metrics.unit.rawValue)
        writer.member("fonts", metrics.fontsUsed)
        writer.member("substituted", substituted)
        if includeLines {
            writer.key("line_metrics")
            writer.beginArray()
            for line in metrics.lines {
                writer.beginObject()
                writer.member("text", line.text)
                writer.member("start", line.start)
                writer.member("length", line.length)
                writer.member("width", line.width)
                writer.member("ascent", line.ascent)
                writer.member("descent", line.descent)
                writer.member("baseline", line.baseline)
                writer.member("ellipsized", line.ellipsized)
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
    }

    static func writeError(_ message: String, id: JSONValue?, to writer: inout JSONWriter) {
        writer.beginObject()
        if let id {
            writer.key("id")
            writer.value(id)
        }
        writer.member("error", message)
        writer.endObject()
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
