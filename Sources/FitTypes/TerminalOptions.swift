/// How a request in cells treats terminal escape sequences (docs/users-terminal-app.md).
public enum EscapeMode: String, Hashable, Sendable, Codable, CaseIterable, OptionWord {
    /// Every character is text (ESC itself is a control and takes no cell).
    case none
    /// ECMA-48 sequences (ESC …, CSI, OSC, DCS, SOS, PM, APC) take no cells, as a terminal
    /// executes them instead of drawing them (``AnsiEscapes``).
    case ansi

    public static let optionName = "escapes"
    public static let wordKind = "an escapes mode"
}

/// How many cells a character of East Asian Width "A" (ambiguous, UAX #11: ± … Greek,
/// Cyrillic, box drawing) takes: one, as in a non-CJK terminal, or two, as VTE's
/// `cjk-ambiguous-width 2`, xterm's `-cjk_width` or WezTerm's
/// `treat_east_asian_ambiguous_width_as_wide` draw it.
public enum AmbiguousWidth: String, Hashable, Sendable, Codable, CaseIterable, OptionWord {
    case narrow, wide

    public static let optionName = "ambiguous"
    public static let wordKind = "an ambiguous width"
}

/// Which terminals' rule gives a cluster its width (Tests/cells/README.md compares both with
/// the terminals' sources).
public enum TerminalProfile: String, Hashable, Sendable, Codable, CaseIterable, OptionWord {
    /// One width per grapheme cluster (UAX #29): kitty, WezTerm, foot, Ghostty (mode 2027).
    /// An emoji sequence (ZWJ, flag, skin tone, keycap, VS16) is 2.
    case grapheme
    /// The sum of every code point's wcwidth (Markus Kuhn's rules): VTE, xterm, Alacritty,
    /// tmux before 3.4, screen. 👩‍💻 is 4, 👍🏽 is 4, ❤️ is 1.
    case wcwidth

    public static let optionName = "terminal"
    public static let wordKind = "a terminal profile"

    /// The profile of the terminal a program runs in, from its environment, where a known
    /// terminal says which it is; nil when nothing does (the caller then leaves the option
    /// out and the daemon uses its default, ``grapheme``).
    ///
    /// TERM_PROGRAM first: tmux sets it (and TERM_PROGRAM_VERSION) inside its panes, and tmux
    /// lays out by its own widths whatever the outer terminal. tmux before 3.4 adds up
    /// wcwidth(3); from 3.4 it joins ZWJ sequences, skin tones and flags into one cell and
    /// widens VS16 (screen-write.c screen_write_combine, utf8-combined.c), which is the
    /// grapheme profile's answer for emoji. Then TERM: kitty (xterm-kitty), foot, Ghostty
    /// (xterm-ghostty) and WezTerm cluster graphemes; Alacritty adds up unicode-width's
    /// per-character widths; screen adds up wcwidth. VTE, Konsole and xterm all say
    /// xterm-256color, so TERM alone names none of them.
    public static func detect(environment: [String: String]) -> TerminalProfile? {
        environmentRule(environment)?.profile
    }

    /// The environment variables ``detect(environment:)`` reads, in the order it reads them.
    public static let environmentVariables = ["TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TERM"]

    /// ``detect(environment:)``'s answer with the rule that gave it, in words
    /// ("TERM=xterm-kitty"): what `fitctl terminal` and the clients report as the reason.
    public static func environmentRule(_ environment: [String: String]) -> (profile: TerminalProfile, reason: String)? {
        let program = environment["TERM_PROGRAM"] ?? ""
        switch program.lowercased() {
        case "tmux":
            let version = environment["TERM_PROGRAM_VERSION"] ?? ""
            if tmuxJoinsClusters(version: version) {
                return (.grapheme, "TERM_PROGRAM=tmux \(version): tmux ≥ 3.4 joins emoji clusters")
            }
            return (.wcwidth, "TERM_PROGRAM=tmux \(version.isEmpty ? "(no TERM_PROGRAM_VERSION)" : version): tmux before 3.4 adds up wcwidths")
        case "wezterm", "ghostty": return (.grapheme, "TERM_PROGRAM=\(program)")
        default: break
        }
        guard let given = environment["TERM"] else { return nil }
        let term = given.lowercased()
        let said = "TERM=\(given)"
        if term == "xterm-kitty" || term == "xterm-ghostty" || term == "wezterm" { return (.grapheme, said) }
        if term == "foot" || term.hasPrefix("foot-") { return (.grapheme, said) }
        if term == "alacritty" || term.hasPrefix("alacritty-") { return (.wcwidth, said) }
        if term.hasPrefix("screen") { return (.wcwidth, said) }
        // tmux's TERM without its TERM_PROGRAM (e.g. over ssh): its version is unknown.
        if term.hasPrefix("tmux") { return (.wcwidth, "\(said) without TERM_PROGRAM: tmux of unknown version") }
        return nil
    }

    /// Whether a tmux version ("3.4", "3.5a", "next-3.6") is 3.4 or later.
    static func tmuxJoinsClusters(version: String) -> Bool {
        let digits = version.drop { !$0.isNumber }
        let parts = digits.split(separator: ".", maxSplits: 1)
        guard let major = parts.first.flatMap({ Int($0) }) else { return false }
        let minor = parts.count > 1 ? Int(parts[1].prefix { $0.isNumber }) ?? 0 : 0
        return major > 3 || (major == 3 && minor >= 4)
    }
}
