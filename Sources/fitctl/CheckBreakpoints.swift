import FitLayout

/// Per decision and candidate, the smallest width from which the decision shows that
/// candidate or a preferred one (an earlier child) at every wider width of the range — the
/// width the candidate needs — in the language that needs the most.
struct CandidateWidth: Sendable {
    var decision: String
    var category: SizeCategory
    var candidate: Int
    /// nil: in some language the candidate is not reached even at the range's widest width.
    var width: Double?
    /// The language that needs ``width`` (or that never fits).
    var language: String
}

enum CheckBreakpoints {
    /// Per candidate, the start of the run of widths up to the range's end
    /// where the outcome is that candidate or an earlier one; nil where the last interval shows
    /// a later one (or the decision hidden). Exact flips where the search found them.
    /// `candidates` is how many the decision has (its children): one never shown gets nil too.
    static func smallestWidths(_ intervals: [DecisionInterval], candidates: Int) -> [Int: Double?] {
        let seen = intervals.compactMap(\.candidate).max() ?? -1
        var widths: [Int: Double?] = [:]
        for candidate in 0..<max(candidates, seen + 1) {
            var start: Double?
            for interval in intervals.reversed() {
                guard let shown = interval.candidate, shown >= 0, shown <= candidate else { break }
                start = interval.exactFrom ?? interval.from
            }
            widths[candidate] = start
        }
        return widths
    }

    /// Merges one language's breakpoints into `needed` (keyed by decision, category and
    /// candidate): the widest need wins; a candidate never reached wins over any width.
    static func merge(
        _ found: LayoutBreakpoints, language: String, category: SizeCategory, candidates: [String: [String]],
        into needed: inout [String: CandidateWidth]
    ) {
        for (decision, intervals) in found.decisions {
            for (candidate, width) in smallestWidths(intervals, candidates: candidates[decision]?.count ?? 0) {
                let key = "\(decision)\u{0}\(category.name)\u{0}\(candidate)"
                let entry = CandidateWidth(decision: decision, category: category, candidate: candidate, width: width, language: language)
                guard let known = needed[key] else {
                    needed[key] = entry
                    continue
                }
                switch (known.width, width) {
                case (.some(let a), .some(let b)) where b > a: needed[key] = entry
                case (.some, .none): needed[key] = entry
                default: break
                }
            }
        }
    }

    /// The libadwaita condition (AdwBreakpoint's grammar, adw-breakpoint.c: `max-width: 512sp`)
    /// under which a layout must fall back from a candidate that needs `width` px: GTK
    /// allocates whole px, so the fallback holds up to ⌈width⌉ − 1 px; written in sp (1 sp is
    /// the text scale factor's px, adw-length-unit.c) half a px above that, so that the
    /// conversion back to px never lands on the wrong side.
    static func fallbackCondition(below width: Double, textScale: Double) -> (px: String, sp: String) {
        let lastFallback = width.rounded(.up) - 1
        let sp = (lastFallback + 0.5) / max(textScale, 0.01)
        return ("max-width: \(ProposedSize.describe(lastFallback))px", "max-width: \(ProposedSize.describe((sp * 100).rounded() / 100))sp")
    }
}
