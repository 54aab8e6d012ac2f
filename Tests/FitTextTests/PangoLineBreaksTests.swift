import CFitShims
import Foundation
import Testing

@testable import FitText

/// fitd's line-break opportunities are Pango 1.50's (``PangoLineBreaks``), asked of Pango itself
/// through `Tests/oracle/pango_line_breaks.py` (pango_get_log_attrs, /usr/bin/python3): every
/// short string of characters of every line-break class, random longer ones, and the real
/// translated strings of the GTK corpus.
@Suite struct PangoLineBreaksTests {
    let analyzer = TextAnalyzer()

    /// One or two characters of each of GLib's line-break classes (UAX #14 names): AL HL NU SP
    /// IS SY QU HY BA BB B2 OP CL CP EX PR PO NS CJ ID IN GL WJ ZW CM ZWJ CB SA(Lao) AI XX JL JV JT
    /// H2 H3 RI EB EM, an East Asian wide opening bracket (LB30) and a halfwidth one.
    static let classes: [String] = [
        "a", "א", "1", " ", ".", "/", "\"", "-", "\u{2013}", "\u{00B4}", "\u{2014}", "(", "}", ")", "!", "$", "%",
        "\u{3005}", "\u{3041}", "中", "\u{2026}", "\u{00A0}", "\u{2060}", "\u{200B}", "\u{0301}", "\u{200D}", "\u{FFFC}",
        "ກ", "\u{00A7}", "\u{E000}", "\u{1100}", "\u{1161}", "\u{11A8}", "가", "각", "\u{1F1E6}", "\u{1F466}", "\u{1F3FB}",
        "\u{FF08}", "\u{FF62}",
    ]

    /// Pango's breaks (character offsets) of each text.
    static func pango(_ texts: [String]) throws -> [Set<Int>] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("oracle/pango_line_breaks.py")
        process.arguments = [script.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Write from another thread: the answer may fill the pipe before the question is sent.
        let question = try JSONEncoder().encode(texts)
        let writer = Thread {
            input.fileHandleForWriting.write(question)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let results = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: [Int]]])
        return results.map { Set($0["breaks"] ?? []) }
    }

    /// fitd's breaks and cluster starts (character offsets) of `text`, through the analyzer as
    /// wrapping uses it.
    func fitdBreaks(_ text: String) throws -> (breaks: Set<Int>, clusterStarts: Set<Int>) {
        let units = Array(text.utf16)
        let analysis = try units.withUnsafeBufferPointer { try analyzer.analyze($0, lineBreaks: true) }
        // Character offset of each UTF-16 offset.
        var character = [Int](repeating: 0, count: units.count + 1)
        var count = 0
        for (i, unit) in units.enumerated() {
            character[i] = count
            if !UTF16.isTrailSurrogate(unit) { count += 1 }
        }
        character[units.count] = count
        var breaks = Set<Int>()
        var starts = Set<Int>()
        for c in 1..<max(analysis.clusterCount, 1) {
            starts.insert(character[Int(analysis.graphemeStarts[c])])
            if analysis.canBreakBefore[c] { breaks.insert(character[Int(analysis.graphemeStarts[c])]) }
        }
        return (breaks, starts)
    }

    func fitd(_ text: String) throws -> Set<Int> { try fitdBreaks(text).breaks }

    /// The texts where fitd's breaks differ from Pango's at fitd's cluster starts, or Pango
    /// breaks inside a cluster before anything but a combining mark, ZWJ or emoji modifier.
    /// Those three break.c decides at every position, grapheme boundary or not ("If it's not a
    /// grapheme boundary, it's not a line break either" and its exceptions), and allows after a
    /// space (LB10 reads the mark as a letter) or, for an emoji modifier, after anything but an
    /// emoji base (only LB30b holds it): a break inside a cluster, which fitd, breaking only
    /// between clusters, leaves out (PANGO_RULES.md, "Pango's line breaking over GLib's classes").
    func mismatches(_ texts: [String]) throws -> [String] {
        let expected = try Self.pango(texts)
        var found: [String] = []
        for (text, pango) in zip(texts, expected) {
            let ours = try fitdBreaks(text)
            let characters = Array(text.unicodeScalars)
            let insideClusters = pango.subtracting(ours.clusterStarts)
            let unexplained = insideClusters.filter { i in
                let c = characters[i].value
                return !(c == 0x200D || (c >= 0x1F3FB && c <= 0x1F3FF) || [6, 7, 8].contains(fit_char_type(c)))
            }
            guard pango.intersection(ours.clusterStarts) != ours.breaks || !unexplained.isEmpty else { continue }
            let scalars = characters.map { String($0.value, radix: 16) }.joined(separator: " ")
            found.append("[\(scalars)] Pango \(pango.sorted()) fitd \(ours.breaks.sorted())")
            if found.count >= 20 { break }
        }
        return found
    }

    /// Every string of up to three characters of the classes (65,640): each pair of classes,
    /// after a space (LB18's row) and before a third (LB25's look-ahead).
    @Test func everyShortStringOfEveryClassBreaksAsPangoBreaksIt() throws {
        var texts: [String] = []
        for a in Self.classes {
            texts.append(a)
            for b in Self.classes {
                texts.append(a + b)
                for c in Self.classes { texts.append(a + b + c) }
            }
        }
        let found = try mismatches(texts)
        #expect(found.isEmpty, "\(found)")
    }

    /// Random strings of 4 to 16 characters of the classes.
    @Test func randomStringsBreakAsPangoBreaksThem() throws {
        var generator = SeededGenerator(state: 0x2545_F491_4F6C_DD1D)
        let texts = (0..<20_000).map { _ in
            (0..<Int.random(in: 4...16, using: &generator)).map { _ in Self.classes.randomElement(using: &generator) ?? "a" }.joined()
        }
        let found = try mismatches(texts)
        #expect(found.isEmpty, "\(found)")
    }

    /// The translated interface strings of the GTK corpus (112 languages, format directives,
    /// numbers, units, quotes, CJK, Thai…).
    @Test func realTranslatedStringsBreakAsPangoBreaksThem() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("oracle/gtk_corpus.jsonl")
        let lines = try String(contentsOf: corpus, encoding: .utf8).split(separator: "\n")
        var texts: [String] = []
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if let text = object?["text"] as? String { texts.append(contentsOf: text.split(separator: "\n").map(String.init)) }
        }
        #expect(texts.count > 6_000)
        let found = try mismatches(texts)
        #expect(found.isEmpty, "\(found)")
    }

    /// The differences from ICU's line iterator that real strings showed.
    @Test func pangoBreaksWhereICUDoesNot() throws {
        // IS ÷ NU outside a number (no IS × NU in break.c's LB25): "%.|250s", "%.|1f".
        #expect(try fitd("abc %.250s") == [4, 6])
        #expect(try fitd("%.1f KB") == [2, 5])
        // No LB20a: a hyphen after a space breaks before a letter.
        #expect(try fitd("abc -def") == [4, 5])
        // No LB15c: a space before IS does not break, even before a digit.
        #expect(try fitd("a .5") == [3])
        // Inside a number nothing breaks (NU (NU | IS)*).
        #expect(try fitd("1.5 a.5") == [4, 6])
    }
}
