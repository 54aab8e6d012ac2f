/// Where a break inside a word of plain ASCII text draws a hyphen, without ICU's word iterator
/// (which costs 3.5 % of a cold layout's instructions). The same answer as ``TextAnalyzer``'s
/// path through ICU, which follows Pango's break.c: a hyphen only after a letter (everything
/// else in ASCII is of the Common script, which takes one only after a soft hyphen), and only
/// where no word boundary is — before a letter (UAX #29 WB5), a digit (WB9), `_` (WB13a) or
/// `@` (a letter to ICU's word rules, word.txt: `$ALetter = [\p{Word_Break = ALetter} @]`).
/// Before `" ' , . : ;` the path through ICU never puts one, boundary or not
/// (``TextAnalyzer/isWordMid(_:)``: Pango decides the hyphen before WB6 can take a boundary
/// back); before anything else there is a boundary. `AsciiHyphensTests` compares every string
/// of up to four ASCII characters of each word class, and random longer ones, with the path
/// through ICU; where the process's ICU disagrees on any probe (``AsciiBreaksCheck``), ICU
/// answers everything.
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
            if previousIsLetter && (letter || AsciiLineBreaks.isDigit(unit) || unit == 0x5F || unit == 0x40) { hyphen[i] = true }
            previousIsLetter = letter
        }
        return hyphen
    }

    private static func isLetter(_ unit: UInt16) -> Bool { (unit | 0x20) >= 0x61 && (unit | 0x20) <= 0x7A }
}
