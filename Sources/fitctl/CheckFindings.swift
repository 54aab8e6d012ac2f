import FitLayout

/// What `fitctl check` found in one language at one size category and width, against the
/// source language's layout at the same category and width.
struct CheckFinding: Sendable {
    enum Kind: String, Sendable {
        /// A text ellipsized or cut by its line limit where the source language's is not.
        case truncated
        /// A frame reaching outside its parent, or the root wider than the proposal.
        case overflow
        /// A decision that chose otherwise than in the source language (not a failure by
        /// itself: it is what adaptive layout is for).
        case decision
        /// A message the catalog has no translation for: measured in the source language.
        case missing
        /// A translation whose printf conversions need arguments the text node's `args` does
        /// not give (`msgfmt -c` refuses such a catalog; the app would print garbage or
        /// crash): measured as written.
        case placeholders
    }

    var kind: Kind
    var language: String
    var category: SizeCategory?
    var width: Double?
    var node: String
    /// The text as laid out (the translation), for truncated texts and missing messages.
    var text: String?
    var detail: String
    /// A truncated text's frame width: the room it had.
    var frameWidth: Double? = nil
    /// Whether it makes `check` fail (exit status 1).
    var failing: Bool { kind == .truncated || kind == .overflow || kind == .placeholders }
}

/// A language's widest text against its room over every case checked: texts with a line
/// limit only (a text that may wrap without limit always has room), its room the frame's
/// width, in whole px as GTK allocates it, times its lines.
struct WorstString: Sendable {
    var node: String
    var text: String
    /// GtkLabel's natural width of the text (unwrapped) and the width its frame has.
    var naturalWidth: Double
    var room: Double
    var category: SizeCategory
    var width: Double?
    var ratio: Double { room > 0 ? naturalWidth / room : .infinity }
}

enum CheckAnalysis {
    /// Rounding the engine's frames may leave: Pango's unit, 1/1024 px.
    static let tolerance = 1.0 / 1024

    /// The findings of `result` (in `language`) against `source` (the same document in the
    /// source language, same category and width). Both are layouts of one structure, so nodes
    /// correspond by position. `parents[i]` is node i's parent index in the laid-out document.
    static func compare(
        _ result: LayoutResult, with source: LayoutResult, document: LayoutDocument, parents: [Int?], language: String,
        category: SizeCategory, width: Double?
    ) -> [CheckFinding] {
        var found: [CheckFinding] = []
        func finding(_ kind: CheckFinding.Kind, _ node: String, text: String? = nil, _ detail: String, frameWidth: Double? = nil) {
            found.append(CheckFinding(
                kind: kind, language: language, category: category, width: width, node: node, text: text, detail: detail, frameWidth: frameWidth))
        }
        let count = min(result.nodes.count, source.nodes.count, document.nodes.count, parents.count)
        let overflowsInSource = Set(overflows(source, document: document, parents: parents).map(\.node))
        for index in 0..<count {
            let node = result.nodes[index]
            guard node.visible, !node.hidden, let outcome = node.text, outcome.truncated else { continue }
            if source.nodes[index].text?.truncated == true { continue }
            // Pango ellipsizes where SwiftUI truncates (truncation: head, middle, tail); a text
            // is cut either at its line limit or where its frame's height ends.
            let size = "\(ProposedSize.describe(node.frame.width)) px"
            let how = document.nodes[index].properties.lineLimit.map { "ellipsized at its line limit (\($0)) in \(size)" }
                ?? "ellipsized to its frame, \(size) × \(ProposedSize.describe(node.frame.height)) px"
            finding(.truncated, node.id, text: document.nodes[index].properties.text, how, frameWidth: node.frame.width)
        }
        for overflow in overflows(result, document: document, parents: parents) where !overflowsInSource.contains(overflow.node) {
            finding(.overflow, result.nodes[overflow.node].id, overflow.detail)
        }
        if let width, result.size.width > width + tolerance, source.size.width <= width + tolerance {
            finding(.overflow, result.nodes.first?.id ?? "root", "\(ProposedSize.describe(result.size.width)) px wide in a proposal of \(ProposedSize.describe(width)) px")
        }
        for decision in result.decisions {
            guard let theirs = source.decisions.first(where: { $0.id == decision.id }) else { continue }
            let differs = decision.candidate != theirs.candidate || decision.axis != theirs.axis
            if differs { finding(.decision, decision.id, "\(decision.outcome) where the source language has \(theirs.outcome)") }
        }
        return found
    }

    /// Shown nodes whose frame reaches outside their shown parent's by more than ``tolerance``;
    /// a scroll view's content is meant to and is left out.
    static func overflows(_ result: LayoutResult, document: LayoutDocument, parents: [Int?]) -> [(node: Int, detail: String)] {
        var found: [(Int, String)] = []
        for index in result.nodes.indices where index < parents.count {
            guard let parent = parents[index], parent < result.nodes.count, document.nodes[parent].kind != .scroll else { continue }
            let child = result.nodes[index]
            let outer = result.nodes[parent]
            guard child.visible, !child.hidden, outer.visible, !outer.hidden else { continue }
            let left = outer.frame.x - child.frame.x
            let right = (child.frame.x + child.frame.width) - (outer.frame.x + outer.frame.width)
            let beyond = max(left, right)
            if beyond > tolerance {
                found.append((index, "\(ProposedSize.describe(beyond)) px outside \(outer.id) (\(ProposedSize.describe(child.frame.width)) px in \(ProposedSize.describe(outer.frame.width)) px)"))
            }
        }
        return found
    }

    /// Each node's parent index in `document` (ids or positions, as the document names them).
    static func parents(of document: LayoutDocument) -> [Int?] {
        var byID: [String: Int] = [:]
        for (index, node) in document.nodes.enumerated() where byID[node.id] == nil { byID[node.id] = index }
        return document.nodes.map { node in
            switch node.parent {
            case .none: return nil
            case .index(let index): return index
            case .id(let id): return byID[id]
            }
        }
    }

    /// The widest shown text of `result` against its frame (GtkLabel's natural width, from
    /// the layout's widget sizes).
    static func worstString(_ result: LayoutResult, document: LayoutDocument, category: SizeCategory, width: Double?) -> WorstString? {
        var worst: WorstString?
        for (index, node) in result.nodes.enumerated() where index < document.nodes.count {
            guard node.visible, !node.hidden, let label = node.labelSize, let text = document.nodes[index].properties.text,
                let lines = document.nodes[index].properties.lineLimit
            else { continue }
            let candidate = WorstString(
                node: node.id, text: text, naturalWidth: Double(label.naturalWidth), room: node.frame.width.rounded(.up) * Double(lines),
                category: category, width: width)
            if let known = worst, candidate.ratio <= known.ratio { continue }
            worst = candidate
        }
        return worst
    }
}
