import Foundation

/// The benchmark corpus: the plain measurements of the oracle corpus (Tests/oracle/corpus.jsonl)
/// — every request without `max_width`, `ellipsize`, `letter_spacing` or `features`, all
/// scripts, reduced to its text and font. (`wrap` and `max_lines` are dropped with the rest:
/// without a width nothing wraps.) The `bad-` group, requests that exist to be rejected, is
/// left out: it tests errors, not measuring.
public struct Corpus: Sendable {
    public struct Entry: Sendable, Hashable {
        public var text: String
        /// A Pango font description; empty for the default font (sans-serif 12, as in fitd and
        /// the oracle).
        public var font: String

        public init(text: String, font: String) {
            self.text = text
            self.font = font
        }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Keys that make a request more than a plain measurement.
    static let excludedKeys: Set<String> = ["max_width", "ellipsize", "letter_spacing", "features"]

    public static func load(from url: URL = BenchEnvironment.corpus) throws(BenchError) -> Corpus {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .missingFile(url.path, what: "the oracle corpus")
        }
        var entries: [Entry] = []
        for (number, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            let object: Any
            do { object = try JSONSerialization.jsonObject(with: Data(line)) } catch {
                throw .corpus("line \(number + 1) is not JSON: \(error)")
            }
            guard let request = object as? [String: Any] else {
                throw .corpus("line \(number + 1) is not a JSON object")
            }
            if !excludedKeys.isDisjoint(with: request.keys) { continue }
            if let id = request["id"] as? String, id.hasPrefix("bad-") { continue }
            guard let text = request["text"] as? String else {
                throw .corpus("line \(number + 1) has no text")
            }
            let font = request["font"] as? String ?? ""
            // Native UTF-8 copies: Foundation may hand back bridged strings, whose
            // withCString would copy on every call and charge that to the C peers.
            entries.append(Entry(text: String(decoding: Array(text.utf8), as: UTF8.self),
                                 font: String(decoding: Array(font.utf8), as: UTF8.self)))
        }
        guard !entries.isEmpty else { throw .corpus("no plain requests in \(url.path)") }
        return Corpus(entries: entries)
    }

    public var count: Int { entries.count }

    /// A one-line description: how many strings, fonts, UTF-8 bytes.
    public var summary: String {
        let fonts = Set(entries.map(\.font)).count
        let bytes = entries.reduce(0) { $0 + $1.text.utf8.count }
        return "\(count) plain requests from Tests/oracle/corpus.jsonl, \(fonts) fonts, \(bytes) UTF-8 bytes (mean \(bytes / count) per string)"
    }
}
