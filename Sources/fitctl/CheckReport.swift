import FitLayout
import FitTranslations

/// Everything `fitctl check` found: the findings per language, category and width, each
/// language's worst string and the width each decision's candidates need.
struct CheckReport: Sendable {
    var sourceLanguage: String
    /// The languages checked (not the source), in order.
    var languages: [String]
    var categories: [SizeCategory]
    var widths: [Double?]
    /// Where the breakpoint search began: a candidate shown from there needs no condition.
    var rangeFrom: Double
    var findings: [CheckFinding]
    var worst: [(language: String, string: WorstString)]
    var needed: [CandidateWidth]
    /// Per decision, its candidates' ids (its children in the document), for names.
    var candidateIDs: [String: [String]]
    var layouts: Int
    /// Cases (language × category × width) with at least one failing finding.
    var failingCases: Set<CaseKey>

    struct CaseKey: Hashable, Sendable {
        var language: String
        var category: SizeCategory
        var width: Double?
    }

    var fails: Bool { findings.contains(where: \.failing) }

    static func compile(_ plan: CheckPlan, run: CheckPlan.Run) -> CheckReport {
        let (languages, jobs) = (run.languages, run.jobs)
        let shown = (try? PreparedLayout(plan.document.source))?.document ?? plan.document.source
        let parents = CheckAnalysis.parents(of: shown)
        var report = CheckReport(
            sourceLanguage: plan.sourceLanguage, languages: languages.dropFirst().map(\.name), categories: plan.categories,
            widths: plan.widths, rangeFrom: plan.range.from, findings: [], worst: [], needed: [], candidateIDs: [:], layouts: 0, failingCases: [])
        func children(_ index: Int) -> [Int] { shown.nodes.indices.filter { parents[$0] == index } }
        for (index, node) in shown.nodes.enumerated() {
            switch node.kind {
            case .firstFit:
                report.candidateIDs[node.id] = children(index).map { shown.nodes[$0].id }
            case .uniformFit:
                // Its candidates are the children of each `choice` item (docs/swiftui-layout.md
                // 3.2): named by the first item's.
                let choice = children(index).first { shown.nodes[$0].kind == .choice }
                report.candidateIDs[node.id] = choice.map { children($0).map { shown.nodes[$0].id } } ?? []
            default:
                continue
            }
        }
        var needed: [String: CandidateWidth] = [:]
        guard let sourceJobs = jobs.first else { return report }
        for (index, language) in languages.enumerated() {
            let laidOut = (try? PreparedLayout(language.document))?.document ?? language.document
            for message in language.missing {
                report.findings.append(CheckFinding(
                    kind: .missing, language: language.name, node: "", text: message.sourceText,
                    detail: "no translation of \"\(message.description)\"; measured in the source language"))
            }
            for message in language.misformatted {
                report.findings.append(CheckFinding(
                    kind: .placeholders, language: language.name, node: message.node, text: message.reference.sourceText,
                    detail: message.detail))
            }
            var worst: WorstString?
            for job in jobs[index] {
                let category = plan.categories[job.category]
                report.layouts += job.results.count
                if let found = job.results.first?.breakpoints {
                    CheckBreakpoints.merge(found, language: language.name, category: category, candidates: report.candidateIDs, into: &needed)
                }
                guard index > 0, job.category < sourceJobs.count else { continue }
                for (position, result) in job.results.enumerated() where position < sourceJobs[job.category].results.count {
                    let width = plan.widths[position]
                    let found = CheckAnalysis.compare(
                        result, with: sourceJobs[job.category].results[position], document: laidOut, parents: parents,
                        language: language.name, category: category, width: width)
                    if found.contains(where: \.failing) { report.failingCases.insert(CaseKey(language: language.name, category: category, width: width)) }
                    report.findings += found
                    if let candidate = CheckAnalysis.worstString(result, document: laidOut, category: category, width: width),
                        worst.map({ candidate.ratio > $0.ratio }) ?? true
                    {
                        worst = candidate
                    }
                }
            }
            if index > 0, let worst { report.worst.append((language.name, worst)) }
        }
        report.needed = needed.values.sorted { a, b in
            (a.decision, a.category.index, a.candidate) < (b.decision, b.category.index, b.candidate)
        }
        return report
    }
}
