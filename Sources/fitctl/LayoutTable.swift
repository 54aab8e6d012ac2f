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

    static func format(_ value: Double?) -> String {
        guard let value else { return "ideal" }
        if value == .infinity { return "inf" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

/// `fitctl fit --json`: the result (LayoutResult's Codable form), or {"layouts": [...]} for
/// several widths. Infinity is written as the string "infinity", as documents spell it.
enum LayoutJSON {
    static func string(_ results: [LayoutResult], single: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "infinity", negativeInfinity: "-infinity", nan: "nan")
        let data: Data
        if single, let only = results.first {
            data = try encoder.encode(only)
        } else {
            data = try encoder.encode(["layouts": results])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
