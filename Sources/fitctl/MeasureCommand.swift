import ArgumentParser
import FitClient
import FitText
import Foundation

struct MeasureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure text: logical width, height, baseline and line count, in px (or cells).",
        discussion: """
            Examples:
              fitctl measure "Hello, world" --font "Noto Sans 12"
              fitctl measure "Hello, world" --font "DejaVu Sans 10" --json
              fitctl measure "The quick brown fox" --max-width 100 --wrap word-char --lines
              fitctl measure "Invoice #1234567" --max-width 80 --ellipsize middle
              fitctl measure "1234" --features "tnum,-liga" --letter-spacing 0.5
              fitctl measure --cells "表示 👍🏽"
              fitctl measure --cells --escapes ansi $'\\e[1mbold\\e[0m'
              fitctl measure --cells --terminal wcwidth --ambiguous wide "±1 …"
              fitctl measure --batch < requests.jsonl
            Batch mode reads one JSON request a line ({"text", "font", "max_width", "wrap",
            "max_lines", "ellipsize", "features", "letter_spacing", "unit", "lines", "language",
            "metrics", "markup", "escapes", "ambiguous", "terminal", "id"})
            and writes one JSON result a line, in the same order; a bad line gets an "error".
            With --batch, --language is the language of the lines that name none, and so on
            for --escapes, --ambiguous and --terminal.
            Without --terminal, the profile is the terminal's this command runs in where
            TERM_PROGRAM or TERM names a known one (kitty, WezTerm, foot, Ghostty, tmux ≥ 3.4:
            grapheme; Alacritty, tmux < 3.4, screen: wcwidth), else the daemon's default
            (grapheme).
            """)

    @OptionGroup var common: CommonOptions

    @Argument(help: "The text to measure (not with --batch).")
    var text: String?

    @Option(help: "A Pango font description: \"Family [Style…] [Weight] Size\" (pt, or px with a px suffix).")
    var font = ""

    @Option(name: .customLong("max-width"), help: "Wrap at this width (px, or cells with --cells).")
    var maxWidth: Double?

    @Option(help: "word, char or word-char.")
    var wrap = "word"

    @Option(name: .customLong("max-lines"), help: "At most this many lines.")
    var maxLines: Int?

    @Option(help: "none, start, middle or end.")
    var ellipsize = "none"

    @Option(help: "OpenType features, comma-separated: \"tnum,-liga,ss01=2\".")
    var features = ""

    @Option(name: .customLong("letter-spacing"), help: "Extra space between characters, px.")
    var letterSpacing = 0.0

    @Option(help: "The context language (BCP 47: \"bn-IN\", \"zh-CN\", \"c\"); default: the locale's, as Pango's.")
    var language: String?
    @Option(help: "gtk4 (default: unrounded) or gtk3 (whole-pixel ascent, descent and glyph advances, as GTK 3 draws).")
    var metrics = "gtk4"

    @Flag(help: "Measure in terminal cells (columns) instead of pixels.")
    var cells = false

    @Option(help: "With --cells: none (default) or ansi (escape sequences — SGR, CSI, OSC 8 links… — take no cells).")
    var escapes: String?

    @Option(help: "With --cells: narrow (default) or wide (East Asian ambiguous characters ± … α take two cells).")
    var ambiguous: String?

    @Option(help: "With --cells: grapheme (kitty, WezTerm, foot, Ghostty) or wcwidth (VTE, Konsole, xterm, Alacritty, tmux); default: from TERM_PROGRAM/TERM.")
    var terminal: String?

    @Flag(help: "Show every line: width, ascent, descent, baseline, range and text.")
    var lines = false

    @Flag(help: "The text is Pango markup (<b>, <span size=\"larger\">, &amp;…), measured as GTK draws a label's markup.")
    var markup = false

    @Flag(help: "Read JSON requests from standard input, one a line; write one JSON result a line.")
    var batch = false

    func validate() throws {
        if batch && text != nil { throw ValidationError("give either a text or --batch, not both") }
        if !batch && text == nil { throw ValidationError("give the text to measure, or --batch") }
        _ = try parsedWrap()
        _ = try parsedEllipsize()
        _ = try parsedLanguage()
        _ = try parsedMetrics()
        _ = try parsedCellOptions()
    }

    /// --escapes, --ambiguous and --terminal (nil where not given; the terminal from the
    /// environment where a known terminal says so).
    func parsedCellOptions() throws -> (escapes: EscapeMode?, ambiguous: AmbiguousWidth?, terminal: TerminalProfile?) {
        do {
            let terminal = try self.terminal.map { text throws(FitTextError) in try TerminalProfile(parsing: text) }
            return (
                try escapes.map { text throws(FitTextError) in try EscapeMode(parsing: text) },
                try ambiguous.map { text throws(FitTextError) in try AmbiguousWidth(parsing: text) },
                terminal ?? TerminalProfile.detect(environment: ProcessInfo.processInfo.environment)
            )
        } catch {
            throw ValidationError(error.description)
        }
    }

    private func parsedLanguage() throws -> String? {
        guard let language else { return nil }
        do { return try MeasureRequest.canonicalLanguage(language) } catch { throw ValidationError(error.description) }
    }

    private func parsedMetrics() throws -> MetricsMode {
        do { return try MetricsMode(parsing: metrics) } catch { throw ValidationError(error.description) }
    }

    private func parsedWrap() throws -> WrapMode {
        do { return try WrapMode(parsing: wrap) } catch { throw ValidationError(error.description) }
    }

    private func parsedEllipsize() throws -> EllipsizeMode {
        do { return try EllipsizeMode(parsing: ellipsize) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let client = try await ClientFactory.make(common)
        if batch {
            let cellOptions = try parsedCellOptions()
            await BatchMeasurer(
                client: client, defaultLanguage: try parsedLanguage(), defaultEscapes: cellOptions.escapes,
                defaultAmbiguous: cellOptions.ambiguous, defaultTerminal: cellOptions.terminal
            ).run()
            return
        }
        var request = MeasureRequest(
            text: text ?? "", font: font, maxWidth: maxWidth, wrap: try parsedWrap(), maxLines: maxLines,
            ellipsize: try parsedEllipsize(), features: MeasureRequest.parseFeatureList(features),
            letterSpacing: letterSpacing, unit: cells ? .cells : .px, includeLines: lines)
        request.language = try parsedLanguage()
        request.metrics = try parsedMetrics()
        request.markup = markup
        let cellOptions = try parsedCellOptions()
        if let escapes = cellOptions.escapes { request.escapes = escapes }
        if let ambiguous = cellOptions.ambiguous { request.ambiguous = ambiguous }
        if let terminal = cellOptions.terminal { request.terminal = terminal }
        let metrics: TextMetrics
        do {
            metrics = try await client.measure(request).metrics
        } catch {
            throw CommandFailure(error.description)
        }
        if common.json {
            print(JSONOutput.string(MetricsJSON.object(metrics, includeLines: lines)))
        } else {
            print(MetricsText.render(metrics, showLines: lines))
        }
    }
}
