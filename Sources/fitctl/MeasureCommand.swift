import ArgumentParser
import FitClient
import FitDBusClient
import FitJSON
import FitRender
import FitText
import Foundation

struct MeasureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure text: logical width, height, baseline and line count, in px (or cells).",
        discussion: HelpText.discussion("""
            Examples:
              fitctl measure "Hello, world" --font "Noto Sans 12"
              fitctl measure "Hello, world" --font "DejaVu Sans 10" --json
              fitctl measure "The quick brown fox" --max-width 100 --wrap word-char --lines
              fitctl measure "Invoice #1234567" --max-width 80 --ellipsize middle
              fitctl measure "1234" --features "tnum,-liga" --letter-spacing 0.5
              fitctl measure --cells "表示 👍🏽"
              fitctl measure --cells --escapes ansi $'\\e[1mbold\\e[0m'
              fitctl measure --cells --terminal wcwidth --ambiguous wide "±1 …"
              fitctl measure --batch < protocol/examples/requests.jsonl
              fitctl measure "Hello, world 👋" --font "Noto Sans 24" --output hello.svg
              fitctl measure "שלום world" --max-width 80 --boxes --output lines.png

            --output draws the text as laid out, in the real glyphs of the fonts chosen (.svg or .png). The measurement printed is the daemon's; the picture is drawn by fitctl's own engine, same request, the daemon's text scale (docs/pictures.md).

            Batch mode reads one JSON request a line ({"text", "font", "max_width", "wrap", "max_lines", "ellipsize", "features", "letter_spacing", "unit", "lines", "language", "metrics", "markup", "escapes", "ambiguous", "terminal", "id"}) and writes one JSON result a line, in the same order, each with its "id" (any JSON value of up to 4 KiB) echoed as given; a bad line gets an "error", and fitctl then exits 2. Results stream: a line is answered as soon as no more input is waiting, so a program can write a request and read its result over one open pipe. With --batch, --language is the language of the lines that name none, and so on for --escapes, --ambiguous and --terminal.

            When the font's family is not installed, fontconfig substitutes another: fitctl says so on stderr, and --json and --batch results have "substituted": true.

            Without --terminal, the profile is that of the terminal this command runs in, where TERM_PROGRAM or TERM names a known one: grapheme for kitty, WezTerm, foot, Ghostty and tmux 3.4 or later; wcwidth for Alacritty, screen, tmux before 3.4 (by TERM_PROGRAM_VERSION) and a tmux whose version is unknown (TERM tmux-*, no TERM_PROGRAM). No profile is exact for tmux 3.3a: it joins a ZWJ sequence into 2 cells but adds up skin tones and leaves ❤️ at 1 cell, so wcwidth, which fitctl takes for it, is right for the last two and 2 cells too many for the first. VTE, Konsole and xterm all say xterm-256color, so none of them is named: there, a single --cells measurement in the foreground of the terminal asks it (how far the cursor moves over three emoji clusters, then its DECRQM answer for mode 2027), and where it does not answer the daemon's default, grapheme, applies. `fitctl terminal` shows which profile, and why. --batch reads the environment only: it answers a program over pipes, which may be reading that terminal itself.
            """))

    @OptionGroup var common: CommonOptions

    @Argument(help: "The text to measure (not with --batch).")
    var text: String?

    @Option(help: "A Pango font description: \"Family [Style…] [Weight] Size\" (pt, or px with a px suffix).")
    var font = ""

    @Option(name: .customLong("ui-font"), help: ArgumentHelp(MeasureOptions.uiFont.help))
    var uiFont: String?

    // .unconditional: "--max-width -5" is the value -5 (refused by validate with the range),
    // not a missing value followed by an unknown option.
    @Option(name: .customLong("max-width"), parsing: .unconditional, help: ArgumentHelp(MeasureOptions.maxWidth.help))
    var maxWidth: Double?

    @Option(help: ArgumentHelp(MeasureOptions.wrap.help), completion: .list(MeasureOptions.wrap.words))
    var wrap = "word"

    @Option(name: .customLong("max-lines"), parsing: .unconditional, help: ArgumentHelp(MeasureOptions.maxLines.help))
    var maxLines: Int?

    @Option(help: ArgumentHelp(MeasureOptions.ellipsize.help), completion: .list(MeasureOptions.ellipsize.words))
    var ellipsize = "none"

    @Option(help: ArgumentHelp(MeasureOptions.features.help))
    var features = ""

    @Option(name: .customLong("letter-spacing"), parsing: .unconditional, help: ArgumentHelp(MeasureOptions.letterSpacing.help))
    var letterSpacing = 0.0

    @Option(help: ArgumentHelp(MeasureOptions.language.help))
    var language: String?
    @Option(help: ArgumentHelp(MeasureOptions.metrics.help))
    var metrics = "gtk4"

    @Flag(help: "Also the size a GtkLabel showing the text requests (minimum and natural width and height, baseline, whole px): it wraps at --max-width unless --ellipsize is given.")
    var widget = false

    @Option(name: .customLong("width-chars"), help: "With --widget: the label's width-chars, the width in characters it asks for at least.")
    var widthChars: Int?

    @Option(name: .customLong("max-width-chars"), help: "With --widget: the label's max-width-chars, the width in characters a wrapping or ellipsizing label asks for at most.")
    var maxWidthChars: Int?

    @Flag(help: "Measure in terminal cells (columns) instead of pixels.")
    var cells = false

    @Option(help: ArgumentHelp(MeasureOptions.escapes.help), completion: .list(MeasureOptions.escapes.words))
    var escapes: String?

    @Option(help: ArgumentHelp(MeasureOptions.ambiguous.help), completion: .list(MeasureOptions.ambiguous.words))
    var ambiguous: String?

    @Option(help: ArgumentHelp(MeasureOptions.terminal.help + " Default: the terminal's own (see below; fitctl terminal shows it)."), completion: .list(MeasureOptions.terminal.words))
    var terminal: String?

    @Flag(help: ArgumentHelp(MeasureOptions.lines.help))
    var lines = false

    @Flag(help: ArgumentHelp(MeasureOptions.markup.help))
    var markup = false

    @Flag(help: "Read JSON requests from standard input, one a line; write one JSON result a line.")
    var batch = false

    @Option(help: "Draw the text to this file: .svg or .png (real glyph outlines; colour emoji as images).")
    var output: String?

    @Flag(help: "With --output: draw each line's box and baseline.")
    var boxes = false

    @Option(help: "With --output: light or dark.")
    var theme = "light"

    @Option(parsing: .unconditional, help: "With --output: space around the text, px (pango-view's default, 10).")
    var margin = 10.0

    @Flag(name: .customLong("exact-positions"), help: "With --output: glyphs where the layout puts them, not on whole pixels as cairo 1.16 (GTK, pango-view) draws them.")
    var exactPositions = false

    func validate() throws {
        if batch && text != nil { throw ValidationError("give either a text or --batch, not both") }
        if !batch && text == nil { throw ValidationError("give the text to measure, or --batch") }
        if let maxWidth, !(maxWidth.isFinite && (0...Self.maxWidthLimit).contains(maxWidth)) {
            throw ValidationError("--max-width \(MetricsText.format(maxWidth)): give a width from 0 to \(Int(Self.maxWidthLimit))")
        }
        if let maxLines, maxLines < 1 { throw ValidationError("--max-lines \(maxLines): give 1 or more") }
        if (widthChars != nil || maxWidthChars != nil) && !widget {
            throw ValidationError("--width-chars and --max-width-chars are a GTK label's: give --widget too")
        }
        do {
            try LabelCharWidths(widthChars: widthChars, maxWidthChars: maxWidthChars).check()
        } catch {
            throw ValidationError(error.description)
        }
        guard letterSpacing.isFinite, abs(letterSpacing) <= TextLimits.maxLetterSpacing else {
            let limit = Int(TextLimits.maxLetterSpacing)
            throw ValidationError("--letter-spacing \(MetricsText.format(letterSpacing)): give -\(limit) to \(limit) px")
        }
        // The words only: the terminal is asked for its profile once, by run().
        _ = try flagRequest(cellOptions: try parsedCellOptions(detecting: false))
        if let output {
            if batch { throw ValidationError("--output draws one text, not --batch") }
            if cells { throw ValidationError("--output draws pixels, not --cells") }
            _ = try PictureFormat(path: output)
        } else if boxes || theme != "light" || margin != 10 || exactPositions {
            throw ValidationError("--boxes, --theme, --margin and --exact-positions go with --output")
        }
        guard RenderOptions.Theme(rawValue: theme) != nil else {
            throw ValidationError("--theme: \"\(theme)\" is not light or dark")
        }
        guard margin.isFinite, (0...1000).contains(margin) else { throw ValidationError("--margin: 0…1000 px") }
    }

    /// The widest --max-width taken (the engine's limit, which the daemon enforces too).
    static let maxWidthLimit = TextLimits.maxWidth

    /// --escapes, --ambiguous and --terminal (nil where not given; the terminal's own profile
    /// where its environment says, or for a single --cells measurement where it answers:
    /// ``TerminalDetection``). `detecting` false leaves an unnamed profile nil.
    func parsedCellOptions(detecting: Bool = true) throws -> (escapes: EscapeMode?, ambiguous: AmbiguousWidth?, terminal: TerminalProfile?) {
        do {
            let terminal = try self.terminal.map { text in try Self.word(TerminalProfile.self, text) }
            return (
                try escapes.map { text in try Self.word(EscapeMode.self, text) },
                try ambiguous.map { text in try Self.word(AmbiguousWidth.self, text) },
                terminal ?? (detecting
                    ? TerminalDetection.detect(environment: ProcessInfo.processInfo.environment, ask: cells && !batch).profile : nil)
            )
        }
    }

    /// An option word, or a usage error naming its words, with the nearest where one is near
    /// ("--wrap wrod": … use word, char or word-char; did you mean "word"?).
    static func word<Word: OptionWord>(_ type: Word.Type, _ text: String) throws -> Word {
        do {
            return try Word(parsing: text)
        } catch {
            throw ValidationError(Suggestion.appended(to: error.description, word: text, among: Word.allCases.map(\.rawValue)))
        }
    }

    /// The request the flags describe: each option taken through its row of MeasureOptions,
    /// as the daemon takes Measure's options and --batch its fields, with the nearest word
    /// suggested for a misspelt one ("--wrap wrod": … did you mean "word"?).
    func flagRequest(cellOptions: (escapes: EscapeMode?, ambiguous: AmbiguousWidth?, terminal: TerminalProfile?)) throws -> MeasureRequest {
        var request = MeasureRequest(text: text ?? "", font: font)
        var given: [(MeasureOption, OptionValue?)] = [
            (MeasureOptions.maxWidth, maxWidth.map(OptionValue.number)),
            (MeasureOptions.wrap, .string(wrap)),
            (MeasureOptions.maxLines, maxLines.map { .number(Double($0)) }),
            (MeasureOptions.ellipsize, .string(ellipsize)),
            (MeasureOptions.features, .string(features)),
            (MeasureOptions.letterSpacing, .number(letterSpacing)),
            (MeasureOptions.unit, .string(cells ? MeasureUnit.cells.rawValue : MeasureUnit.px.rawValue)),
            (MeasureOptions.lines, .bool(lines)),
            (MeasureOptions.language, language.map(OptionValue.string)),
            (MeasureOptions.metrics, .string(metrics)),
            (MeasureOptions.markup, .bool(markup)),
            (MeasureOptions.uiFont, uiFont.map(OptionValue.string)),
        ]
        given += [
            (MeasureOptions.escapes, cellOptions.escapes.map { .string($0.rawValue) }),
            (MeasureOptions.ambiguous, cellOptions.ambiguous.map { .string($0.rawValue) }),
            (MeasureOptions.terminal, cellOptions.terminal.map { .string($0.rawValue) }),
        ]
        for case let (option, value?) in given {
            do {
                try option.apply(&request, value)
            } catch {
                guard case .string(let word) = value, !option.words.isEmpty else { throw ValidationError(error.description) }
                throw ValidationError(Suggestion.appended(to: error.description, word: word, among: option.words))
            }
        }
        return request
    }

    func run() async throws {
        let client = try await ClientFactory.make(common)
        if batch {
            let cellOptions = try parsedCellOptions()
            let measurer = BatchMeasurer(
                client: client, defaultLanguage: try flagRequest(cellOptions: cellOptions).language, defaultEscapes: cellOptions.escapes,
                defaultAmbiguous: cellOptions.ambiguous, defaultTerminal: cellOptions.terminal)
            let failed: Int
            do {
                failed = try await measurer.run()
            } catch {
                throw CommandFailure(error.description)
            }
            if failed > 0 { throw ExitStatus.partialFailure }
            return
        }
        let request = try flagRequest(cellOptions: try parsedCellOptions())
        let metrics: TextMetrics
        if let output {
            metrics = try await draw(request, client: client, to: output)
        } else {
            do {
                metrics = try await client.measure(request).metrics
            } catch {
                throw CommandFailure(error.description)
            }
        }
        var label: LabelSize?
        if widget {
            guard !cells else { throw ValidationError("--widget measures a GTK label, in px: it does not go with --cells") }
            do {
                label = try await client.measureLabel(request, chars: LabelCharWidths(widthChars: widthChars, maxWidthChars: maxWidthChars)).size
            } catch {
                throw CommandFailure(error.description)
            }
        }
        let substituted = await FontSubstitution.check(font, client: client)
        if common.json {
            JSONOutput.print { MetricsJSON.write(metrics, includeLines: lines, substituted: substituted, label: label, to: &$0) }
        } else {
            print(MetricsText.render(metrics, showLines: lines))
            if let label {
                print("widget    \(label.minimumWidth)…\(label.naturalWidth) × \(label.minimumHeight)…\(label.naturalHeight) px, baseline \(label.baseline) (minimum…natural)")
            }
        }
    }

    /// Measures through the client (the daemon, or in-process) with the user's text scale
    /// made explicit, lays the same request out in this process with its glyphs, and draws it.
    private func draw(_ base: MeasureRequest, client: FitClient, to path: String) async throws -> TextMetrics {
        let format = try PictureFormat(path: path)
        var request = base
        do {
            request.textScale = try await client.textScale().factor
        } catch {
            throw CommandFailure(error.description)
        }
        let metrics: TextMetrics
        do {
            metrics = try await client.measure(request, userTextScale: false).metrics
        } catch {
            throw CommandFailure(error.description)
        }
        let engine = try ClientFactory.drawingEngine(client)
        let layout: PositionedGlyphs
        do {
            layout = try engine.positionedGlyphs(request)
        } catch {
            throw CommandFailure(error.description)
        }
        if layout.metrics.width != metrics.width || layout.metrics.height != metrics.height {
            FileHandle.standardError.write(
                Data(
                    "fitctl: note: the picture's layout (\(layout.metrics.width) × \(layout.metrics.height) px) differs from the daemon's (\(metrics.width) × \(metrics.height) px)\n"
                        .utf8))
        }
        let options = RenderOptions(theme: RenderOptions.Theme(rawValue: theme) ?? .light, boxes: boxes, margin: margin, pixelAlignedGlyphs: !exactPositions)
        do {
            switch format {
            case .svg:
                let svg = try SVGWriter(options: options).svg(layout)
                try PictureFile.write(Array(svg.utf8), to: path)
            case .png:
                try PNGWriter(options: options).write(layout, to: path)
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        return metrics
    }
}

/// The picture format an output path names by its extension.
enum PictureFormat {
    case svg, png

    init(path: String) throws {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let lower = name.lowercased()
        if lower.hasSuffix(".svg") {
            self = .svg
        } else if lower.hasSuffix(".png") {
            self = .png
        } else {
            throw ValidationError(RenderError.unknownFormat(path).description)
        }
    }
}
