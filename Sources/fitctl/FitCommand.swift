import ArgumentParser
import FitClient
import FitLayout
import FitLayoutJSON
import FitLayoutText
import FitRender
import FitText
import Foundation

struct FitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Lay out a layout document: the frame of every node and the decisions taken.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl fit protocol/examples/first-fit-card.json --width 320
              fitctl fit card.json --width 320 --category accessibilityLarge --render
              fitctl fit card.json --widths 200,320,480 --render      # side by side
              fitctl fit card.json --width 40 --cells --json
              fitctl fit nested.json --flatten                        # the flat form sent
              fitctl fit card.json --width 320 --breakpoints 100:600  # where decisions flip
              fitctl fit card.json --widths 200,320,480 --output card.svg  # or .png
              fitctl fit card.json --categories all --output all.png --theme dark
              fitctl fit card.json --categories large,accessibility3 --output g.svg

            The document format: protocol/layout-document.schema.json, flat (nodes naming their parents) or nested (root, children inside their parent, ids optional); a nested document is flattened before it is sent. Without --width or --widths the document is laid out at its ideal width. Without --category the daemon uses the user's size category (large in-process).

            --output draws the layout (.svg or .png): a sheet per size category (rows) and width (columns), each titled and listing its decisions; every shown node's frame outlined in its kind's colour (dashed: spacers and hidden nodes), the texts in the real glyphs of their fonts at their frames and scale. The layout is the daemon's; the picture's glyphs are drawn by fitctl's own engine with the daemon's text scale and UI font (a note on stderr if a text then comes out otherwise). docs/pictures.md.

            --categories takes "all" or a comma-separated list of categories, each also as its short name (accessibility3 = accessibilityExtraLarge, xxxLarge…); with --json the results are {"layouts": [...]}, category by category, each at every width.

            With --ui-font naming a family that is not installed, fitctl says on stderr what fontconfig substituted.
            """))

    @OptionGroup var common: CommonOptions

    @Argument(help: "A layout document (JSON): a file, a pipe, or - for standard input.")
    var document: String

    // .unconditional: "--width -5" is refused with the range, not taken for a missing value.
    @Option(parsing: .unconditional, help: "Proposed width (px, or cells with --cells); \"inf\" for unbounded.")
    var width: String?

    @OptionGroup var request: LayoutRequestOptions

    @Option(help: "Several proposed widths, comma-separated: \"200,320,480\".")
    var widths: String?

    @Option(help: "Size category: xSmall … accessibilityExtraExtraExtraLarge.")
    var category: String?

    @Option(help: ArgumentHelp(LayoutOptionTable.language.help))
    var language: String?
    @Flag(help: ArgumentHelp(LayoutOptionTable.markup.help))
    var markup = false

    @Option(help: ArgumentHelp(LayoutOptionTable.breakpoints.help))
    var breakpoints: String?

    @Flag(name: .customLong("widget-sizes"), help: ArgumentHelp(LayoutOptionTable.widgetSizes.help))
    var widgetSizes = false

    @Flag(help: "Lay out in terminal cells instead of pixels.")
    var cells = false

    @Flag(help: "Draw the layout with box-drawing characters.")
    var render = false

    @Flag(help: "Print the document in the flat form (what is sent to the daemon) and exit.")
    var flatten = false

    @Option(help: "Size categories, comma-separated, or \"all\": the document laid out at each (with --output, one row of sheets each).")
    var categories: String?

    @Option(help: "Draw the layout to this file: .svg or .png (frames, texts in real glyphs, decisions).")
    var output: String?

    @Option(help: "With --output: light or dark.")
    var theme = "light"

    func validate() throws {
        if width != nil && widths != nil { throw ValidationError("give --width or --widths, not both") }
        if common.json && render { throw ValidationError("give --json or --render, not both") }
        _ = try proposedWidths()
        _ = try parsedLanguage()
        _ = try breakpointRange()
        if let category { _ = try Self.sizeCategory(category, option: "--category") }
        if category != nil && categories != nil { throw ValidationError("give --category or --categories, not both") }
        _ = try parsedCategories()
        if let output {
            if cells { throw ValidationError("--output draws pixels, not --cells") }
            _ = try PictureFormat(path: output)
        } else if theme != "light" {
            throw ValidationError("--theme goes with --output")
        }
        guard RenderOptions.Theme(rawValue: theme) != nil else { throw ValidationError("--theme: \"\(theme)\" is not light or dark") }
    }

    /// --breakpoints MIN:MAX, checked as the daemon checks the option (finite, 0 ≤ MIN ≤ MAX ≤ 1e6).
    func breakpointRange() throws -> BreakpointRange? {
        try breakpoints.map { try Self.breakpointRange($0) }
    }

    /// A MIN:MAX width range (`--breakpoints`), checked by the option's row as the daemon checks it.
    static func breakpointRange(_ breakpoints: String) throws -> BreakpointRange {
        let parts = breakpoints.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let high = Double(parts[1].trimmingCharacters(in: .whitespaces))
        else { throw ValidationError("--breakpoints takes MIN:MAX, two widths: \"100:600\"") }
        var options = LayoutOptions()
        try LayoutRequestOptions.take(
            LayoutOptionTable.breakpoints, .range(low, high), into: &options, flag: "--breakpoints", given: breakpoints)
        return options.breakpoints ?? BreakpointRange(from: low, to: high)
    }

    private func parsedLanguage() throws -> String? {
        guard let language else { return nil }
        var options = LayoutOptions()
        try LayoutRequestOptions.take(LayoutOptionTable.language, .string(language), into: &options, flag: "--language", given: language)
        return options.language
    }

    static func length(_ text: String?, _ option: String) throws -> Double? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "inf" || trimmed == "infinity" { return .infinity }
        guard let value = Double(trimmed), value.isFinite, value >= 0 else {
            throw ValidationError("\(option) \"\(text)\" is not a length ≥ 0 (or inf)")
        }
        return value
    }

    func proposedWidths() throws -> [Double?] {
        if let widths { return try Self.widthList(widths, limit: 16) }
        return [try Self.length(width, "--width")]
    }

    /// `--widths`: comma-separated lengths ("200,320,480"), at most `limit`.
    static func widthList(_ widths: String, limit: Int) throws -> [Double?] {
        let parts = widths.split(separator: ",")
        guard !parts.isEmpty, parts.count <= limit else { throw ValidationError("--widths takes 1 to \(limit) widths") }
        return try parts.map { try Self.length(String($0), "--widths") }
    }

    func run() async throws {
        let document = try load()
        if flatten {
            print(document.json(pretty: true))
            return
        }
        let options = try layoutOptions()
        let client = try await ClientFactory.make(common)
        if let uiFont = request.uiFont { _ = await FontSubstitution.check(uiFont, client: client) }
        let height = try request.proposedHeight()
        // One run per category asked; nil: --category, or the user's (the daemon's) category.
        let runs: [SizeCategory?] = try parsedCategories() ?? [category.map { try Self.sizeCategory($0, option: "--category") }]
        // The picture and the terminal drawing lay the texts out again with this process's
        // engine, at the user's text scale and UI font as the daemon has them.
        let user: TextScaleInfo? = output != nil || render ? try await Self.userText(client) : nil
        let grid = try await layouts(document, client: client, runs: runs, options: options, height: height)
        let results = grid.first ?? []
        // Results are in the order of the document laid out: with forEach rows, its expansion.
        let preparing = Result { () throws(LayoutError) in try PreparedLayout(document) }
        let prepared = try? preparing.get()
        let shown = prepared?.document ?? document
        let engine = output != nil || render ? try ClientFactory.drawingEngine(client) : nil
        func drawn(_ run: SizeCategory?) throws -> (measurer: TextEngineMeasurer, category: SizeCategory)? {
            try drawingMeasurer(run, user: user, engine: engine, options: options)
        }
        if common.json {
            print(LayoutJSON.string(grid.flatMap { $0 }, single: widths == nil && categories == nil, document: shown))
        } else {
            try printTables(grid, runs: runs, shown: shown, prepared: prepared, drawn: drawn)
        }
        if let output {
            // The daemon accepted the document; this fitctl must read it too to draw it.
            let prepared: PreparedLayout
            do { prepared = try preparing.get() } catch { throw CommandFailure("\(self.document): cannot be drawn: \(error)") }
            var rows: [[LayoutSheet]] = []
            for (run, results) in zip(runs, grid) {
                guard let (measurer, category) = try drawn(run) else { continue }
                rows.append(results.map { LayoutSheet(prepared: prepared, result: $0, measurer: measurer, sizeCategory: category) })
            }
            try Self.draw(rows, to: output, theme: RenderOptions.Theme(rawValue: theme) ?? .light)
        }
        if !common.json, let found = results.first?.breakpoints {
            // The same at every proposed width (only the height matters): printed once.
            print(Self.describe(found, document: shown, unit: cells ? "cells" : "px"), terminator: "")
        }
    }

    /// The layout options the flags ask for (one size category; `--categories` sets each run's).
    func layoutOptions() throws -> LayoutOptions {
        var options = LayoutOptions(unit: cells ? .cells : .px, uiFont: request.uiFont)
        options.language = try parsedLanguage()
        options.markup = markup
        options.breakpoints = try breakpointRange()
        options.widgetSizes = widgetSizes
        try request.apply(to: &options)
        if let category { options.sizeCategory = try Self.sizeCategory(category, option: "--category") }
        return options
    }

    /// The document laid out at each proposed width, once per size category asked (a row each).
    func layouts(
        _ document: LayoutDocument, client: FitClient, runs: [SizeCategory?], options: LayoutOptions, height: Double?
    ) async throws -> [[LayoutResult]] {
        let widths = try proposedWidths()
        var grid: [[LayoutResult]] = []
        for run in runs {
            var runOptions = options
            if let run { runOptions.sizeCategory = run }
            var results: [LayoutResult] = []
            for width in widths {
                do {
                    results.append(try await client.layout(
                        document: document, proposal: ProposedSize(width: width, height: height), options: runOptions,
                        userSizeCategory: run == nil))
                } catch {
                    throw CommandFailure("\(self.document): \(Self.message(error))")
                }
            }
            grid.append(results)
        }
        return grid
    }

    /// The measurer that draws a run's texts again in this process (at the user's text scale,
    /// their UI font when the document names none) and the category to draw at; nil when
    /// nothing is drawn.
    func drawingMeasurer(
        _ run: SizeCategory?, user: TextScaleInfo?, engine: TextEngine?, options: LayoutOptions
    ) throws -> (measurer: TextEngineMeasurer, category: SizeCategory)? {
        guard let user, let engine else { return nil }
        var runOptions = options
        if runOptions.uiFont == nil { runOptions.uiFont = user.uiFont }
        do {
            return (try TextEngineMeasurer(engine: engine, options: runOptions, textScale: user.factor),
                    run ?? user.sizeCategory ?? .large)
        } catch {
            throw CommandFailure("\(self.document): \(error)")
        }
    }

    /// Each run's results as a table, or drawn in box-drawing characters with `--render`.
    func printTables(
        _ grid: [[LayoutResult]], runs: [SizeCategory?], shown: LayoutDocument, prepared: PreparedLayout?,
        drawn: (SizeCategory?) throws -> (measurer: TextEngineMeasurer, category: SizeCategory)?
    ) throws {
        for (run, results) in zip(runs, grid) {
            if categories != nil, let run { print("category \(run.name)\n") }
            if render {
                let renderer = cells ? LayoutRenderer() : LayoutRenderer(columnWidth: 8, rowHeight: 16)
                var lines: [[Int: [String]]] = []
                if let prepared, let (measurer, category) = try drawn(run) {
                    lines = results.map { Self.textLines(prepared, $0, measurer: measurer, category: category) }
                }
                print(renderer.render(
                    shown, results: results.map { (label: "width \(ProposedSize.describe($0.proposal.width))", result: $0) }, lines: lines))
            } else {
                print(LayoutTable(document: shown, unit: cells ? "cells" : "px").render(results))
            }
            if categories != nil { print("") }
        }
    }

    /// `--breakpoints` as text: the content widths, then per decision (document order) its
    /// outcomes over the range, "-" where it is not shown, and where each outcome begins
    /// exactly (to 1/1024 px, and in sp at the text scale the layout was measured at).
    static func describe(_ found: LayoutBreakpoints, document: LayoutDocument, unit: String) -> String {
        let f = ProposedSize.describe
        var text = "breakpoints \(f(found.range.from))–\(f(found.range.to)) \(unit): "
        text += "min-content \(f(found.minContentWidth)), max-content \(f(found.maxContentWidth))\n"
        for node in document.nodes {
            guard let intervals = found.decisions[node.id] else { continue }
            let outcomes = intervals.map { interval in
                let outcome: String
                if let axis = interval.axis {
                    outcome = axis.rawValue
                } else if let candidate = interval.candidate, candidate >= 0 {
                    outcome = "candidate \(candidate)"
                } else {
                    outcome = "-"
                }
                return "\(f(interval.from))–\(f(interval.to)) \(outcome)"
            }
            text += "  \(node.id) (\(node.kind.rawValue)): \(outcomes.joined(separator: "; "))\n"
            let flips = intervals.dropFirst().compactMap { interval -> String? in
                guard let exact = interval.exactFrom else { return nil }
                let sp = found.textScale.map { " = \(Self.exactWidth(exact / $0)) sp" } ?? ""
                return "\(Self.exactWidth(exact)) \(unit)\(sp)"
            }
            if !flips.isEmpty { text += "    exact flips: \(flips.joined(separator: ", "))\n" }
        }
        if found.truncated { text += "  … more decisions left out (at most \(LayoutLimits.maxBreakpointIntervals) intervals)\n" }
        return text
    }

    /// A width to 1/1024 px (Pango's unit) for people: up to 4 decimals, trailing zeros dropped.
    static func exactWidth(_ value: Double) -> String {
        let rounded = (value * 10_000).rounded() / 10_000
        if rounded == rounded.rounded(), rounded.magnitude < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// The document; one whose texts name messages (`fitctl check`'s `msgid` keys) is laid out
    /// in its source language, so that one document serves both commands.
    private func load() throws -> LayoutDocument {
        let (name, bytes) = try DocumentInput.readChecked(document)
        if TranslatableDocument.mayNameMessages(bytes) { return try TranslatableDocument(bytes: bytes, name: name).source }
        do {
            return try LayoutDocument(json: bytes)
        } catch {
            throw CommandFailure("\(name): \(error)")
        }
    }

    /// The daemon's message without the error name in parentheses: one line a person reads.
    static func message(_ error: any Error) -> String {
        if case .rejected(_, let message) = error as? FitClientError { return message }
        return "\(error)"
    }
}
