import FitJSON
import FitLayout
import FitRender

/// `fitctl check`'s report for people (a table), for programs (`--json`, in the writer and
/// key style of every fitctl `--json`) and for CI (`--junit`).
extension CheckReport {
    static func px(_ value: Double?) -> String { ProposedSize.describe(value) }

    func candidateName(_ decision: String, _ candidate: Int) -> String {
        let ids = candidateIDs[decision] ?? []
        return candidate < ids.count ? "candidate \(candidate) (\(ids[candidate]))" : "candidate \(candidate)"
    }

    func table(textScale: Double, document: String, elapsed: Duration) -> String {
        var out = "\(document): \(languages.count) languages × \(categories.count) categories × \(widths.count) widths, \(layouts) layouts in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))\n"
        let failing = findings.filter(\.failing)
        if failing.isEmpty {
            out += "everything fits\n"
        } else {
            out += "\n\(failing.count) problem\(failing.count == 1 ? "" : "s") (language, category, width, node, what):\n"
            for finding in failing {
                var line = "  \(finding.language)  \(finding.category?.name ?? "-")  \(Self.px(finding.width)) px  \(finding.node)  \(finding.kind.rawValue): \(finding.detail)"
                if let text = finding.text { line += "  \"\(text)\"" }
                out += line + "\n"
            }
        }
        let missing = findings.filter { $0.kind == .missing }
        if !missing.isEmpty {
            out += "\n\(missing.count) message\(missing.count == 1 ? "" : "s") without a translation (measured in the source language):\n"
            for finding in missing.prefix(50) { out += "  \(finding.language): \(finding.detail)\n" }
            if missing.count > 50 { out += "  … \(missing.count - 50) more (--json lists them all)\n" }
        }
        let decisions = findings.filter { $0.kind == .decision }
        if !decisions.isEmpty {
            out += "\n\(decisions.count) decision\(decisions.count == 1 ? "" : "s") taken otherwise than in \(sourceLanguage):\n"
            for finding in decisions.prefix(20) {
                out += "  \(finding.language)  \(finding.category?.name ?? "-")  \(Self.px(finding.width)) px  \(finding.node): \(finding.detail)\n"
            }
            if decisions.count > 20 { out += "  … \(decisions.count - 20) more (--json lists them all)\n" }
        }
        if !worst.isEmpty {
            out += "\nworst string per language (GtkLabel's natural width against its frame):\n"
            for (language, string) in worst.sorted(by: { $0.string.ratio > $1.string.ratio }) {
                out += "  \(language)  \(string.node) \"\(string.text)\"  \(Self.px(string.naturalWidth)) px in \(Self.px(string.room)) px (\(string.category.name), width \(Self.px(string.width)))\n"
            }
        }
        if !needed.isEmpty {
            out += "\nwidth each candidate needs in every language (exact; sp at text scale \(Self.px(textScale))), and the libadwaita condition to fall back below it:\n"
            for entry in needed {
                let name = candidateName(entry.decision, entry.candidate)
                guard let width = entry.width else {
                    out += "  \(entry.decision) \(entry.category.name): \(name) not reached in \(entry.language) within the range (--breakpoints searches wider)\n"
                    continue
                }
                guard width > rangeFrom else {
                    out += "  \(entry.decision) \(entry.category.name): \(name) at every width from \(Self.px(rangeFrom)) px\n"
                    continue
                }
                let condition = CheckBreakpoints.fallbackCondition(below: width, textScale: textScale)
                out += "  \(entry.decision) \(entry.category.name): \(name) from \(FitCommand.exactWidth(width)) px = \(FitCommand.exactWidth(width / textScale)) sp (\(entry.language)); below: \(condition.sp) (\(condition.px))\n"
            }
        }
        return out
    }

    func json(textScale: Double) -> String {
        var w = JSONWriter(reservingCapacity: 4096)
        w.beginObject()
        w.member("source_language", sourceLanguage)
        w.member("languages", languages)
        w.member("categories", categories.map(\.name))
        w.key("widths")
        w.beginArray()
        for width in widths { if let width { LayoutJSON.number(width, to: &w) } else { w.null() } }
        w.endArray()
        w.member("layouts", layouts)
        w.member("fits", !fails)
        w.key("findings")
        w.beginArray()
        for finding in findings {
            w.beginObject()
            w.member("kind", finding.kind.rawValue)
            w.member("language", finding.language)
            if let category = finding.category { w.member("category", category.name) }
            if let width = finding.width { LayoutJSON.member("width", width, to: &w) }
            if !finding.node.isEmpty { w.member("node", finding.node) }
            if let text = finding.text { w.member("text", text) }
            w.member("detail", finding.detail)
            LayoutJSON.member("frame_width", finding.frameWidth, to: &w)
            w.member("failing", finding.failing)
            w.endObject()
        }
        w.endArray()
        w.key("worst_strings")
        w.beginArray()
        for (language, string) in worst {
            w.beginObject()
            w.member("language", language)
            w.member("node", string.node)
            w.member("text", string.text)
            w.member("natural_width", string.naturalWidth)
            w.member("room", string.room)
            w.member("category", string.category.name)
            LayoutJSON.member("width", string.width, to: &w)
            w.endObject()
        }
        w.endArray()
        w.member("text_scale", textScale)
        w.key("candidate_widths")
        w.beginArray()
        for entry in needed {
            w.beginObject()
            w.member("decision", entry.decision)
            w.member("category", entry.category.name)
            w.member("candidate", entry.candidate)
            if let ids = candidateIDs[entry.decision], entry.candidate < ids.count { w.member("candidate_id", ids[entry.candidate]) }
            w.member("language", entry.language)
            if let width = entry.width {
                w.member("px", width)
                w.member("sp", width / textScale)
                guard width > rangeFrom else {
                    w.endObject()
                    continue
                }
                let condition = CheckBreakpoints.fallbackCondition(below: width, textScale: textScale)
                w.member("fallback_condition", condition.sp)
                w.member("fallback_condition_px", condition.px)
            } else {
                w.key("px")
                w.null()
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.string
    }

    /// JUnit XML as Jenkins and GitLab read it: a test suite per language, a test case per
    /// category and width, a failure per case with what did not fit, and one case for the
    /// language's messages themselves (a translation whose placeholders cannot be filled).
    func junit(document: String) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failing = Dictionary(grouping: findings.filter { $0.failing && $0.category != nil }) {
            CaseKey(language: $0.language, category: $0.category ?? .large, width: $0.width)
        }
        let messageFailures = Dictionary(grouping: findings.filter { $0.failing && $0.category == nil }, by: \.language)
        let cases = categories.count * widths.count + 1
        let failures = failingCases.count + messageFailures.count
        out += "<testsuites name=\"\(Self.xml("fitctl check \(document)"))\" tests=\"\(cases * languages.count)\" failures=\"\(failures)\">\n"
        func testCase(_ language: String, _ name: String, _ found: [CheckFinding]?) {
            out += "    <testcase classname=\"\(Self.xml(document)).\(Self.xml(language))\" name=\"\(Self.xml(name))\""
            guard let found else {
                out += "/>\n"
                return
            }
            out += ">\n      <failure message=\"\(Self.xml("\(found.count) problem\(found.count == 1 ? "" : "s")"))\">"
            out += found.map { Self.xml("\($0.node) \($0.kind.rawValue): \($0.detail)\($0.text.map { " \"\($0)\"" } ?? "")") }.joined(separator: "\n")
            out += "</failure>\n    </testcase>\n"
        }
        for language in languages {
            let failed = failingCases.filter { $0.language == language }.count + (messageFailures[language] == nil ? 0 : 1)
            out += "  <testsuite name=\"\(Self.xml(language))\" tests=\"\(cases)\" failures=\"\(failed)\">\n"
            testCase(language, "messages", messageFailures[language])
            for category in categories {
                for width in widths {
                    testCase(language, "\(category.name) at \(Self.px(width)) px", failing[CaseKey(language: language, category: category, width: width)])
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// XML text and attribute values, as the SVG pictures write them.
    static func xml(_ text: String) -> String { LayoutPicture.escaped(text) }
}
