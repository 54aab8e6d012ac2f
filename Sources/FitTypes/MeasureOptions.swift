/// The one table of Measure's options. The D-Bus codec, fitctl's batch reader and its flags
/// take values through it, the client sends what it gives back, and tests check it against
/// protocol/README.md's table and against MeasureRequest's equality and hash, so an option
/// is added in one place (docs/architecture.md, "How to add an option").
public enum MeasureOptions {
    public static let maxWidth = MeasureOption(
        name: "max_width", kind: .number, signature: "d", help: "Wrap at this width (px, or cells with --cells), 0 or more.",
        apply: { request, value throws(FitTextError) in request.maxWidth = try value.number(for: "max_width") },
        value: { $0.maxWidth.map(OptionValue.number) }, sample: .number(80))
    public static let wrap = MeasureOption(
        name: "wrap", kind: .string, signature: "s", words: WrapMode.allCases.map(\.rawValue), help: "word, char or word-char.",
        apply: { request, value throws(FitTextError) in request.wrap = try WrapMode(parsing: value.string(for: "wrap")) },
        value: { $0.wrap == .word ? nil : .string($0.wrap.rawValue) }, sample: .string("char"))
    public static let maxLines = MeasureOption(
        name: "max_lines", kind: .wholeNumber, signature: "u", help: "At most this many lines (1 or more).",
        apply: { request, value throws(FitTextError) in
            let lines = try value.wholeNumber(for: "max_lines")
            guard lines >= 1 else { throw MeasureRequest.maxLinesError(lines) }
            request.maxLines = lines
        },
        value: { $0.maxLines.map { .number(Double($0)) } }, sample: .number(2))
    public static let ellipsize = MeasureOption(
        name: "ellipsize", kind: .string, signature: "s", words: EllipsizeMode.allCases.map(\.rawValue), help: "none, start, middle or end.",
        apply: { request, value throws(FitTextError) in request.ellipsize = try EllipsizeMode(parsing: value.string(for: "ellipsize")) },
        value: { $0.ellipsize == .none ? nil : .string($0.ellipsize.rawValue) }, sample: .string("end"))
    public static let features = MeasureOption(
        name: "features", kind: .stringList, signature: "as", help: "OpenType features, comma-separated: \"tnum,-liga,ss01=2\".",
        apply: { request, value throws(FitTextError) in
            request.features = try value.strings(for: "features").flatMap(MeasureRequest.parseFeatureList)
        },
        value: { $0.features.isEmpty ? nil : .strings($0.features) }, sample: .strings(["tnum"]))
    public static let letterSpacing = MeasureOption(
        name: "letter_spacing", kind: .number, signature: "d", help: "Extra space between characters, px (negative tightens).",
        apply: { request, value throws(FitTextError) in request.letterSpacing = try value.number(for: "letter_spacing") },
        value: { $0.letterSpacing == 0 ? nil : .number($0.letterSpacing) }, sample: .number(0.5))
    public static let unit = MeasureOption(
        name: "unit", kind: .string, signature: "s", words: MeasureUnit.allCases.map(\.rawValue), help: "px (logical pixels at 96 dpi) or cells (terminal columns).",
        apply: { request, value throws(FitTextError) in request.unit = try MeasureUnit(parsing: value.string(for: "unit")) },
        value: { $0.unit == .px ? nil : .string($0.unit.rawValue) }, sample: .string("cells"))
    public static let lines = MeasureOption(
        name: "lines", kind: .bool, signature: "b", help: "Show every line: width, ascent, descent, baseline, range and text.",
        apply: { request, value throws(FitTextError) in request.includeLines = try value.bool(for: "lines") },
        value: { $0.includeLines ? .bool(true) : nil }, sample: .bool(true))
    public static let textScale = MeasureOption(
        name: "text_scale", kind: .number, signature: "d", help: "Multiply font sizes by this instead of the user's text scale (0.25–4).",
        apply: { request, value throws(FitTextError) in request.textScale = try value.number(for: "text_scale") },
        value: { .number($0.textScale) }, sample: .number(2))
    public static let language = MeasureOption(
        name: "language", kind: .string, signature: "s",
        help: "The context language (BCP 47: \"bn-IN\", \"zh-CN\", \"c\"); default: the locale's, as Pango's.",
        apply: { request, value throws(FitTextError) in request.language = try MeasureRequest.canonicalLanguage(value.string(for: "language")) },
        value: { $0.language.map(OptionValue.string) }, sample: .string("de"))
    public static let metrics = MeasureOption(
        name: "metrics", kind: .string, signature: "s",
        help: "The toolkit whose labels to measure as: gtk4 (default: the GTK 4 installed here), gtk3, or a GTK 4 line (gtk-4.8, gtk-4.16).",
        apply: { request, value throws(FitTextError) in request.metrics = try ToolkitProfile(parsing: value.string(for: "metrics")) },
        value: { $0.metrics == .gtk4 ? nil : .string($0.metrics.optionWord) }, sample: .string("gtk3"))
    public static let markup = MeasureOption(
        name: "markup", kind: .bool, signature: "b",
        help: "The text is Pango markup (<b>, <span size=\"larger\">, &amp;…), measured as GTK draws a label's markup.",
        apply: { request, value throws(FitTextError) in request.markup = try value.bool(for: "markup") },
        value: { $0.markup ? .bool(true) : nil }, sample: .bool(true))
    public static let escapes = MeasureOption(
        name: "escapes", kind: .string, signature: "s", words: EscapeMode.allCases.map(\.rawValue),
        help: "With --cells: none (default) or ansi (escape sequences — SGR, CSI, OSC 8 links… — take no cells).",
        apply: { request, value throws(FitTextError) in request.escapes = try EscapeMode(parsing: value.string(for: "escapes")) },
        value: { $0.escapes == .none ? nil : .string($0.escapes.rawValue) }, sample: .string("ansi"))
    public static let ambiguous = MeasureOption(
        name: "ambiguous", kind: .string, signature: "s", words: AmbiguousWidth.allCases.map(\.rawValue),
        help: "With --cells: narrow (default) or wide (East Asian ambiguous characters ± … α take two cells).",
        apply: { request, value throws(FitTextError) in request.ambiguous = try AmbiguousWidth(parsing: value.string(for: "ambiguous")) },
        value: { $0.ambiguous == .narrow ? nil : .string($0.ambiguous.rawValue) }, sample: .string("wide"))
    public static let terminal = MeasureOption(
        name: "terminal", kind: .string, signature: "s", words: TerminalProfile.allCases.map(\.rawValue),
        help: "With --cells: grapheme (kitty, WezTerm, foot, Ghostty, tmux ≥ 3.4) or wcwidth (VTE, Konsole, xterm, Alacritty, screen, tmux < 3.4).",
        apply: { request, value throws(FitTextError) in request.terminal = try TerminalProfile(parsing: value.string(for: "terminal")) },
        value: { $0.terminal == .grapheme ? nil : .string($0.terminal.rawValue) }, sample: .string("wcwidth"))
    public static let uiFont = MeasureOption(
        name: "ui_font", kind: .string, signature: "s",
        help: "The UI font that no --font and the text styles resolve against (a Pango description), instead of the user's.",
        apply: { request, value throws(FitTextError) in request.uiFont = try MeasureRequest.uiFontOption(value.string(for: "ui_font")) },
        value: { $0.uiFont.map(OptionValue.string) }, sample: .string("Cantarell 11"))

    /// Every option, in the order of protocol/README.md's table.
    public static let all: [MeasureOption] = [
        maxWidth, wrap, maxLines, ellipsize, features, letterSpacing, unit, lines, textScale, language, metrics, markup,
        uiFont, escapes, ambiguous, terminal,
    ]

    public static let names: Set<String> = Set(all.map(\.name))
}

extension MeasureRequest {
    /// The one wording of a `max_lines` below 1, whoever checks it.
    static func maxLinesError(_ lines: Int) -> FitTextError {
        .invalidArgument(name: "max_lines", reason: "\(lines) must be at least 1; omit it for no limit")
    }

    /// The `ui_font` option of Measure and Layout alike: a Pango description of 1 to 1024
    /// bytes (whether it names a family is checked where it is resolved,
    /// TextStyleFont.uiFont(requested:user:)).
    public static func uiFontOption(_ font: String) throws(FitTextError) -> String {
        guard !font.isEmpty, font.utf8.count <= 1024 else {
            throw .invalidArgument(name: "ui_font", reason: "must be a Pango font description of 1 to 1024 bytes")
        }
        return font
    }
}

extension MeasureUnit: OptionWord {
    public static let optionName = "unit"
    public static let wordKind = "a unit"
}
