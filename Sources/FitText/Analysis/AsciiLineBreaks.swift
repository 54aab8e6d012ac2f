import Synchronization

/// Line-break opportunities of the plain ASCII most interface text is made of — letters,
/// digits, spaces, `, . : ; ' " -` — without the pass over every character's class (looking
/// up classes and walking the rules for each character of each wrapped text is most of a cold
/// measurement's breaking cost). Text with any other character goes to ``PangoLineBreaks``.
///
/// Exact against Pango 1.50's rules (break.c, ``PangoLineBreaks``) for these classes: AL
/// (letters), NU (digits), SP, IS (`, . : ;`), QU (`' "`), HY (`-`).
/// - A break follows a space (LB18) unless a space (LB7) or IS (LB13: Pango has no LB15c, so
///   `" .5"` does not break either) comes next.
/// - A break follows a hyphen before a letter (LB31; Pango has no LB20a, so also `"-|b"` at the
///   start and `" -|b"` after a space).
/// - A break follows IS before a digit, unless the IS goes on a number (Pango's LB25 keeps
///   `NU (NU | IS)*` whole, but has no `IS × NU` of its own): `"1.5"` whole, `"a.|5"`, `".|5"`.
/// - Nowhere else: LB28 AL × AL, LB23 AL × NU and NU × AL, LB25 NU × NU, NU × IS and HY × NU,
///   LB29 IS × AL, LB13 × IS, LB19 × QU and QU ×, LB21 × HY.
///
/// `AsciiLineBreaksTests` compares every string of up to five of these characters, and random
/// longer ones, with ``PangoLineBreaks``, and that with Pango itself (`PangoLineBreaksTests`);
/// the process checks the fast path against ``PangoLineBreaks`` on probes first
/// (``AsciiBreaksCheck``).
enum AsciiLineBreaks {
    private enum Kind: UInt8 {
        case outside = 0  // not handled here: the pass over classes decides
        case space, infixSeparator, hyphen, letter, digit
        /// Quotation marks: no break on either side except after a space.
        case quote
    }

    private static let kinds: [Kind] = (0..<128).map { (code: Int) -> Kind in
        switch UInt8(code) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return .letter
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return .digit
        case UInt8(ascii: "'"), UInt8(ascii: "\""): return .quote
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
            var previous = kinds[Int(text[0])]
            // break.c's LB25 number state: a digit, then any infix separators.
            var inNumber = previous == .digit
            for i in 1..<text.count {
                let kind = kinds[Int(text[i])]
                switch previous {
                case .space:
                    canBreak[i] = kind != .space && kind != .infixSeparator
                case .hyphen:
                    canBreak[i] = kind == .letter
                case .infixSeparator:
                    canBreak[i] = kind == .digit && !inNumber
                default:
                    break
                }
                if kind != .infixSeparator { inNumber = kind == .digit }
                previous = kind
            }
            return true
        }
    }
}

/// Whether ``AsciiLineBreaks`` and ``AsciiHyphens`` give what their references give in this
/// process, asked once, at the first wrapped text: ``PangoLineBreaks`` over the classes of the
/// ICU this process runs, and the hyphen rules over ICU's word iterator (ICU 72's rules; another
/// ICU may differ). Where any probe differs, the references answer everything.
final class AsciiBreaksCheck: Sendable {
    /// 0 not asked yet, 1 agrees, 2 differs. An atomic read, not a lock: it is read for every
    /// wrapped paragraph, by every thread, and written once (two threads asking at once both
    /// find the same answer).
    private let verdict = Atomic<UInt8>(0)

    /// Strings that exercise every rule the two tables rely on.
    static let probes = [
        "a b", " .5", " .a", "a -b", "-b", "a-b", "1-2", "a,b", "3.5", "x. y", "a 'b' c", "\"a\" b", "a:b", "a@b",
        "ab1_c", "x;y z", "e-mail re-send -5", "it's", "  a  ", "a.5", "1.,5", "x:1", "-5", "a -5",
    ]

    func fastPathsAgree(_ analyzer: TextAnalyzer) -> Bool {
        switch verdict.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default:
            let agrees = Self.probes.allSatisfy { probe in (try? analyzer.fastPathsAgreeWithReference(Array(probe.utf16))) ?? false }
            verdict.store(agrees ? 1 : 2, ordering: .relaxed)
            return agrees
        }
    }
}
