@testable import FitText

/// A paragraph with made-up widths, so the line breaker and the ellipsizer are tested without
/// fonts: every Character is one cluster; letters are 10 wide, spaces 5, "-" 6, "W" 30; a
/// line may break after a space or a hyphen (UAX #14's simplest cases); a break inside a
/// word draws a hyphen of width 4, except next to a space or a hyphen (PANGO_RULES.md §6).
struct SyntheticText {
    let clusters: [Character]
    static let hyphen = 4.0

    init(_ text: String) { clusters = Array(text) }

    static func width(of c: Character) -> Double {
        switch c {
        case " ": return 5
        case "-": return 6
        case "W": return 30
        default: return 10
        }
    }

    var widths: [Double] { clusters.map(SyntheticText.width) }

    var breaker: LineBreaker {
        let n = clusters.count
        var canBreak = [Bool](repeating: false, count: n)
        var hyphenBefore = [Bool](repeating: false, count: n)
        for i in 1..<max(n, 1) where i < n {
            let before = clusters[i - 1]
            let here = clusters[i]
            canBreak[i] = before == " " || before == "-"
            hyphenBefore[i] = !canBreak[i] && here != " " && here != "-"
        }
        return LineBreaker(
            widths: widths, canBreakBefore: canBreak, isWhiteSpace: clusters.map { $0 == " " },
            hyphenBefore: hyphenBefore, hyphenWidth: SyntheticText.hyphen)
    }

    func lines(maxWidth: Double?, wrap: WrapMode = .word, limit: Int = .max) -> [LineBreaker.Line] {
        breaker.lines(maxWidth: maxWidth, wrap: wrap, limit: limit)
    }

    /// The text of each line, with "‐" where a hyphen is drawn.
    func texts(_ lines: [LineBreaker.Line]) -> [String] {
        lines.map { String(clusters[$0.range]) + ($0.hyphenated ? "‐" : "") }
    }

    func text(_ range: Range<Int>) -> String { String(clusters[range]) }
}
