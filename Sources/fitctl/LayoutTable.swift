import FitJSON
import FitLayout
import Foundation

/// `fitctl fit` as text: per node its kind and frame at every width, indented by depth, then
/// what each decision chose at every width.
struct LayoutTable {
    let document: LayoutDocument
    let unit: String

    func render(_ results: [LayoutResult]) -> String {
        let depths = self.depths()
        var rows: [[String]] = [["node", "kind"] + results.map { "width \(Self.format($0.proposal.width)): x,y w×h" }]
        for (index, node) in document.nodes.enumerated() {
            let name = String(repeating: "  ", count: min(depths[index], 20)) + node.id
            rows.append([name, node.kind.rawValue] + results.map { $0.nodes.indices.contains(index) ? Self.cell($0.nodes[index]) : "?" })
        }
        var out = "size (\(unit)): " + results.map { "\(Self.format($0.size.width))×\(Self.format($0.size.height))" }.joined(separator: "   ")
        out += "\n\n" + Self.columns(rows)
        let decisionNodes = document.nodes.indices.filter { document.nodes[$0].kind.isDecision }
        if !decisionNodes.isEmpty {
            var table: [[String]] = [["decision", "kind"] + results.map { "width \(Self.format($0.proposal.width))" }]
            for index in decisionNodes {
                let node = document.nodes[index]
                table.append([node.id, node.kind.rawValue] + results.map { result in
                    result.decisions.first { $0.nodeIndex == index }.map(Self.outcome) ?? "(not shown)"
                })
            }
            out += "\n\n" + Self.columns(table)
        }
        if results.contains(where: \.truncated) {
            out += "\n\ntruncated at width " + results.filter(\.truncated).map { Self.format($0.proposal.width) }.joined(separator: ", ")
        }
        return out
    }

    static func cell(_ node: NodeLayout) -> String {
        guard node.visible else { return "—" }
        let frame = node.frame
        var text = "\(format(frame.x)),\(format(frame.y)) \(format(frame.width))×\(format(frame.height))"
        if let outcome = node.text {
            if outcome.scale != 1 { text += " ×\(format(outcome.scale))" }
            if outcome.lineCount != 1 { text += " \(outcome.lineCount)L" }
            if outcome.truncated { text += " …" }
        }
        if node.hidden { text += " hidden" }
        return text
    }

    static func outcome(_ decision: LayoutDecision) -> String { decision.outcome }

    /// Depth of every node, by walking parents; bounded by the node count, so a document the
    /// engine accepted (no cycles) always ends.
    func depths() -> [Int] {
        var indexOfID: [String: Int] = [:]
        for (index, node) in document.nodes.enumerated() { indexOfID[node.id] = index }
        func parent(_ index: Int) -> Int? {
            switch document.nodes[index].parent {
            case nil: return nil
            case .index(let position): return document.nodes.indices.contains(position) ? position : nil
            case .id(let name): return indexOfID[name]
            }
        }
        return document.nodes.indices.map { start in
            var depth = 0
            var node = start
            while let next = parent(node), depth < document.nodes.count {
                depth += 1
                node = next
            }
            return depth
        }
    }

    static func columns(_ rows: [[String]]) -> String {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                column == row.count - 1 ? text : text + String(repeating: " ", count: widths[column] - text.count + 2)
            }.joined()
        }.joined(separator: "\n")
    }

    /// The table's shorthand for ``ProposedSize/describe(_:)``.
    static func format(_ value: Double?) -> String { ProposedSize.describe(value) }
}

/// `fitctl fit --json`: the result, or {"layouts": [...]} for several widths; field names in
/// snake_case like every other --json (docs/users-shell-script.md), not Codable's camelCase.
/// A non-finite number is written as the string "infinity" ("-infinity", "nan"), as
/// documents spell it; an absent optional is left out. Order:
/// - result: proposal {width, height}, size {width, height}, truncated, nodes, decisions,
///   breakpoints
/// - node: id, visible, hidden, frame {x, y, width, height}, text {scale, line_count,
///   truncated, alignment}, first_baseline, last_baseline
/// - decision: id, node_index, kind, candidate, candidate_id, axis, length, scale
/// - breakpoints: range {from, to, step}, min_content_width, max_content_width, decisions
///   (per decision node id, in document order: [{from, to, exact_from, exact_from_sp,
///   candidate, axis}]: exact_from the outcome's first width to 1/1024 px, exact_from_sp the
///   same in sp at text_scale), text_scale (the one the layout was measured at), truncated, root_id
enum LayoutJSON {
    static func string(_ results: [LayoutResult], single: Bool, document: LayoutDocument) -> String {
        var w = JSONWriter(reservingCapacity: 4096)
        let order = Dictionary(document.nodes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        if single, let only = results.first {
            write(only, order: order, to: &w)
        } else {
            w.beginObject()
            w.key("layouts")
            w.beginArray()
            for result in results { write(result, order: order, to: &w) }
            w.endArray()
            w.endObject()
        }
        return w.string
    }

    static func number(_ value: Double, to w: inout JSONWriter) {
        if value.isFinite {
            w.number(value)
        } else {
            w.string(value.isNaN ? "nan" : value > 0 ? "infinity" : "-infinity")
        }
    }

    static func member(_ name: String, _ value: Double?, to w: inout JSONWriter) {
        guard let value else { return }
        w.key(name)
        number(value, to: &w)
    }

    static func write(_ result: LayoutResult, order: [String: Int], to w: inout JSONWriter) {
        w.beginObject()
        w.key("proposal")
        w.beginObject()
        member("width", result.proposal.width, to: &w)
        member("height", result.proposal.height, to: &w)
        w.endObject()
        w.key("size")
        w.beginObject()
        member("width", result.size.width, to: &w)
        member("height", result.size.height, to: &w)
        w.endObject()
        w.member("truncated", result.truncated)
        w.key("nodes")
        w.beginArray()
        for node in result.nodes { write(node, to: &w) }
        w.endArray()
        w.key("decisions")
        w.beginArray()
        for decision in result.decisions { write(decision, to: &w) }
        w.endArray()
        if let found = result.breakpoints { write(found, order: order, to: &w) }
        w.endObject()
    }

    /// One node's frame, text outcome, label size and baselines.
    static func write(_ node: NodeLayout, to w: inout JSONWriter) {
        w.beginObject()
        w.member("id", node.id)
        w.member("visible", node.visible)
        w.member("hidden", node.hidden)
        w.key("frame")
        w.beginObject()
        member("x", node.frame.x, to: &w)
        member("y", node.frame.y, to: &w)
        member("width", node.frame.width, to: &w)
        member("height", node.frame.height, to: &w)
        w.endObject()
        if let text = node.text {
            w.key("text")
            w.beginObject()
            member("scale", text.scale, to: &w)
            w.member("line_count", text.lineCount)
            w.member("truncated", text.truncated)
            if let alignment = text.alignment { w.member("alignment", alignment.rawValue) }
            w.endObject()
        }
        if let size = node.labelSize { MetricsJSON.write(size, to: &w) }
        member("first_baseline", node.firstBaseline, to: &w)
        member("last_baseline", node.lastBaseline, to: &w)
        w.endObject()
    }

    /// One decision: the candidate or axis taken, and the length and scale it decided at.
    static func write(_ decision: LayoutDecision, to w: inout JSONWriter) {
        w.beginObject()
        w.member("id", decision.id)
        w.member("node_index", decision.nodeIndex)
        w.member("kind", decision.kind.rawValue)
        if let candidate = decision.candidate { w.member("candidate", candidate) }
        if let candidateID = decision.candidateID { w.member("candidate_id", candidateID) }
        if let candidateIDs = decision.candidateIDs { w.member("candidate_ids", candidateIDs) }
        if let axis = decision.axis { w.member("axis", axis.rawValue) }
        member("length", decision.length, to: &w)
        member("scale", decision.scale, to: &w)
        w.endObject()
    }

    /// The breakpoints: each decision's intervals, decisions in document order (`order`: a
    /// node id's index).
    static func write(_ found: LayoutBreakpoints, order: [String: Int], to w: inout JSONWriter) {
        w.key("breakpoints")
        w.beginObject()
        w.key("range")
        w.beginObject()
        member("from", found.range.from, to: &w)
        member("to", found.range.to, to: &w)
        member("step", found.range.step, to: &w)
        w.endObject()
        member("min_content_width", found.minContentWidth, to: &w)
        member("max_content_width", found.maxContentWidth, to: &w)
        w.key("decisions")
        w.beginObject()
        // Document order; an id the document does not have (not expected) after, by name.
        let ids = found.decisions.keys.sorted { (order[$0] ?? Int.max, $0) < (order[$1] ?? Int.max, $1) }
        for id in ids {
            w.key(id)
            w.beginArray()
            for interval in found.decisions[id] ?? [] {
                w.beginObject()
                member("from", interval.from, to: &w)
                member("to", interval.to, to: &w)
                member("exact_from", interval.exactFrom, to: &w)
                if let scale = found.textScale, scale > 0 { member("exact_from_sp", interval.exactFrom.map { $0 / scale }, to: &w) }
                if let candidate = interval.candidate { w.member("candidate", candidate) }
                if let axis = interval.axis { w.member("axis", axis.rawValue) }
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        member("text_scale", found.textScale, to: &w)
        w.member("truncated", found.truncated)
        if let rootID = found.rootID { w.member("root_id", rootID) }
        w.endObject()
    }
}
