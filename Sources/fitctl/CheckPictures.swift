import FitClient
import FitLayout
import FitLayoutText
import FitRender
import FitText
import Foundation

/// `fitctl check --output DIR`: every failing case drawn beside the source language's layout
/// at the same category and width (the renderer of `fitctl fit --output`), and an index.html
/// that shows them all with what failed.
enum CheckPictures {
    /// Pictures drawn at most: enough for any real report, bounded however much fails.
    static let maxPictures = 500

    static func draw(
        _ report: CheckReport, run: CheckPlan.Run, plan: CheckPlan, client: FitClient, user: TextScaleInfo, format: String,
        to directory: String
    ) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(directory): cannot be made (\(error.localizedDescription))")
        }
        let engine = try ClientFactory.drawingEngine(client)
        let byLanguage = Dictionary(run.languages.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        func sheet(_ language: Int, _ category: Int, _ position: Int) throws -> LayoutSheet {
            let chosen = run.languages[language]
            var options = plan.base
            options.sizeCategory = plan.categories[category]
            if options.uiFont == nil { options.uiFont = user.uiFont }
            options.language = chosen.tag
            do {
                let prepared = try PreparedLayout(chosen.document)
                let measurer = try TextEngineMeasurer(engine: engine, options: options, textScale: user.factor)
                return LayoutSheet(
                    prepared: prepared, result: run.jobs[language][category].results[position], measurer: measurer,
                    sizeCategory: plan.categories[category], caption: chosen.name)
            } catch {
                throw CommandFailure("\(chosen.name): cannot be drawn: \(error)")
            }
        }
        let cases = report.failingCases.sorted { a, b in
            (a.language, a.category.index, a.width ?? .infinity) < (b.language, b.category.index, b.width ?? .infinity)
        }
        var entries: [(file: String, key: CheckReport.CaseKey)] = []
        for key in cases.prefix(maxPictures) {
            guard let language = byLanguage[key.language], let category = plan.categories.firstIndex(of: key.category),
                let position = plan.widths.firstIndex(of: key.width)
            else { continue }
            let file = fileName(key, format: format)
            try FitCommand.draw([[try sheet(0, category, position), try sheet(language, category, position)]], to: directory + "/" + file, theme: .light)
            entries.append((file, key))
        }
        let index = indexPage(report, entries: entries, format: format, leftOut: max(0, cases.count - maxPictures))
        do {
            try Data(index.utf8).write(to: URL(fileURLWithPath: directory + "/index.html"))
        } catch {
            throw CommandFailure("\(directory)/index.html: cannot be written (\(error.localizedDescription))")
        }
    }

    /// "de-large-240.svg": the case in a name any file system takes.
    static func fileName(_ key: CheckReport.CaseKey, format: String) -> String {
        let language = String(key.language.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "-" })
        return "\(language)-\(key.category.name)-\(ProposedSize.describe(key.width)).\(format)"
    }

    static func indexPage(_ report: CheckReport, entries: [(file: String, key: CheckReport.CaseKey)], format: String, leftOut: Int) -> String {
        let e = LayoutPicture.escaped
        let byCase = Dictionary(grouping: report.findings.filter(\.failing)) {
            CheckReport.CaseKey(language: $0.language, category: $0.category ?? .large, width: $0.width)
        }
        var html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>fitctl check: \(entries.count) failing cases</title>
            <style>body{font-family:sans-serif;margin:2em}section{margin-bottom:3em}img{max-width:100%;border:1px solid #ccc}li{font-size:90%}</style>
            </head><body>
            <h1>\(entries.count) failing case\(entries.count == 1 ? "" : "s")</h1>
            <p>Each picture: the source language (\(e(report.sourceLanguage))) on the left, the translation on the right, at the same size category and width.</p>

            """
        if leftOut > 0 { html += "<p>\(leftOut) more cases were not drawn (at most \(maxPictures)); the report lists them.</p>\n" }
        for (file, key) in entries {
            html += "<section><h2>\(e(key.language)) · \(key.category.name) · \(ProposedSize.describe(key.width)) px</h2>\n<ul>\n"
            for finding in byCase[key] ?? [] {
                html += "<li>\(e(finding.node)) \(finding.kind.rawValue): \(e(finding.detail))\(finding.text.map { " “\(e($0))”" } ?? "")</li>\n"
            }
            html += "</ul>\n<img src=\"\(e(file))\" alt=\"\(e(key.language)) at \(key.category.name), \(ProposedSize.describe(key.width)) px\">\n</section>\n"
        }
        return html + "</body></html>\n"
    }
}
