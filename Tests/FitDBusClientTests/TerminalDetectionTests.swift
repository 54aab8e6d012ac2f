import FitDBusClient
import FitTypes
import Foundation
import Glibc
import Testing

/// FitDBusClient's terminal detection: the answers read from a terminal's replies, the profile
/// they give, and the query itself against a scripted pseudo-terminal that answers (or not)
/// as a terminal would. The whole path in a real terminal is Tests/EndToEnd/fitctl_terminal.sh.
@Suite struct TerminalDetectionTests {
    /// A pseudo-terminal whose far end is scripted: it reads what the query writes, writes
    /// `reply` (or nothing) once it has read the DA1 request, and stops once it has read the
    /// query's last write (the second DECRC, after the erase).
    final class ScriptedTerminal: @unchecked Sendable {
        let master: Int32
        let slave: Int32
        // Written by the scripted side only, read after it has signalled `done`.
        private var received: [UInt8] = []
        private let done = DispatchSemaphore(value: 0)

        init(reply: [UInt8]?) throws {
            // posix_openpt, unlockpt and ptsname as glibc makes them (pts(4)): Swift's Glibc
            // module leaves them out (they need _XOPEN_SOURCE); grantpt is a no-op on devpts.
            // TIOCSPTLCK and TIOCGPTN are _IOW/_IOR macros Swift does not import; their values
            // from asm-generic/ioctls.h (x86-64, arm64 and most Linux architectures).
            let (TIOCSPTLCK, TIOCGPTN): (UInt, UInt) = (0x4004_5431, 0x8004_5430)
            master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard master >= 0, ioctl(master, TIOCSPTLCK, &unlock) == 0, ioctl(master, TIOCGPTN, &number) == 0 else {
                throw ScriptFailure(reason: "no pseudo-terminal: errno \(errno)")
            }
            slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard slave >= 0 else { throw ScriptFailure(reason: "cannot open /dev/pts/\(number): errno \(errno)") }
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                var answered = false
                while TerminalDetectionTests.count(received, "\u{1B}8") < 2 {
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    received += buffer[0..<count]
                    if !answered, let reply, TerminalDetectionTests.count(received, "\u{1B}[c") > 0 {
                        answered = true
                        _ = reply.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
                    }
                }
                done.signal()
            }.start()
        }

        /// What the query wrote, once it has all been read; both ends closed.
        func finish() -> [UInt8] {
            let finished = done.wait(timeout: .now() + 5) == .success
            close(slave)
            close(master)
            return finished ? received : []
        }
    }

    struct ScriptFailure: Error {
        var reason: String
    }

    static func count(_ bytes: [UInt8], _ text: String) -> Int {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return 0 }
        return (0...bytes.count - needle.count).filter { bytes[$0..<$0 + needle.count].elementsEqual(needle) }.count
    }

    /// Cursor reports for a terminal whose cursor moves `widths` columns over the probes.
    static func reports(_ widths: [Int], row: Int = 5, from column: Int = 1) -> String {
        var columns = [column]
        for width in widths { columns.append(columns.last! + width) }
        return columns.map { "\u{1B}[\(row);\($0)R" }.joined()
    }

    static let da1 = "\u{1B}[?62;22c"

    @Test func aTerminalThatClustersIsGraphemeByItsCursor() throws {
        let terminal = try ScriptedTerminal(reply: Array((Self.reports([2, 2, 2]) + "\u{1B}[?2027;1$y" + Self.da1).utf8))
        var before = termios()
        tcgetattr(terminal.slave, &before)
        let answers = try TerminalQuery.query(fd: terminal.slave, timeout: .seconds(5))
        var after = termios()
        tcgetattr(terminal.slave, &after)
        let written = terminal.finish()
        #expect(answers == TerminalQuery.Answers(cursorCells: [2, 2, 2], decrqm: 1))
        let found = try #require(TerminalDetection.fromAnswers(answers))
        #expect(found.profile == .grapheme && found.source == .cursor)
        #expect(found.reason.hasSuffix("grapheme's widths for 3 of 3"))
        // The terminal's modes are as they were (canonical, echoing), and the probe was erased
        // with as many blanks as it drew, between two cursor restores.
        #expect(after.c_lflag == before.c_lflag)
        #expect(after.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
        #expect(String(decoding: written, as: UTF8.self).hasSuffix("\u{1B}8      \u{1B}8"))
        #expect(Self.count(written, "\u{1B}[?2027$p") == 1)
    }

    @Test func theCursorIsBelievedOverWhatTheTerminalSays() throws {
        // tmux 3.3a: the ZWJ sequence joined, the others added up; a DECRQM saying "set".
        let terminal = try ScriptedTerminal(reply: Array((Self.reports([2, 4, 1]) + "\u{1B}[?2027;1$y" + Self.da1).utf8))
        let answers = try TerminalQuery.query(fd: terminal.slave, timeout: .seconds(5))
        _ = terminal.finish()
        let found = try #require(TerminalDetection.fromAnswers(answers))
        #expect(found.profile == .wcwidth && found.source == .cursor)
        #expect(found.reason.hasSuffix("wcwidth's widths for 2 of 3; no profile is exact for this terminal"))
    }

    @Test func withoutCursorReportsTheDECRQMAnswerDecides() throws {
        let terminal = try ScriptedTerminal(reply: Array(("\u{1B}[?2027;2$y" + Self.da1).utf8))
        let answers = try TerminalQuery.query(fd: terminal.slave, timeout: .seconds(5))
        _ = terminal.finish()
        #expect(answers == TerminalQuery.Answers(cursorCells: nil, decrqm: 2))
        let found = try #require(TerminalDetection.fromAnswers(answers))
        #expect(found.profile == .wcwidth && found.source == .decrqm && found.reason == "DECRQM mode 2027 answered 2")
    }

    @Test func aTerminalThatNeverAnswersCostsTheTimeoutAndGivesNothing() throws {
        let terminal = try ScriptedTerminal(reply: nil)
        let start = ContinuousClock.now
        let answers = try TerminalQuery.query(fd: terminal.slave, timeout: .milliseconds(200))
        let took = start.duration(to: .now)
        #expect(answers == TerminalQuery.Answers())
        #expect(TerminalDetection.fromAnswers(answers) == nil)
        #expect(took >= .milliseconds(190))
        // Nothing drawn is known: the erase clears to the end of the line.
        #expect(String(decoding: terminal.finish(), as: UTF8.self).hasSuffix("\u{1B}8\u{1B}[K\u{1B}8"))
    }

    @Test func aFloodIsReadNoFurtherThanTheBound() throws {
        // More than the bound, less than the pty's input buffer (4 KiB), so the scripted side's
        // write never waits for a reader.
        let terminal = try ScriptedTerminal(reply: Array(repeating: UInt8(ascii: "x"), count: 3000))
        let start = ContinuousClock.now
        let answers = try TerminalQuery.query(fd: terminal.slave, timeout: .seconds(5))
        let took = start.duration(to: .now)
        _ = terminal.finish()
        #expect(answers == TerminalQuery.Answers())
        // It stopped at the bound, not at the deadline.
        #expect(took < .seconds(4))
    }

    @Test func repliesAreReadAsControlSequences() {
        // A key pressed meanwhile and reports mixed in; a row change makes the cells unknown.
        let mixed = Array(("a" + Self.reports([2, 4, 1]) + "\u{1B}[?2027;4$y" + Self.da1).utf8)
        #expect(TerminalQuery.parse(mixed) == TerminalQuery.Answers(cursorCells: [2, 4, 1], decrqm: 4))
        let wrapped = Array(("\u{1B}[5;79R\u{1B}[6;2R\u{1B}[6;6R\u{1B}[6;7R" + Self.da1).utf8)
        #expect(TerminalQuery.parse(wrapped).cursorCells == nil)
        // Too few reports, an over-long parameter, another mode's answer: nothing.
        #expect(TerminalQuery.parse(Array("\u{1B}[1;1R\u{1B}[1;3R".utf8)) == TerminalQuery.Answers())
        #expect(TerminalQuery.parse(Array("\u{1B}[?2027;123456$y\u{1B}[?2026;1$y".utf8)) == TerminalQuery.Answers())
        #expect(TerminalQuery.profile(decrqm: 3) == .grapheme && TerminalQuery.profile(decrqm: 0) == .wcwidth)
        #expect(TerminalQuery.profile(decrqm: 9) == nil)
    }

    @Test func theEnvironmentDecidesFirstAndIsReportedAsConsidered() {
        let tmux = TerminalDetection.detect(
            environment: ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4", "TERM": "tmux-256color", "HOME": "/x"])
        #expect(tmux.profile == .grapheme && tmux.source == .environment && !tmux.asked)
        #expect(tmux.reason == "TERM_PROGRAM=tmux 3.4: tmux ≥ 3.4 joins emoji clusters")
        #expect(tmux.environment == ["TERM_PROGRAM": "tmux", "TERM_PROGRAM_VERSION": "3.4", "TERM": "tmux-256color"])
        let unknown = TerminalDetection.detect(environment: ["TERM": "xterm-256color"], ask: false)
        #expect(unknown.profile == nil && unknown.source == TerminalDetection.Source.none && !unknown.asked)
        #expect(unknown.reason == "the environment names no known terminal; not asked")
    }
}
