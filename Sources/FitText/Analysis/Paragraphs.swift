/// Splits UTF-16 text into paragraphs at hard line breaks: LF, CR, CR LF, NEL, LS and PS
/// (Pango's pango_find_paragraph_boundary, plus the line separators UAX #14 makes mandatory).
/// A trailing break ends with an empty paragraph, which is an empty line, as in Pango.
enum Paragraphs {
    /// The same ranges as ``split(_:)``, found one at a time (no array: most texts are one
    /// paragraph).
    struct Ranges: Sequence, IteratorProtocol {
        let units: [UInt16]
        private var start = 0
        private var finished = false

        init(_ units: [UInt16]) { self.units = units }

        mutating func next() -> Range<Int>? {
            guard !finished else { return nil }
            var i = start
            while i < units.count {
                let unit = units[i]
                if unit == 0x0A || unit == 0x85 || unit == 0x2028 || unit == 0x2029 || unit == 0x0D {
                    let paragraph = start..<i
                    if unit == 0x0D && i + 1 < units.count && units[i + 1] == 0x0A { i += 1 }
                    start = i + 1
                    return paragraph
                }
                i += 1
            }
            finished = true
            return start..<units.count
        }
    }

    static func ranges(_ units: [UInt16]) -> Ranges { Ranges(units) }

    static func split(_ units: [UInt16]) -> [Range<Int>] {
        var paragraphs: [Range<Int>] = []
        var start = 0
        var i = 0
        while i < units.count {
            switch units[i] {
            case 0x0A, 0x85, 0x2028, 0x2029:
                paragraphs.append(start..<i)
                start = i + 1
            case 0x0D:
                paragraphs.append(start..<i)
                if i + 1 < units.count && units[i + 1] == 0x0A { i += 1 }
                start = i + 1
            default:
                break
            }
            i += 1
        }
        paragraphs.append(start..<units.count)
        return paragraphs
    }
}

/// Maps UTF-16 offsets of a text to Unicode code point offsets, for line ranges that other
/// languages can use (a code point index is what Python's str and most APIs count).
struct CodePointIndex {
    private var prefix: [Int32]

    init(_ units: [UInt16]) {
        prefix = [Int32](repeating: 0, count: units.count + 1)
        var count: Int32 = 0
        for i in units.indices {
            prefix[i] = count
            if !UTF16.isTrailSurrogate(units[i]) || i == 0 || !UTF16.isLeadSurrogate(units[i - 1]) { count += 1 }
        }
        prefix[units.count] = count
    }

    func codePoints(at utf16Offset: Int) -> Int { Int(prefix[utf16Offset]) }
}
