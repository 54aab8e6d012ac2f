import Testing

@testable import FitText

/// The grapheme fast path: text made of "simple" code units is split into clusters exactly
/// as ICU splits it (one per code unit), and the units that join are not simple.
@Suite struct SimpleGraphemesTests {
    let analyzer = TextAnalyzer()

    private func isSimple(_ unit: UInt16) throws -> Bool {
        try [unit].withUnsafeBufferPointer { try analyzer.simpleGraphemes.containsOnlySimple($0) }
    }

    @Test func joiningUnitsAreNotSimple() throws {
        // Combining acute, ZWJ, VS16, Hangul L jamo, Thai SARA AM (SpacingMark), Arabic
        // number sign (Prepend), CR, LF, a lone surrogate, Devanagari virama, halfwidth
        // katakana voiced mark.
        for unit: UInt16 in [0x0301, 0x200D, 0xFE0F, 0x1100, 0x1161, 0x11A8, 0x0E33, 0x0600, 0x0D, 0x0A, 0xD83D, 0x094D, 0xFF9E] {
            #expect(try !isSimple(unit), "U+\(String(unit, radix: 16))")
        }
        for unit: UInt16 in [0x0416, 0x03B1, 0x05D0, 0x0627, 0x4E2D, 0x3042, 0x30AB, 0xAC00, 0xD7A3, 0x2014, 0x3000, 0x2764] {
            #expect(try isSimple(unit), "U+\(String(unit, radix: 16))")
        }
    }

    /// Random strings of simple units from the whole BMP: ICU puts a boundary at every offset.
    @Test func simpleTextSplitsAsICUSplitsIt() throws {
        var simple: [UInt16] = []
        for unit in 0...0xFFFF where try isSimple(UInt16(unit)) { simple.append(UInt16(unit)) }
        #expect(simple.count > 40_000)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let text = (0..<64).map { _ in simple.randomElement(using: &generator)! }
            #expect(try analyzer.icuGraphemeStarts(text) == (0...64).map { Int32($0) })
        }
        // Hangul syllables (LV, LVT) next to each other, kana and CJK: the scripts that rely on it.
        let hangul: [UInt16] = [0xAC00, 0xAC01, 0xAC00, 0xB098, 0xB2E4, 0xB2EB, 0xD7A3, 0xAC00]
        #expect(try analyzer.icuGraphemeStarts(hangul) == (0...hangul.count).map { Int32($0) })
        let text = Array("Привет, мир — こんにちは世界 안녕하세요 Γειά σου שלום مرحبا".utf16)
        let analysis = try text.withUnsafeBufferPointer { try analyzer.analyze($0, lineBreaks: false) }
        #expect(analysis.graphemeStarts == (try analyzer.icuGraphemeStarts(text)))
    }

    /// Text that mixes simple units with ones that join: ICU asked around the others only
    /// (with a simple unit of context each side) splits it as ICU does over the whole text —
    /// marks, joiners, emoji ZWJ sequences and pictographs among letters, regional
    /// indicator pairs, Hangul jamo next to syllables, Prepend, SpacingMark, lone
    /// surrogates, Devanagari viramas between consonants. (No CR or LF: `analyze` gets a
    /// paragraph, split at them, and takes text below U+0300 for one cluster a unit.)
    @Test func mixedTextSplitsAsICUSplitsItWhole() throws {
        let simple: [[UInt16]] = [[0x61], [0x20], [0x4E2D], [0xAC00], [0xAC01], [0x00A9], [0x2764], [0x0915], [0x0937], [0x05D0], [0x0627], [0x2014], [0x30AB]]
        let joining: [[UInt16]] = [
            [0x0301], [0x200D], [0xFE0F], [0x1100], [0x1161], [0x11A8], [0x0E33], [0x0600], [0xD83D], [0xDC4D],
            [0x094D], [0x093F], [0xFF9E], [0x200C], Array("👩".utf16), Array("🇫".utf16), Array("🇷".utf16), Array("👍🏽".utf16),
            Array("❤️".utf16), [0x0E40], [0x1F3], Array("🏳️‍🌈".utf16),
        ]
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for _ in 0..<3000 {
            var text: [UInt16] = []
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let pool = Bool.random(using: &generator) ? simple : joining
                text += pool.randomElement(using: &generator)!
            }
            let analysis = try text.withUnsafeBufferPointer { try analyzer.analyze($0, lineBreaks: false, pangoClusters: false) }
            let whole = try analyzer.icuGraphemeStarts(text)
            #expect(analysis.graphemeStarts == whole, "\(text.map { String($0, radix: 16) })")
            if analysis.graphemeStarts != whole { break }
            checked += 1
        }
        #expect(checked == 3000)
    }

    /// Levels stay 0 without right-to-left text even above U+0590 (CJK, Devanagari, emoji).
    @Test func leftToRightTextSkipsBidi() throws {
        let text = Array("日本語 हिन्दी 😀 abc 123".utf16)
        let analysis = try text.withUnsafeBufferPointer { try analyzer.analyze($0, lineBreaks: false) }
        #expect(analysis.levels.allSatisfy { $0 == 0 })
        let mixed = Array("abc שלום".utf16)
        let rtl = try mixed.withUnsafeBufferPointer { try analyzer.analyze($0, lineBreaks: false) }
        #expect(rtl.levels.last == 1)
    }
}
