/// Line-break opportunities (UAX #14) of the plain ASCII most interface text is made of —
/// letters, digits, spaces, `, . : ; ' " -` — without ICU's line iterator (issue 14, "the
/// cold path": setting up and walking the iterator was 2.8 % of a cold layout's
/// instructions, FitBenchLayout --cold-calls). Text with any other character goes to ICU.
///
/// Exact against ICU 72's line iterator for such text, by the rules of UAX #14 (Unicode 15.0)
/// that these classes meet: AL (letters), NU (digits), SP, IS (`, . : ;`), QU (`' "`), HY
/// (`-`), and the two rules ICU 72 already takes from Unicode 15.1 (LB15c, LB20.1). A break
/// follows a space (LB18) unless a space comes next (LB7) or IS (LB13) that no digit follows
/// (LB15c: SP ÷ IS NU); a break follows a hyphen before a letter (LB31), unless the hyphen
/// starts the text or follows a space (LB20.1); nowhere else: LB28 AL × AL, LB23 AL × NU and
/// NU × AL, LB25 NU × NU, HY × NU and IS × NU, LB29 IS × AL, LB19 × QU and QU ×, LB21 × HY.
/// `AsciiLineBreaksTests` compares every string of up to five of these characters, and
/// random longer ones, with ICU.
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

    private static func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }

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
                    // LB20.1: (sot | SP) HY × AL ("-e" starts a word); LB31 otherwise.
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

/// Where a break inside a word of plain ASCII text draws a hyphen, without ICU's word
/// iterator (issue 14, "the cold path": the iterator was 3.5 % of a cold layout's
/// instructions). The same answer as ``TextAnalyzer``'s path through ICU, which follows
/// Pango's break.c: a hyphen only after a letter (everything else in ASCII is of the Common
/// script, which takes one only after a soft hyphen), and only where no word boundary is —
/// before a letter (UAX #29 WB5), a digit (WB9), `_` (WB13a) or `@` (a letter to ICU's word
/// rules, word.txt: `$ALetter = [\p{Word_Break = ALetter} @]`). Before `' . :` after a letter
/// there is no boundary either (WB6), but Pango decides the hyphen before WB6 takes the
/// boundary back, so none there; before anything else there is a boundary.
/// `AsciiLineBreaksTests` compares every string of up to four ASCII characters of each word
/// class, and random longer ones, with the ICU path.
enum AsciiHyphens {
    /// For each code unit of `text`, a hyphen before it; nil when the text is not all ASCII.
    static func positions(_ text: UnsafeBufferPointer<UInt16>) -> [Bool]? {
        guard !text.isEmpty else { return nil }
        for unit in text where unit >= 0x80 { return nil }
        var hyphen = Array(repeatElement(false, count: text.count))
        var previousIsLetter = isLetter(text[0])
        for i in 1..<text.count {
            let unit = text[i]
            let letter = isLetter(unit)
            if previousIsLetter && (letter || (unit >= 0x30 && unit <= 0x39) || unit == 0x5F || unit == 0x40) { hyphen[i] = true }
            previousIsLetter = letter
        }
        return hyphen
    }

    private static func isLetter(_ unit: UInt16) -> Bool { (unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7A }
}
