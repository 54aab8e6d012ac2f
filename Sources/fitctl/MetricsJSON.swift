import FitText
import Foundation

/// TextMetrics as the JSON objects `--json` and `--batch` print (field names in snake_case,
/// the same as the batch request's).
enum MetricsJSON {
    static func object(_ metrics: TextMetrics, includeLines: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "width": metrics.width, "height": metrics.height, "baseline": metrics.baseline,
            "lines": metrics.lineCount, "ellipsized": metrics.ellipsized, "truncated": metrics.truncated,
            "unit": metrics.unit.rawValue, "fonts": metrics.fontsUsed,
        ]
        if includeLines {
            object["line_metrics"] = metrics.lines.map { line -> [String: Any] in
                [
                    "width": line.width, "ascent": line.ascent, "descent": line.descent, "baseline": line.baseline,
                    "start": line.start, "length": line.length, "text": line.text, "ellipsized": line.ellipsized,
                ]
            }
        }
        return object
    }
}

enum JSONOutput {
    static func string(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{\"error\":\"result could not be encoded\"}"
        }
        return String(decoding: data, as: UTF8.self)
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
