import FitTypes
import Glibc

/// Which width profile the terminal a program runs in draws by, and why: what a measurement
/// in cells should send as its `terminal` option (protocol/README.md). The same rules, in the
/// same order and with the same reasons, as the Python client's `fitd.terminal.detect()` and
/// `fitctl measure --cells`:
///
/// 1. The environment (`TerminalProfile.environmentRule(_:)`, FitTypes): TERM_PROGRAM (tmux by its
///    version, WezTerm, Ghostty), then TERM (kitty, Ghostty, WezTerm, foot: grapheme;
///    Alacritty, screen, tmux without its version: wcwidth).
/// 2. Where nothing there names a known terminal (VTE, Konsole and xterm all say
///    xterm-256color) and the program is in the foreground of a controlling terminal: a query
///    (``TerminalQuery``). Where the cursor moved after each probe cluster is what the terminal
///    does, so it is believed over its DECRQM 2027 answer, which is what it says.
/// 3. Otherwise no profile: leave the option out, and the daemon uses its default (grapheme).
///
/// Decide once per program and keep the answer: a query takes up to ``defaultTimeout`` and
/// writes to the terminal.
public struct TerminalDetection: Hashable, Sendable {
    /// What decided.
    public enum Source: String, Hashable, Sendable, CaseIterable {
        case environment, cursor, decrqm, none
    }

    /// nil when nothing said: the daemon's default (grapheme) applies.
    public var profile: TerminalProfile?
    public var source: Source
    /// The rule that decided, in words.
    public var reason: String
    /// The environment variables the rules read, as they were (absent ones left out).
    public var environment: [String: String]
    /// Whether the terminal was asked.
    public var asked: Bool
    /// The terminal's answers, where it was asked and answered.
    public var answers: TerminalQuery.Answers

    public init(
        profile: TerminalProfile?, source: Source, reason: String, environment: [String: String] = [:], asked: Bool = false,
        answers: TerminalQuery.Answers = .init()
    ) {
        self.profile = profile
        self.source = source
        self.reason = reason
        self.environment = environment
        self.asked = asked
        self.answers = answers
    }

    /// How long a query waits for the terminal's answers: a local terminal answers in well
    /// under a millisecond, one over ssh in a round trip.
    public static let defaultTimeout: Duration = .milliseconds(100)

    /// The profile of this program's terminal: its environment's, else (with `ask`) its
    /// controlling terminal's answers, else none.
    public static func detect(
        environment: [String: String] = TerminalDetection.processEnvironment(), ask: Bool = true,
        timeout: Duration = defaultTimeout
    ) -> TerminalDetection {
        var considered: [String: String] = [:]
        for name in TerminalProfile.environmentVariables { considered[name] = environment[name] }
        if let (profile, reason) = TerminalProfile.environmentRule(environment) {
            return TerminalDetection(profile: profile, source: .environment, reason: reason, environment: considered)
        }
        let unknown = "the environment names no known terminal"
        guard ask else { return TerminalDetection(profile: nil, source: .none, reason: "\(unknown); not asked", environment: considered) }
        let answers: TerminalQuery.Answers
        do {
            answers = try TerminalQuery.askControllingTerminal(timeout: timeout)
        } catch {
            return TerminalDetection(profile: nil, source: .none, reason: "\(unknown); \(error.reason)", environment: considered)
        }
        if var found = fromAnswers(answers) {
            found.environment = considered
            return found
        }
        return TerminalDetection(
            profile: nil, source: .none,
            reason: "\(unknown) and the terminal did not answer within \(TerminalQuery.milliseconds(timeout)) ms",
            environment: considered, asked: true, answers: answers)
    }

    /// What the terminal's answers say: the profile whose widths the cursor moved by for more
    /// of the probe clusters than the other's, else its DECRQM 2027 answer, else nil.
    public static func fromAnswers(_ answers: TerminalQuery.Answers) -> TerminalDetection? {
        if let cells = answers.cursorCells, cells.count == TerminalQuery.probes.count {
            let probes = TerminalQuery.probes
            let grapheme = zip(probes, cells).filter { $0.grapheme == $1 }.count
            let wcwidth = zip(probes, cells).filter { $0.wcwidth == $1 }.count
            if grapheme != wcwidth {
                let (best, votes) = grapheme > wcwidth ? (TerminalProfile.grapheme, grapheme) : (.wcwidth, wcwidth)
                let moved = zip(probes, cells).map { "\($0.cluster) \($1)" }.joined(separator: ", ")
                // tmux 3.3a joins the ZWJ sequence but adds up the others: neither is exact.
                let exact = votes == cells.count ? "" : "; no profile is exact for this terminal"
                return TerminalDetection(
                    profile: best, source: .cursor,
                    reason: "the cursor moved \(moved) cells: \(best.rawValue)'s widths for \(votes) of \(cells.count)\(exact)",
                    asked: true, answers: answers)
            }
        }
        if let mode = answers.decrqm, let profile = TerminalQuery.profile(decrqm: mode) {
            return TerminalDetection(
                profile: profile, source: .decrqm, reason: "DECRQM mode 2027 answered \(mode)", asked: true, answers: answers)
        }
        return nil
    }

    /// The variables the rules read, from this process's environment (getenv: FitDBusClient
    /// links no Foundation).
    public static func processEnvironment() -> [String: String] {
        var found: [String: String] = [:]
        for name in TerminalProfile.environmentVariables {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }
}
