import Testing

@testable import FitText

/// Terminal cells per grapheme cluster (CellWidth), and the cells layout (CellTypesetter):
/// the grapheme-cluster model of modern terminals (kitty's cell-splitting spec, WezTerm,
/// foot, VTE with grapheme support) — see Tests/cells/README.md.
@Suite struct CellWidthTests {
    private func columns(_ text: String) -> Int { CellWidth.columns(of: text) }
    private func cluster(_ scalars: UInt32...) -> Int { CellWidth.columns(ofCluster: scalars) }

    @Test func asciiIsOneColumnEach() {
        #expect(columns("A") == 1)
        #expect(columns("Hello, world!") == 13)
        #expect(columns(" ") == 1)
    }

    @Test func cjkAndHangulSyllablesAreTwo() {
        #expect(columns("你") == 2)
        #expect(columns("日本語テキスト") == 14)
        #expect(columns("한국어") == 6)
        #expect(columns("\u{3000}") == 2)  // ideographic space, EAW F
    }

    @Test func fullwidthFormsAreTwoAndHalfwidthFormsOne() {
        #expect(columns("Ａ") == 2)
        #expect(columns("１２３") == 6)
        #expect(columns("ｱ") == 1)  // halfwidth katakana
        #expect(columns("ｶﾞ") == 1)  // halfwidth katakana + halfwidth voiced mark: one cluster
    }

    @Test func combiningMarksJoinTheirBaseAndAreZeroAlone() {
        #expect(columns("e\u{301}") == 1)
        #expect(columns("e\u{301}\u{308}\u{323}") == 1)
        #expect(columns("中\u{301}") == 2)
        #expect(cluster(0x301) == 0)
        #expect(cluster(0x20DD) == 0)  // enclosing circle (Me)
        #expect(columns("\u{301}") == 0)
    }

    @Test func zwjSequencesAreOneWideCluster() {
        #expect(columns("👨‍👩‍👧‍👦") == 2)
        #expect(columns("👩‍💻") == 2)
        #expect(columns("🏳️‍🌈") == 2)
        #expect(columns("👩🏽‍💻") == 2)
        #expect(columns("🧑‍🤝‍🧑") == 2)
    }

    @Test func flagsAreTwo() {
        #expect(columns("🇩🇪") == 2)
        #expect(columns("🇯🇵🇺🇸") == 4)
        #expect(columns("🏴󠁧󠁢󠁳󠁣󠁴󠁿") == 2)  // tag sequence (Scotland)
    }

    @Test func skinTonesAreTwo() {
        #expect(columns("👍🏽") == 2)
        #expect(columns("👋🏿") == 2)
        #expect(columns("🏽") == 2)  // a modifier on its own is a wide emoji
    }

    @Test func keycapsAreTwo() {
        #expect(columns("1️⃣") == 2)
        #expect(columns("#️⃣") == 2)
        #expect(columns("*️⃣") == 2)
    }

    @Test func vs16MakesATextDefaultEmojiTwo() {
        #expect(columns("❤") == 1)
        #expect(columns("❤️") == 2)
        #expect(columns("☺️") == 2)
        #expect(columns("©️") == 2)
        #expect(columns("↔️") == 2)
    }

    @Test func vs15MakesTextPresentationOne() {
        #expect(columns("❤︎") == 1)
        #expect(columns("☺︎") == 1)
        // An emoji-default character asked for as text narrows to one cell (kitty's rule).
        #expect(columns("😀︎") == 1)
        #expect(columns("⌚︎") == 1)
        #expect(columns("⌚") == 2)
        // VS15 does not narrow what is wide for East Asian Width reasons alone.
        #expect(columns("一\u{FE0E}") == 2)
    }

    @Test func emojiPresentationCharactersAreTwo() {
        #expect(columns("😀") == 2)
        #expect(columns("☕") == 2)
        #expect(columns("⌚") == 2)
    }

    @Test func hangulJamoSequencesAreOneSyllableWide() {
        #expect(columns("\u{1112}\u{1161}\u{11AB}") == 2)  // 한, decomposed: L V T
        #expect(columns("\u{1100}\u{1161}") == 2)  // 가: L V
        #expect(columns("\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}") == 4)  // 한글
        #expect(columns("\u{1100}") == 2)  // a lone leading consonant is wide
        #expect(cluster(0x1161) == 0)  // medial vowels and finals add nothing to a syllable
        #expect(cluster(0x11AB) == 0)
    }

    @Test func controlAndFormatCharactersAreZero() {
        #expect(cluster(0x01) == 0)
        #expect(cluster(0x1B) == 0)
        #expect(cluster(0x7F) == 0)
        #expect(cluster(0x85) == 0)
        #expect(columns("\u{200B}") == 0)  // zero width space
        #expect(columns("\u{200D}") == 0)
        #expect(columns("\u{FEFF}") == 0)
        #expect(columns("\u{AD}") == 0)  // soft hyphen (Cf)
        #expect(columns("a\u{200B}b") == 2)
    }

    @Test func otherScriptsAreOnePerCluster() {
        #expect(columns("مرحبا") == 5)
        #expect(columns("שלום") == 4)
        #expect(columns("ไทย") == 3)
        #expect(columns("กำ") == 1)  // SARA AM is a spacing mark of the same cluster
    }

    // MARK: cells layout through the engine

    @Test func theEngineMeasuresCellsPerCluster() throws {
        let r = try TestEngine.cells("表示 👍🏽 ok")
        #expect(r.unit == .cells)
        #expect(r.width == 10)  // 2 + 2 + 1 + 2 + 1 + 1 + 1
        #expect(r.height == 1)
        #expect(r.baseline == 1)
        #expect(r.lineCount == 1)
        #expect(r.fontsUsed.isEmpty)
        #expect(r.lines.map(\.text) == ["表示 👍🏽 ok"])
        #expect(try TestEngine.cells("😀︎⌚︎❤︎").width == 3)
    }

    @Test func wideTextWrapsAtSevenCells() throws {
        let r = try TestEngine.cells("日本語テキスト", maxWidth: 7)
        #expect(r.lines.map(\.text) == ["日本語", "テキス", "ト"])
        #expect(r.lines.map(\.width) == [6, 6, 2])
        #expect(r.lines.map(\.start) == [0, 3, 6])
        #expect(r.lines.map(\.baseline) == [1, 2, 3])
        #expect(r.width == 6)
        #expect(r.height == 3)
    }

    @Test func ellipsisInCellsKeepsWholeWideCharacters() throws {
        let r = try TestEngine.cells("日本語テキスト", maxWidth: 5, ellipsize: .end)
        #expect(r.lines.map(\.text) == ["日本…"])
        #expect(r.width == 5)
        #expect(r.ellipsized && r.truncated)
        // 6 cells hold no more: half of 語 does not fit.
        #expect(try TestEngine.cells("日本語テキスト", maxWidth: 6, ellipsize: .end).lines.map(\.text) == ["日本…"])
        // Nothing but the ellipsis fits in 0 cells.
        let none = try TestEngine.cells("日本語テキスト", maxWidth: 0, ellipsize: .end)
        #expect(none.lines.map(\.text) == ["…"])
        #expect(none.width == 1)
    }

    @Test func ellipsisModesInCells() throws {
        #expect(try TestEngine.cells("abcdefghij", maxWidth: 4, ellipsize: .start).lines.map(\.text) == ["…hij"])
        #expect(try TestEngine.cells("abcdefghij", maxWidth: 4, ellipsize: .middle).lines.map(\.text) == ["ab…j"])
        #expect(try TestEngine.cells("abcdefghij", maxWidth: 4, ellipsize: .end).lines.map(\.text) == ["abc…"])
        #expect(try TestEngine.cells("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", maxWidth: 5, ellipsize: .end).lines.map(\.text) == ["👨‍👩‍👧‍👦👨‍👩‍👧‍👦…"])
    }

    @Test func charWrapInCellsHyphenatesInsideWords() throws {
        let r = try TestEngine.cells("abcdefghij", maxWidth: 4, wrap: .char)
        #expect(r.lines.map(\.text) == ["abc-", "def-", "ghij"])
        #expect(r.lines.map(\.width) == [4, 4, 4])
        #expect(r.lines.map(\.length) == [3, 3, 4])  // the hyphen is not part of the text's range
    }

    @Test func fractionalCellWidthsRoundDown() throws {
        #expect(try TestEngine.cells("aaa bbb", maxWidth: 7.9).lineCount == 1)
        #expect(try TestEngine.cells("aaaa bbbb", maxWidth: 8.9).lineCount == 2)
    }

    @Test func maxLinesInCells() throws {
        let clipped = try TestEngine.cells("abcdefghij", maxWidth: 4, wrap: .char, maxLines: 2)
        #expect(clipped.lines.map(\.text) == ["abc-", "def-"])
        #expect(clipped.truncated && !clipped.ellipsized)
        let ellipsized = try TestEngine.cells("aaa bbb ccc ddd", maxWidth: 8, maxLines: 2, ellipsize: .end)
        #expect(ellipsized.lines.map(\.text) == ["aaa bbb ", "ccc ddd"])
        #expect(!ellipsized.ellipsized)
        let cut = try TestEngine.cells("aaa bbb ccc ddd eee", maxWidth: 8, maxLines: 2, ellipsize: .end)
        #expect(cut.lines.map(\.text) == ["aaa bbb ", "ccc ddd…"])
        #expect(cut.lines.map(\.width) == [7, 8])
    }

    @Test func newlinesInCells() throws {
        let r = try TestEngine.cells("a\nb\n")
        #expect(r.lines.map(\.text) == ["a", "b", ""])
        #expect(r.lines.map(\.start) == [0, 2, 4])
        #expect(r.height == 3)
    }

    @Test func aTabRunsToTheNextStopFromTheStartOfItsRow() throws {
        #expect(try TestEngine.cells("ab\tc").width == 9)
        // A wrapped line is a new row that starts at column 0: on the second row "b" is at
        // column 0, the tab runs to column 8 and "c" is at column 8 — 9 cells, not the 5 a
        // stop counted from the paragraph's start (column 13 → 16) would give.
        let r = try TestEngine.cells("aaaaaaaaaaa b\tc", maxWidth: 12)
        #expect(r.lines.map(\.text) == ["aaaaaaaaaaa ", "b\tc"])
        #expect(r.lines.map(\.width) == [11, 9])
    }
}
