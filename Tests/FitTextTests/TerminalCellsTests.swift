#if canImport(Glibc)
import Glibc
#endif
import Testing

@testable import FitText

/// The cells options (docs/users-terminal-app.md): `escapes` (ECMA-48 sequences take no cells),
/// `ambiguous` (East Asian Width A) and `terminal` (grapheme clusters or wcwidth code points).
/// Tests/cells/README.md gives the sources each expected width follows.
@Suite struct TerminalCellsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        var escapes: EscapeMode = .none
        var terminal: TerminalProfile = .grapheme
        var ambiguous: AmbiguousWidth = .narrow
        let width: Double
        let why: String
        var testDescription: String { why }
    }

    static func cells(_ c: Case) throws -> TextMetrics {
        var request = MeasureRequest(text: c.text, unit: .cells, includeLines: true)
        request.escapes = c.escapes
        request.terminal = c.terminal
        request.ambiguous = c.ambiguous
        return try TestEngine.engine().measure(request)
    }

    static let escapeCases: [Case] = [
        Case(text: "\u{1B}[1mbold\u{1B}[0m", escapes: .ansi, width: 4, why: "SGR bold and reset take no cells"),
        Case(text: "\u{1B}[1mbold\u{1B}[0m", width: 10, why: "without escapes: ansi, [1m and [0m are text (ESC itself is a control)"),
        Case(text: "\u{1B}[38;2;255;0;0mred\u{1B}[0m", escapes: .ansi, width: 3, why: "SGR truecolour, parameters separated by ;"),
        Case(text: "\u{1B}[38:2::255:0:0mred\u{1B}[m", escapes: .ansi, width: 3, why: "SGR with : sub-parameters and an empty final SGR"),
        Case(text: "\u{1B}[1;31;4mX\u{1B}[0m", escapes: .ansi, width: 1, why: "several SGR parameters"),
        Case(text: "\u{1B}[2J\u{1B}[Hhome\u{1B}[10;20H", escapes: .ansi, width: 4, why: "erase and cursor position"),
        Case(text: "\u{1B}[?25lab\u{1B}[?25h", escapes: .ansi, width: 2, why: "DEC private mode (? parameter)"),
        Case(text: "\u{1B}[2 qab", escapes: .ansi, width: 2, why: "DECSCUSR: an intermediate (space) before the final"),
        Case(text: "\u{1B}]8;;https://example.com/a/b\u{1B}\\link\u{1B}]8;;\u{1B}\\", escapes: .ansi, width: 4, why: "OSC 8 hyperlink terminated by ST"),
        Case(text: "\u{1B}]8;;https://example.com\u{07}link\u{1B}]8;;\u{07}", escapes: .ansi, width: 4, why: "OSC 8 hyperlink terminated by BEL"),
        Case(text: "\u{1B}]8;id=7;https://例え.jp/ü\u{1B}\\ab\u{1B}]8;;\u{1B}\\", escapes: .ansi, width: 2, why: "OSC 8 with parameters and a non-ASCII URI"),
        Case(text: "\u{1B}]0;window title\u{07}ab", escapes: .ansi, width: 2, why: "OSC 0 title"),
        Case(text: "\u{1B}7ab\u{1B}8", escapes: .ansi, width: 2, why: "ESC 7 / ESC 8 (save, restore cursor)"),
        Case(text: "\u{1B}(Bab\u{1B})0", escapes: .ansi, width: 2, why: "charset designation: intermediate then final"),
        Case(text: "\u{1B}Mab", escapes: .ansi, width: 2, why: "ESC M (reverse index): the letter is the final"),
        Case(text: "\u{1B}P+q544e\u{1B}\\ab", escapes: .ansi, width: 2, why: "DCS (XTGETTCAP) to ST"),
        Case(text: "\u{1B}_Gf=100;AAAA\u{1B}\\ab", escapes: .ansi, width: 2, why: "APC (kitty graphics) to ST"),
        Case(text: "\u{1B}^private\u{1B}\\ab\u{1B}Xsos\u{1B}\\", escapes: .ansi, width: 2, why: "PM and SOS strings to ST"),
        Case(text: "\u{1B}[1m日本\u{1B}[0m", escapes: .ansi, width: 4, why: "wide characters between sequences stay 2"),
        Case(text: "ab\u{1B}", escapes: .ansi, width: 2, why: "a stray ESC at the end takes nothing"),
        Case(text: "ab\u{1B}[12", escapes: .ansi, width: 2, why: "an unterminated CSI at the end takes nothing"),
        Case(text: "ab\u{1B}]8;;https://x link text", escapes: .ansi, width: 2, why: "an unterminated OSC swallows the rest (the terminal waits for BEL or ST)"),
        Case(text: "\u{1B}[12\u{18}ab", escapes: .ansi, width: 2, why: "CAN cancels a CSI; what follows is text"),
        Case(text: "\u{1B}]8;;x\u{1A}ab", escapes: .ansi, width: 2, why: "SUB cancels an OSC"),
        Case(text: "\u{1B}[1\u{1B}[2mab", escapes: .ansi, width: 2, why: "ESC inside a CSI starts a new sequence"),
        Case(text: "\u{1B}]8;;x\u{1B}[1mab", escapes: .ansi, width: 2, why: "ESC inside an OSC ends it and starts a new sequence"),
        Case(text: "\u{1B}[1émab", escapes: .ansi, width: 2, why: "a non-ASCII character inside a CSI is ignored (vte crate)"),
        Case(text: "\u{9B}31mab", escapes: .ansi, width: 5, why: "C1 CSI (U+009B) is not an introducer in UTF-8: a control, and the rest is text"),
        Case(text: "\u{1B}\u{1B}[0mab", escapes: .ansi, width: 2, why: "ESC ESC: the second starts again"),
        Case(text: "a\tb\u{1B}[0m", escapes: .ansi, width: 9, why: "a tab still runs to column 8"),
    ]

    @Test(arguments: escapeCases)
    func escapeSequencesTakeNoCells(_ c: Case) throws {
        #expect(try Self.cells(c).width == c.width)
    }

    @Test func aLineFeedInsideACSIIsExecuted() throws {
        // VT500 parser: C0 controls inside a CSI are executed and the sequence goes on.
        let r = try Self.cells(Case(text: "\u{1B}[1\nmab", escapes: .ansi, width: 2, why: ""))
        #expect(r.lineCount == 2)
        #expect(r.width == 2)
    }

    @Test func linesCountTheRequestsCodePointsAndShowTheDrawnText() throws {
        var request = MeasureRequest(text: "\u{1B}[1mab cd\u{1B}[0m ef", maxWidth: 5, unit: .cells, includeLines: true)
        request.escapes = .ansi
        let r = try TestEngine.engine().measure(request)
        #expect(r.lines.map(\.text) == ["ab cd ", "ef"])
        #expect(r.width == 5)
        // "\e[1mab cd\e[0m " is 14 code points (a sequence between two lines would start the
        // later one; here the reset comes before the space), "ef" 2.
        #expect(r.lines.map(\.start) == [0, 14])
        #expect(r.lines.map(\.length) == [14, 2])
    }

    static let ambiguousCases: [Case] = [
        Case(text: "±", width: 1, why: "± narrow"),
        Case(text: "±", ambiguous: .wide, width: 2, why: "± wide"),
        Case(text: "…", ambiguous: .wide, width: 2, why: "… (U+2026) wide"),
        Case(text: "αβγ Ω", ambiguous: .wide, width: 9, why: "Greek letters are A: 2 each, the space 1"),
        Case(text: "αβγ Ω", width: 5, why: "Greek narrow"),
        Case(text: "─│┼", ambiguous: .wide, width: 6, why: "box drawing is A"),
        Case(text: "café", ambiguous: .wide, width: 5, why: "é (U+00E9) is A; c, a, f are Na"),
        Case(text: "a\u{301}", ambiguous: .wide, width: 1, why: "a combining mark (A) still joins its base"),
        Case(text: "日本 ok", ambiguous: .wide, width: 7, why: "W and Na do not change"),
        Case(text: "±…", terminal: .wcwidth, ambiguous: .wide, width: 4, why: "the wcwidth profile too"),
        Case(text: "a\u{AD}b", terminal: .wcwidth, ambiguous: .wide, width: 4, why: "SOFT HYPHEN is A: 2 in VTE with cjk-ambiguous-width 2"),
    ]

    @Test(arguments: ambiguousCases)
    func ambiguousCharactersAreTwoWhenWide(_ c: Case) throws {
        #expect(try Self.cells(c).width == c.width)
    }

    /// (text, grapheme, wcwidth, why)
    static let profileCases: [(String, Double, Double, String)] = [
        ("👩‍💻", 2, 4, "ZWJ sequence: one cluster, or two wide pictographs and a zero-width ZWJ"),
        ("👨‍👩‍👧‍👦", 2, 8, "family: four wide pictographs"),
        ("🏳️‍🌈", 2, 3, "rainbow flag: U+1F3F3 is N (1), VS16 0, ZWJ 0, 🌈 2"),
        ("🇩🇪", 2, 2, "a flag: two regional indicators of 1 each"),
        ("🇯🇵🇺🇸", 4, 4, "two flags"),
        ("🇩", 1, 1, "a lone regional indicator"),
        ("🏴󠁧󠁢󠁳󠁣󠁴󠁿", 2, 2, "tag sequence: 🏴 is W, the tags are Cf"),
        ("❤️", 2, 1, "VS16 widens a text-default character; wcwidth ignores it"),
        ("☺️ ✌️", 5, 3, "VS16 twice"),
        ("😀︎", 1, 2, "VS15 narrows an emoji-default character; wcwidth ignores it"),
        ("👍🏽", 2, 4, "skin tone: the modifier is W on its own"),
        ("1️⃣", 2, 1, "keycap: digit 1, VS16 and U+20E3 (Me) 0"),
        ("ᄒ\u{1161}\u{11AB}", 2, 2, "conjoining jamo L V T: medial and final are 0 in both"),
        ("e\u{301}", 1, 1, "combining acute"),
        ("a\u{AD}b", 2, 3, "soft hyphen: default ignorable (0) or Kuhn's 1"),
        ("กำ", 1, 2, "Thai SARA AM (Lo) stays in the cluster, or counts 1"),
        ("कि", 1, 2, "Devanagari vowel sign I (Mc)"),
        ("ｶﾞ", 1, 2, "halfwidth voiced sound mark (Lm, Grapheme_Extend)"),
        ("日本語 ok", 9, 9, "CJK and ASCII agree"),
    ]

    @Test(arguments: profileCases.indices)
    func profilesCountClustersOrCodePoints(_ index: Int) throws {
        let (text, grapheme, wcwidth, why) = Self.profileCases[index]
        #expect(try Self.cells(Case(text: text, width: grapheme, why: why)).width == grapheme, "\(why)")
        #expect(try Self.cells(Case(text: text, terminal: .wcwidth, width: wcwidth, why: why)).width == wcwidth, "\(why)")
    }

    @Test func everyOptionIsPartOfTheResultCacheKey() throws {
        let engine = try TestEngine.fresh()
        var request = MeasureRequest(text: "\u{1B}[1m±👩‍💻\u{1B}[0m", unit: .cells)
        #expect(try engine.measure(request).width == 9)  // "[1m" 3, ± 1, 👩‍💻 2, "[0m" 3 (ESC is a control)
        request.escapes = .ansi
        #expect(try engine.measure(request).width == 3)
        request.ambiguous = .wide
        #expect(try engine.measure(request).width == 4)
        request.terminal = .wcwidth
        #expect(try engine.measure(request).width == 6)
        request.escapes = .none
        #expect(try engine.measure(request).width == 12)
    }

    @Test func detectsTheProfileFromTheClientsEnvironment() {
        let cases: [([String: String], TerminalProfile?)] = [
            (["TERM": "xterm-kitty"], .grapheme),
            (["TERM": "foot"], .grapheme),
            (["TERM": "foot-extra"], .grapheme),
            (["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"], .grapheme),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .grapheme),
            (["TERM": "alacritty"], .wcwidth),
            (["TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"], .wcwidth),
            // tmux 3.4 and later join emoji sequences into one cell (screen-write.c).
            (["TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4"], .grapheme),
            (["TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "next-3.7"], .grapheme),
            (["TERM": "tmux-256color", "TERM_PROGRAM": "tmux"], .wcwidth),
            (["TERM": "screen-256color"], .wcwidth),
            // tmux inside kitty: tmux lays out by its own widths.
            (["TERM": "xterm-kitty", "TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.3a"], .wcwidth),
            // VTE, Konsole and xterm all say xterm-256color: nothing to go on.
            (["TERM": "xterm-256color"], nil),
            ([:], nil),
        ]
        for (environment, expected) in cases {
            #expect(TerminalProfile.detect(environment: environment) == expected, "\(environment)")
        }
    }

    @Test func wordsAreExact() {
        #expect(throws: FitTextError.self) { try EscapeMode(parsing: "ANSI") }
        #expect(throws: FitTextError.self) { try AmbiguousWidth(parsing: "Wide") }
        #expect(throws: FitTextError.self) { try TerminalProfile(parsing: "wcwidth ") }
        #expect((try? TerminalProfile(parsing: "wcwidth")) == .wcwidth)
    }

    @Test func theTablesAreICUsUnicodeVersion() {
        let parts = CellWidth.unicodeVersion.split(separator: ".")
        #expect(parts.count == 2)
        #expect((Int(parts[0]) ?? 0) >= 15)
    }

    // MARK: bad input stays linear

    /// CPU seconds of this thread: wall time is no measure on this shared machine, where the
    /// whole suite runs in parallel with other builds (a wall-clock bound here once took 48 s
    /// to pass).
    private static func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    @Test func aMebibyteOfOpenCSIsIsOnePass() throws {
        // One CSI that never ends: ESC [ and a mebibyte of digits.
        let open = "\u{1B}[" + String(repeating: "1", count: TextLimits.maxTextBytes - 2)
        // A mebibyte of ESC [ 1, each sequence restarting the last.
        let restarts = String(repeating: "\u{1B}[1", count: TextLimits.maxTextBytes / 3)
        let engine = try TestEngine.engine()
        for text in [open, restarts] {
            var request = MeasureRequest(text: text, unit: .cells)
            request.escapes = .ansi
            let start = Self.threadCPUSeconds()
            let width = try engine.measure(request).width
            let spent = Self.threadCPUSeconds() - start
            #expect(width == 0)
            // Linear: well under a second in a debug build; quadratic would not finish.
            #expect(spent < 5, "\(spent) s of CPU")
        }
        let stripped = AnsiEscapes.strip(Array(restarts.utf16))
        #expect(stripped.text.isEmpty && stripped.origin.isEmpty)
    }
}
