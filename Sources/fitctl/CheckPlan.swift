import FitClient
import FitLayout
import FitTranslations

/// What `fitctl check` lays out: the document in the source language and in each catalog's,
/// at each size category and width. One job per language and category lays out every width
/// in turn (the engine's caches then measure each text once per language and size; only the
/// line breaking changes with the width) and finds the breakpoints at the first; jobs run on
/// every core.
struct CheckPlan: Sendable {
    struct Language: Sendable {
        /// The catalog's name ("pt_BR"), or the source language's tag.
        var name: String
        /// Pango's language for its texts.
        var tag: String
        var document: LayoutDocument
        var missing: [MessageReference]
        var misformatted: [TranslatableDocument.Misformatted] = []
    }

    var document: TranslatableDocument
    var catalogs: [TranslationCatalog]
    var sourceLanguage: String
    var categories: [SizeCategory]
    var widths: [Double?]
    var height: Double?
    /// The options every layout of the check starts from: the flags `fit` shares
    /// (LayoutRequestOptions: --ui-font, --label-sizes, --text-scale), in px.
    var base: LayoutOptions
    var range: BreakpointRange

    /// The source language first, then each catalog's.
    var languages: [Language] {
        var list = [Language(name: sourceLanguage, tag: sourceLanguage, document: document.source, missing: [])]
        for catalog in catalogs {
            var missing: [MessageReference] = []
            var misformatted: [TranslatableDocument.Misformatted] = []
            let translated = document.translated(catalog, missing: &missing, misformatted: &misformatted)
            list.append(Language(
                name: catalog.language, tag: catalog.bcp47, document: translated, missing: missing, misformatted: misformatted))
        }
        return list
    }

    /// The layouts of one language at one category: one per width, the first with breakpoints.
    struct Job: Sendable {
        var language: Int
        var category: Int
        var results: [LayoutResult]
    }

    /// Every layout of a check: per language (the source first) and category, a job.
    struct Run: Sendable {
        var languages: [Language]
        var jobs: [[Job]]
    }

    func run(_ client: FitClient, workers: Int) async throws -> Run {
        let languages = self.languages
        let pairs = languages.indices.flatMap { language in categories.indices.map { (language, $0) } }
        var jobs: [[Job?]] = Array(repeating: Array(repeating: nil, count: categories.count), count: languages.count)
        try await withThrowingTaskGroup(of: Job.self) { group in
            var next = 0
            func start() {
                guard next < pairs.count else { return }
                let (language, category) = pairs[next]
                next += 1
                group.addTask { try await layOut(languages[language], category: category, language: language, client) }
            }
            for _ in 0..<max(1, workers) { start() }
            while let job = try await group.next() {
                jobs[job.language][job.category] = job
                start()
            }
        }
        return Run(languages: languages, jobs: jobs.map { $0.compactMap { $0 } })
    }

    private func layOut(_ language: Language, category: Int, language index: Int, _ client: FitClient) async throws -> Job {
        var options = base
        options.sizeCategory = categories[category]
        options.language = language.tag
        options.widgetSizes = true
        var results: [LayoutResult] = []
        results.reserveCapacity(widths.count)
        for (position, width) in widths.enumerated() {
            var asked = options
            if position == 0 { asked.breakpoints = range }
            do {
                results.append(try await client.layout(
                    document: language.document, proposal: ProposedSize(width: width, height: height), options: asked, userSizeCategory: false))
            } catch {
                throw CommandFailure("\(language.name), \(categories[category].name), width \(ProposedSize.describe(width)): \(FitCommand.message(error))")
            }
        }
        return Job(language: index, category: category, results: results)
    }
}
