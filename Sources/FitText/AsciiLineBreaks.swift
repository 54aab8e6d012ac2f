import Synchronization

/// Line-break opportunities (UAX #14) of the plain ASCII most interface text is made of —
/// letters, digits, spaces, `, . : ; ' " -` — without ICU's line iterator (issue 14, "the
/// cold path": setting up and walking the iterator was 2.8 % of a cold layout's
/// instructions, FitBenchLayout --cold-calls). Text with any other character goes to ICU.
///
/// Exact against ICU 72's line iterator for such text, by the rules of UAX #14 (Unicode 15.0)
/// that these classes meet: AL (letters), NU (digits), SP, IS (`, . : ;`), QU (`' "`), HY
/// (`-`), and the two rules ICU 72 already takes from Unicode 15.1 (LB15c; LB20a, ICU's rule
/// 20.09).
/// - A break follows a space (LB18) unless a space comes next (LB7), or IS (LB13) that no
///   digit follows (LB15c: SP ÷ IS NU).
/// - A break follows a hyphen before a letter (LB31), unless the hyphen starts the text or
///   follows a space (LB20a: a word-initial hyphen).
/// - Nowhere else: LB28 AL × AL, LB23 AL × NU and NU × AL, LB25 NU × NU, HY × NU and IS × NU,
///   LB29 IS × AL, LB19 × QU and QU ×, LB21 × HY.
///
/// `AsciiLineBreaksTests` compares every string of up to five of these characters, and
/// random longer ones, with ICU; the ICU a process runs is checked against these rules first
/// (``AsciiBreaksCheck``), and another version's rules leave everything to it.
enum AsciiLineBreaks {
    private enum Kind: UInt8 {
        case outside = 0  // not handled here: ICU decides
        case space, infixSeparator, hyphen, letter
        /// Digits and quotation marks: no break on either side except after a space.
        case glue
    }

    private static let kinds: [Kind] = (0..<128).map { (code: Int) -> Kind in
        switch UInt8(code) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return .letter
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "'"), UInt8(ascii: "\""): return .glue
        case UInt8(ascii: " "): return .space
        case UInt8(ascii: ","), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: ";"): return .infixSeparator
        case UInt8(ascii: "-"): return .hyphen
        default: return .outside
        }
    }

    static func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }

    /// Marks `canBreak[i]` (a break before code unit `i`) for `text` and returns true, or
    /// returns false, marking nothing, when the text holds a character this does not handle.
    /// `canBreak` holds one entry per code unit (each is a grapheme cluster here).
    static func mark(_ text: UnsafeBufferPointer<UInt16>, into canBreak: inout [Bool]) -> Bool {
        guard !text.isEmpty, canBreak.count == text.count else { return false }
        return kinds.withUnsafeBufferPointer { kinds -> Bool in
            for unit in text where unit >= 128 || kinds[Int(unit)] == .outside { return false }
            // The kinds before the candidate break (`beforePrevious` .space also at the start
            // of the text) and after it.
            var beforePrevious = Kind.space
            var previous = kinds[Int(text[0])]
            for i in 1..<text.count {
                let kind = kinds[Int(text[i])]
                switch previous {
                case .space:
                    // LB15c: SP ÷ IS NU (" .5"); LB13: × IS otherwise; LB7: × SP.
                    if kind == .infixSeparator {
                        canBreak[i] = i + 1 < text.count && Self.isDigit(text[i + 1])
                    } else {
                        canBreak[i] = kind != .space
                    }
                case .hyphen:
                    // LB20a: (sot | SP) HY × AL ("-e" starts a word); LB31 otherwise.
                    canBreak[i] = kind == .letter && beforePrevious != .space
                default:
                    break
                }
                beforePrevious = previous
                previous = kind
            }
            return true
        }
    }
}

/// Whether the ICU this process runs breaks ASCII as ``AsciiLineBreaks`` and ``AsciiHyphens``
/// do, asked once, at the first wrapped text: their rules are ICU 72's (Unicode 15.0 with
/// 15.1's LB15c and LB20a), and another ICU may differ (Unicode 16 changed the rules for
/// quotation marks, for one). Where any probe differs, ICU answers everything.
final class AsciiBreaksCheck: Sendable {
    /// 0 not asked yet, 1 agrees, 2 differs. An atomic read, not a lock: it is read for every
    /// wrapped paragraph, by every thread, and written once (two threads asking at once both
    /// find the same answer).
    private let verdict = Atomic<UInt8>(0)

    /// Strings that exercise every rule the two tables rely on.
    static let probes = [
        "a b", " .5", " .a", "a -b", "-b", "a-b", "1-2", "a,b", "3.5", "x. y", "a 'b' c", "\"a\" b", "a:b", "a@b",
        "ab1_c", "x;y z", "e-mail re-send -5", "it's", "  a  ",
    ]

    func fastPathsAgree(_ analyzer: TextAnalyzer) -> Bool {
        switch verdict.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default:
            let agrees = Self.probes.allSatisfy { probe in (try? analyzer.fastPathsAgreeWithICU(Array(probe.utf16))) ?? false }
            verdict.store(agrees ? 1 : 2, ordering: .relaxed)
            return agrees
        }
    }
}
