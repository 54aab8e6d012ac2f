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
              fitctl measure --batch < requests.jsonl
            Batch mode reads one JSON request a line ({"text", "font", "max_width", "wrap",
            "max_lines", "ellipsize", "features", "letter_spacing", "unit", "lines", "language",
            "metrics", "markup", "id"})
            and writes one JSON result a line, in the same order; a bad line gets an "error".
            With --batch, --language is the language of the lines that name none.
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
            await BatchMeasurer(client: client, defaultLanguage: try parsedLanguage()).run()
            return
        }
        var request = MeasureRequest(
            text: text ?? "", font: font, maxWidth: maxWidth, wrap: try parsedWrap(), maxLines: maxLines,
            ellipsize: try parsedEllipsize(), features: MeasureRequest.parseFeatureList(features),
            letterSpacing: letterSpacing, unit: cells ? .cells : .px, includeLines: lines)
        request.language = try parsedLanguage()
        request.metrics = try parsedMetrics()
        request.markup = markup
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
