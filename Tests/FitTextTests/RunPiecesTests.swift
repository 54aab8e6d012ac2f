import FitTypes
import Testing

@testable import FitText

/// A long run is shaped in pieces, cut where HarfBuzz says a cut changes nothing
/// (Shaper.RunPieces): the clusters, their advances, where they are safe to break and
/// their missing glyphs are those of the run shaped whole, in every script's shaping.
@Suite struct RunPiecesTests {
    /// Small pieces, so that a text of a few thousand units is cut a dozen times.
    private let small = Shaper.RunPieces(units: 300, margin: 64)

    /// A text in one font and one script (ICU's codes, unicode/uscript.h), repeated past
    /// 3,000 UTF-16 units.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let font: String
        let script: Int32
        let rightToLeft: Bool
        let unit: String
        var text: String { String(repeating: unit, count: 3_000 / unit.utf16.count + 1) }
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // Kerning pairs (AV, To, Wa, Yo) and the ligatures DejaVu has none of.
        Case(name: "Latin, kerned", font: "DejaVu Sans 12", script: 25, rightToLeft: false, unit: "AVAST! To Wa Yo, fluffy office. "),
        Case(name: "Arabic, joined", font: "Noto Sans Arabic 12", script: 2, rightToLeft: true, unit: "السلام عليكم ورحمة الله وبركاته، "),
        Case(name: "Devanagari, conjuncts", font: "Noto Sans Devanagari 12", script: 10, rightToLeft: false, unit: "नमस्ते दुनिया क्षत्रिय श्री प्रधानमंत्री "),
        // A vowel sign and a virama after a space: broken syllables, which HarfBuzz shows
        // with a dotted circle in every piece, as in the whole run.
        Case(name: "Devanagari, broken syllables", font: "Noto Sans Devanagari 12", script: 10, rightToLeft: false, unit: "नमस्ते \u{093F}दुनिया \u{094D}क "),
        Case(name: "Thai, no spaces", font: "Noto Sans Thai 12", script: 38, rightToLeft: false, unit: "สวัสดีครับภาษาไทยน้ำ"),
        Case(name: "Han", font: "Noto Sans CJK SC 12", script: 17, rightToLeft: false, unit: "漢字の文章です、中文。"),
        Case(name: "Hebrew with points", font: "Noto Sans Hebrew 12", script: 19, rightToLeft: true, unit: "שָׁלוֹם עוֹלָם "),
        // Unassigned code points: .notdef glyphs, whose boxes the missing list records.
        Case(name: "Latin, missing glyphs", font: "DejaVu Sans 12", script: 25, rightToLeft: false, unit: "abc \u{0378}\u{0379} d\u{0378} "),
    ]

    private enum Way { case whole, shape(Shaper.RunPieces), onlyPieces(Shaper.RunPieces) }

    private func shaped(_ test: Case, _ way: Way) throws -> ShapedRun? {
        let style = try TestEngine.engine().style(for: MeasureRequest(text: "", font: test.font))
        let units = Array(test.text.utf16)
        let language = style.language.hbLanguage(script: test.script)
        return units.withUnsafeBufferPointer { text in
            switch way {
            case .whole:
                return Shaper.shape(
                    text, font: style.primary, rightToLeft: test.rightToLeft, script: test.script, language: language,
                    features: style.features, pieces: Shaper.RunPieces(units: .max, margin: 0))
            case .shape(let pieces):
                return Shaper.shape(
                    text, font: style.primary, rightToLeft: test.rightToLeft, script: test.script, language: language,
                    features: style.features, pieces: pieces)
            case .onlyPieces(let pieces):
                return Shaper.shapeInPieces(
                    text, font: style.primary, rightToLeft: test.rightToLeft, script: test.script, language: language,
                    features: style.features, pieces: pieces)
            }
        }
    }

    private func described(_ run: ShapedRun?) -> [String] {
        guard let run else { return ["nil"] }
        return run.clusters.map { "\($0.start) \($0.advance) \($0.safeBefore)" }
            + run.missing.map { "missing \($0.cluster) \($0.notdefAdvance) \($0.narrowBoxes) \($0.wideBoxes)" }
    }

    @Test(arguments: cases)
    func piecesGiveTheWholeRunsClusters(_ test: Case) throws {
        let whole = try #require(try shaped(test, .whole))
        #expect(whole.clusters.count > 1_000)
        // Cut in pieces, not shaped whole for want of a cut (which would pass vacuously).
        let inPieces = try #require(try shaped(test, .onlyPieces(small)), "no cut found")
        #expect(described(inPieces) == described(whole))
        #expect(described(try shaped(test, .shape(small))) == described(whole))
        // The font is the script's: only the case that means to has missing glyphs.
        #expect(whole.missing.isEmpty == !test.name.contains("missing"))
    }

    /// A stretch without a cut (every pair kerned, thousands of marks on one base) is shaped
    /// with the rest of the run from the last cut before it, not the whole run again.
    @Test(arguments: [
        Case(name: "kerned pairs after prose", font: "DejaVu Sans 12", script: 25, rightToLeft: false,
             unit: String(repeating: "hello world ", count: 50) + String(repeating: "AV", count: 1_500)),
        Case(name: "marks on one base", font: "DejaVu Sans 12", script: 25, rightToLeft: false, unit: "a" + String(repeating: "\u{0301}", count: 3_000)),
    ])
    func aStretchWithoutACutIsShapedFromTheLastCut(_ test: Case) throws {
        let whole = try #require(try shaped(test, .whole))
        #expect(!whole.clusters.isEmpty)
        #expect(described(try shaped(test, .onlyPieces(small))) == described(whole))
        #expect(described(try shaped(test, .shape(small))) == described(whole))
    }
}
