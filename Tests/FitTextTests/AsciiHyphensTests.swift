import Testing

@testable import FitText

/// The ASCII hyphen fast path gives exactly what the path through ICU's word boundaries gives.
@Suite struct AsciiHyphensTests {
    let analyzer = TextAnalyzer()

    private func viaICU(_ text: [UInt16]) throws -> [Bool] { try analyzer.icuHyphenPositions(text) }

    private func fast(_ text: [UInt16]) -> [Bool]? { text.withUnsafeBufferPointer { AsciiHyphens.positions($0) } }

    /// Every string of up to four characters, one of each word-break class in ASCII (letters,
    /// digits, `_`, the mid-word and mid-number marks, quotes, space, hyphen, other
    /// punctuation, a tab).
    @Test func everyShortStringHyphensAsICUSays() throws {
        let alphabet = Array("aZ5_@ -.':,;\"!/\t".utf16)
        let mismatches = try everyString(of: alphabet, upTo: 4) { try fast($0) == viaICU($0) }
        #expect(mismatches.isEmpty, "differs from ICU: \(mismatches.map { "\"\($0)\"" })")
    }

    @Test func longerTextHyphensAsICUSays() throws {
        var generator = SeededGenerator(state: 0x9E37_79B9_7F4A_7C15)
        let printable = (0x20...0x7E).map { UInt16($0) } + Array("abcdefghijklmnopqrstuvwxyz".utf16)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 5...48, using: &generator)).map { _ in printable.randomElement(using: &generator) ?? 0x61 }
            #expect(try fast(text) == viaICU(text), "\"\(String(decoding: text, as: UTF16.self))\"")
        }
        let text = Array("Delete the selected files: photo.jpg, it's 3rd_party e-mail".utf16)
        #expect(try fast(text) == viaICU(text))
        #expect(fast(text)?.contains(true) == true)
    }

    @Test func textBeyondASCIIIsLeftToICU() {
        #expect(fast(Array("café".utf16)) == nil)
        #expect(fast([]) == nil)
    }
}

