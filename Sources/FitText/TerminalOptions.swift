/// How a request in cells treats terminal escape sequences (issue 12, item 4).
public enum EscapeMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Every character is text (ESC itself is a control and takes no cell).
    case none
    /// ECMA-48 sequences (ESC …, CSI, OSC, DCS, SOS, PM, APC) take no cells, as a terminal
    /// executes them instead of drawing them (``AnsiEscapes``).
    case ansi

    /// The exact word, as for ``WrapMode/init(parsing:)``.
    public init(parsing text: String) throws(FitTextError) {
        guard let mode = EscapeMode(rawValue: text) else {
            throw .invalidArgument(name: "escapes", reason: "\"\(text)\" is not an escapes mode; use none or ansi")
        }
        self = mode
    }
}

/// How many cells a character of East Asian Width "A" (ambiguous, UAX #11: ± … Greek,
/// Cyrillic, box drawing) takes: one, as in a non-CJK terminal, or two, as VTE's
/// `cjk-ambiguous-width 2`, xterm's `-cjk_width` or WezTerm's
/// `treat_east_asian_ambiguous_width_as_wide` draw it.
public enum AmbiguousWidth: String, Hashable, Sendable, Codable, CaseIterable {
    case narrow, wide

    public init(parsing text: String) throws(FitTextError) {
        guard let width = AmbiguousWidth(rawValue: text) else {
            throw .invalidArgument(name: "ambiguous", reason: "\"\(text)\" is not an ambiguous width; use narrow or wide")
        }
        self = width
    }
}

/// Which terminals' rule gives a cluster its width (Tests/cells/README.md compares both with
/// the terminals' sources).
public enum TerminalProfile: String, Hashable, Sendable, Codable, CaseIterable {
    /// One width per grapheme cluster (UAX #29): kitty, WezTerm, foot, Ghostty (mode 2027).
    /// An emoji sequence (ZWJ, flag, skin tone, keycap, VS16) is 2.
    case grapheme
    /// The sum of every code point's wcwidth (Markus Kuhn's rules): VTE, Konsole, xterm,
    /// Alacritty, tmux. 👩‍💻 is 4, 👍🏽 is 4, ❤️ is 1.
    case wcwidth

    public init(parsing text: String) throws(FitTextError) {
        guard let profile = TerminalProfile(rawValue: text) else {
            throw .invalidArgument(name: "terminal", reason: "\"\(text)\" is not a terminal profile; use grapheme or wcwidth")
        }
        self = profile
    }

    /// The profile of the terminal a program runs in, from its environment, where a known
    /// terminal says which it is; nil when nothing does (the caller then leaves the option
    /// out and the daemon uses its default, ``grapheme``).
    ///
    /// TERM_PROGRAM first (tmux sets it inside its panes, and tmux lays out by its own
    /// widths whatever the outer terminal), then TERM.
    public static func detect(environment: [String: String]) -> TerminalProfile? {
        switch environment["TERM_PROGRAM"]?.lowercased() {
        case "tmux": return .wcwidth
        case "wezterm", "ghostty", "kitty": return .grapheme
        default: break
        }
        guard let term = environment["TERM"]?.lowercased() else { return nil }
        if term == "xterm-kitty" || term == "xterm-ghostty" || term == "wezterm" { return .grapheme }
        if term == "foot" || term.hasPrefix("foot-") { return .grapheme }
        if term == "alacritty" || term.hasPrefix("alacritty-") || term == "konsole" || term.hasPrefix("konsole-") { return .wcwidth }
        if term.hasPrefix("tmux") || term.hasPrefix("screen") { return .wcwidth }
        return nil
    }
}
