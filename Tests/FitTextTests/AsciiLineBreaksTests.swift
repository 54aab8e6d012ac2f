import Testing

@testable import FitText

/// The ASCII line-break fast path gives exactly Pango's line-break opportunities as
/// ``PangoLineBreaks`` finds them (itself checked against Pango, PangoLineBreaksTests), and
/// leaves every other text to it.
@Suite struct AsciiLineBreaksTests {
    let analyzer = TextAnalyzer()
    /// Every character the fast path handles, from each of its classes.
    static let handled = Array("aZ5 ,.:;'\"-".utf16)

    private func fast(_ text: [UInt16]) -> [Bool]? {
        var breaks = [Bool](repeating: false, count: text.count)
        let handled = text.withUnsafeBufferPointer { AsciiLineBreaks.mark($0, into: &breaks) }
        return handled ? breaks : nil
    }

    /// Every string of up to five handled characters (over 270,000): the same breaks as Pango's.
    @Test func everyShortStringBreaksAsPangoBreaksIt() throws {
        let mismatches = everyString(of: Self.handled, upTo: 5) { fast($0) == analyzer.pangoLineBreaks($0) }
        #expect(mismatches.isEmpty, "differs from Pango's rules: \(mismatches.map { "\"\($0)\"" })")
    }

    /// Longer random strings, and interface text.
    @Test func longerTextBreaksAsPangoBreaksIt() throws {
        var generator = SeededGenerator(state: 0x9E37_79B9_7F4A_7C15)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789   ,.:;'\"-".utf16)
        var texts: [[UInt16]] = (0..<3_000).map { _ in
            (0..<Int.random(in: 6...48, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0x20 }
        }
        for text in [
            "Delete the selected files", "Your changes will be lost if you don't save them.", "3 files, 2.5 MB; 1:30",
            "e-mail re-send -5 a - b", "\"Quoted\" 'single' it's", "  leading and trailing  ", "a,b.c:d;e",
            "version 1.2.3, x.5 .5 1..5 a-1", "abc -def",
        ] {
            texts.append(Array(text.utf16))
        }
        for text in texts {
            let expected = analyzer.pangoLineBreaks(text)
            #expect(fast(text) == expected, "\"\(String(decoding: text, as: UTF16.self))\"")
        }
    }

    /// Any other character — other ASCII punctuation, tabs, controls, anything above ASCII —
    /// leaves the text to the pass over classes.
    @Test func otherCharactersAreLeftToThePassOverClasses() {
        for text in ["a!b", "a/b", "(a)", "a\tb", "a_b", "50%", "$5", "a\u{00A0}b", "café", "a\u{0001}b", "x?"] {
            #expect(fast(Array(text.utf16)) == nil, "\(text)")
        }
        #expect(fast([]) == nil)
    }

    /// The references break every probe as the fast paths do, so they are used.
    @Test func theReferencesAgreeWithTheFastPaths() throws {
        for probe in AsciiBreaksCheck.probes {
            #expect(try analyzer.fastPathsAgreeWithReference(Array(probe.utf16)), "\(probe)")
        }
        #expect(analyzer.asciiBreaksCheck.fastPathsAgree(analyzer))
    }

    /// Through the analyzer, both ways a paragraph is wrapped (analysed wrapped, and wrapped
    /// after it was analysed unwrapped): the references' breaks and hyphen positions.
    @Test func theAnalyzerGivesTheReferencesBreaksAndHyphens() throws {
        let text = Array("Screen time this week: 3 hours, 25 minutes - well-known e-mail @home".utf16)
        let starts = (0...text.count).map { Int32($0) }
        let icuHyphens = try analyzer.icuHyphenPositions(text)
        let pangoBreaks = analyzer.pangoLineBreaks(text)
        let analysis = try text.withUnsafeBufferPointer { try analyzer.analyze($0, lineBreaks: true, hyphenation: true) }
        #expect(analysis.canBreakBefore == pangoBreaks)
        #expect(analysis.hyphenBefore == icuHyphens)
        let wrapped = try text.withUnsafeBufferPointer {
            try analyzer.wrapping($0, graphemeStarts: starts, lineBreaks: true, hyphenation: true)
        }
        #expect(wrapped.canBreakBefore == pangoBreaks)
        #expect(wrapped.hyphenBefore == icuHyphens)
        #expect(pangoBreaks.contains(true) && icuHyphens.contains(true))
    }
}

/// Every string of 1 to `maxLength` characters of `alphabet`; those for which `agrees` is
/// false (at most 20).
func everyString(of alphabet: [UInt16], upTo maxLength: Int, _ agrees: ([UInt16]) throws -> Bool) rethrows -> [String] {
    var mismatches: [String] = []
    for length in 1...maxLength {
        var digits = [Int](repeating: 0, count: length)
        while mismatches.count < 20 {
            let text = digits.map { alphabet[$0] }
            if try !agrees(text) { mismatches.append(String(decoding: text, as: UTF16.self)) }
            // The next string: count in base alphabet.count.
            var position = length - 1
            while position >= 0 && digits[position] == alphabet.count - 1 {
                digits[position] = 0
                position -= 1
            }
            if position < 0 { break }
            digits[position] += 1
        }
    }
    return mismatches
}

/// A seeded xorshift, so that the random strings are the same on every run and a failure
/// can be run again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
