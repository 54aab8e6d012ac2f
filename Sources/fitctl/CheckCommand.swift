import ArgumentParser
import FitClient
import FitLayout
import FitText
import FitThreads
import FitTranslations
import Foundation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Lay a document out in every language of a translation set, at every size category and width, and report what does not fit.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl check dialog.json --translations gtk40 --categories all --widths 240,360,480
              fitctl check dialog.json --translations po/ --widths 200:600:40 --json
              fitctl check dialog.json --translations de.json fr.json --widths 320 --junit check.xml
              fitctl check dialog.json --translations gtk40 --languages de,ar,ja --widths 360 --output failures/

            A text node names its message with "msgid" beside its source-language "text" (and "msgctxt", "msgid_plural" with the count "n", "useUnderline": true for a mnemonic label, as GtkLabel's use-underline; "args", the values of its printf conversions). --translations takes a gettext domain (looked up as gettext does, /usr/share/locale/LANG/LC_MESSAGES/DOMAIN.mo), a po/ directory (with LINGUAS, or all its .po files), or .po, .mo and flat JSON files. Each language is laid out with its own language (fonts and shaping follow it); right-to-left languages are mirrored.

            Reported per language × category × width, against the source language at the same category and width: texts truncated (ellipsized or cut by their line limit) that are not in the source, frames reaching outside their parent or the proposal, decisions taken otherwise; per language its widest string against its room; per decision and category, the smallest width from which each candidate is shown in every language (exact to 1/1024 px, in px and in sp for the user's text scale) with the libadwaita condition to fall back below it. Messages a catalog lacks are reported and measured in the source language.

            Exit status: 0 everything fits, 1 something does not (or a file could not be read), 64 usage. docs/translation-check.md.
            """))

    @OptionGroup var common: CommonOptions

    @Argument(help: "A layout document (JSON) whose texts name messages with \"msgid\".")
    var document: String

    @Option(parsing: .upToNextOption, help: "A gettext domain, a po/ directory, or .po/.mo/.json files.")
    var translations: [String] = []

    @Option(help: "Only these languages, comma-separated (gettext names or BCP 47: \"de,pt_BR,sr@latin\").")
    var languages: String?

    @Option(name: .customLong("source-language"), help: "The language of the document's own texts (BCP 47).")
    var sourceLanguage = "en"

    @Option(help: "Size categories, comma-separated, or \"all\"; default: the user's.")
    var categories: String?

    @Option(help: "Proposed widths: \"240,360,480\" or a range MIN:MAX:STEP (\"200:600:20\").")
    var widths: String

    @OptionGroup var request: LayoutRequestOptions

    @Option(help: "The widths MIN:MAX over which each decision's candidates are searched; default 0 to the widest proposed.")
    var breakpoints: String?

    @Option(help: "Also write the report as JUnit XML to this file (one test case per language, category and width).")
    var junit: String?

    @Option(help: "Draw every failing case beside the source language's layout into this directory, with an index.html.")
    var output: String?

    @Option(name: .customLong("picture-format"), help: "With --output: svg or png.")
    var pictureFormat = "svg"

    func validate() throws {
        guard ["svg", "png"].contains(pictureFormat) else { throw ValidationError("--picture-format: \"\(pictureFormat)\" is not svg or png") }
        if output == nil, pictureFormat != "svg" { throw ValidationError("--picture-format goes with --output") }
        guard !translations.isEmpty else { throw ValidationError("--translations: give a gettext domain, a po/ directory or files") }
        _ = try proposedWidths()
        if let categories { _ = try FitCommand.categoryList(categories) }
        if let breakpoints { _ = try FitCommand.breakpointRange(breakpoints) }
        do { _ = try MeasureRequest.canonicalLanguage(sourceLanguage) } catch { throw ValidationError("--source-language: \(error.description)") }
    }

    /// The maximum of widths a check lays out per language and category.
    static let maxWidths = 256

    /// `--widths`: a list as `fitctl fit --widths`, or MIN:MAX:STEP.
    func proposedWidths() throws -> [Double?] {
        let parts = widths.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return try FitCommand.widthList(widths, limit: Self.maxWidths) }
        guard let low = try FitCommand.length(String(parts[0]), "--widths"), let high = try FitCommand.length(String(parts[1]), "--widths"),
            let step = try FitCommand.length(String(parts[2]), "--widths"), low.isFinite, high.isFinite, step > 0, low <= high,
            (high - low) / step < Double(Self.maxWidths)
        else { throw ValidationError("--widths \(widths): give MIN:MAX:STEP with MIN ≤ MAX and at most \(Self.maxWidths) widths") }
        return stride(from: low, through: high, by: step).map { $0 }
    }

    func run() async throws {
        let (name, bytes) = try DocumentInput.readChecked(document)
        let translatable = try TranslatableDocument(bytes: bytes, name: name)
        let wanted = languages.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let set: TranslationSet
        do {
            set = try TranslationSet.load(translations, languages: wanted)
        } catch {
            throw CommandFailure("\(error)")
        }
        let widths = try proposedWidths()
        let widest = widths.compactMap { $0 }.filter(\.isFinite).max() ?? 1000
        let range = try breakpoints.map { try FitCommand.breakpointRange($0) } ?? BreakpointRange(from: 0, to: min(widest, LayoutLimits.maxBreakpointWidth))
        let client = try await ClientFactory.make(common)
        let user = try await FitCommand.userText(client)
        let categories: [SizeCategory] = try categories.map { try FitCommand.categoryList($0) }
            ?? [user.sizeCategory ?? .large]
        var base = LayoutOptions(unit: .px)
        try request.apply(to: &base)
        let plan = CheckPlan(
            document: translatable, catalogs: set.catalogs, sourceLanguage: try MeasureRequest.canonicalLanguage(sourceLanguage),
            categories: categories, widths: widths, height: try request.proposedHeight(), base: base, range: range)
        let started = ContinuousClock.now
        // In-process, a job per core; through the daemon more calls in flight, so that its bus
        // thread is never idle while this process encodes the next call and reads the last reply
        // (measured on the FitBenchCheck document: 18 s with 2 in flight, 14.5 s with 8).
        let inFlight = ParallelChunks.availableCores * (client.isEmbedded ? 1 : 4)
        let run = try await plan.run(client, workers: inFlight)
        let report = CheckReport.compile(plan, run: run)
        let elapsed = ContinuousClock.now - started
        // sp at the scale the layouts were measured at (the breakpoints say it), else the user's.
        let textScale = run.jobs.first?.first?.results.first?.breakpoints?.textScale ?? user.factor
        if common.json {
            print(report.json(textScale: textScale))
        } else {
            print(report.table(textScale: textScale, document: name, elapsed: elapsed), terminator: "")
        }
        if let junit {
            do {
                try Data(report.junit(document: name).utf8).write(to: URL(fileURLWithPath: junit))
            } catch {
                throw CommandFailure("\(junit): cannot be written (\(error.localizedDescription))")
            }
        }
        if let output { try CheckPictures.draw(report, run: run, plan: plan, client: client, user: user, format: pictureFormat, to: output) }
        if report.fails { throw ExitCode.failure }
    }
}
