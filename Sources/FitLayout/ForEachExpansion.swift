/// `forEach`: a template subtree repeated once per data row (SwiftUI's `ForEach`), so that a
/// 100-row list travels as 100 rows of data and one template, not 100 copies of the template.
///
/// Like SwiftUI's ForEach, it is not a container: its copies take its place among its
/// parent's children (an hstack spaces them, a grid makes them its rows). The expansion is a
/// document of its own (ids `<id>#<row>`, nested rows `<id>#<outer>#<inner>`, in tree order),
/// which PreparedLayout checks like any document and results are reported in.
///
/// In the template, `{field}` in a `text` or `templates` string is that row's value; a name
/// that is not a field is left as written. The forEach's other properties (`hidden`, `when`,
/// the inherited ones) go to each copy of its children that does not set them itself.
extension PreparedLayout {
    func expandingForEach() throws(LayoutError) -> LayoutDocument {
        let source = document.nodes
        struct Item {
            var node: Int
            /// The new index of its parent, -1 for the root.
            var parent: Int
            /// Into `scopes`: the row whose values are visible here (-1: none).
            var scope: Int
            var suffix: String
            /// A forEach's properties for the copies of its children.
            var carried: LayoutProperties?
        }
        // One entry per row, chained to the enclosing row: nested rows are not copied.
        var scopes: [Scope] = []
        var copiesMade = 0
        var textBudget = LayoutLimits.maxExpandedTextBytes
        var out: [LayoutNode] = []
        out.reserveCapacity(min(LayoutLimits.maxNodes, source.count))
        var stack = [Item(node: root, parent: -1, scope: -1, suffix: "", carried: nil)]
        func at(_ index: Int) -> NodeLocation { source.location(index) }

        while let item = stack.popLast() {
            let node = source[item.node]
            let children = self.children(item.node)
            if node.kind == .forEach {
                let fields = node.properties.fields ?? []
                let values = node.properties.data ?? []
                let rows = fields.isEmpty || children.isEmpty ? 0 : values.count / fields.count
                // Every copy counts, a nested forEach too (it makes no node itself), and the
                // count is checked before pushing: the work is bounded by the node limit.
                let (copies, overflow) = rows.multipliedReportingOverflow(by: children.count)
                copiesMade = overflow ? Int.max : copiesMade + copies
                if copiesMade > LayoutLimits.maxNodes || out.count + stack.count + copies > LayoutLimits.maxNodes {
                    throw .tooManyNodes(count: max(copiesMade, out.count + stack.count + copies), limit: LayoutLimits.maxNodes)
                }
                var carried = node.properties
                carried.fields = nil
                carried.data = nil
                if let outer = item.carried { carried.fillUnset(from: outer, kind: node.kind) }
                for row in (0..<rows).reversed() {
                    var bindings: [String: String] = [:]
                    for (position, field) in fields.enumerated() where bindings[field] == nil {
                        bindings[field] = values[row * fields.count + position]
                    }
                    scopes.append(Scope(values: bindings, outer: item.scope))
                    for child in children.reversed() {
                        stack.append(
                            Item(node: child, parent: item.parent, scope: scopes.count - 1, suffix: "\(item.suffix)#\(row)", carried: carried))
                    }
                }
                continue
            }
            guard out.count < LayoutLimits.maxNodes else { throw .tooManyNodes(count: out.count + 1, limit: LayoutLimits.maxNodes) }
            var copy = node
            copy.id += item.suffix
            copy.parent = item.parent >= 0 ? .index(item.parent) : nil
            if item.scope >= 0 {
                try Self.fillRowValues(&copy.properties, scope: item.scope, scopes: scopes, budget: &textBudget, node: at(item.node))
            }
            if let carried = item.carried { copy.properties.fillUnset(from: carried, kind: copy.kind) }
            out.append(copy)
            let index = out.count - 1
            for child in children.reversed() {
                stack.append(Item(node: child, parent: index, scope: item.scope, suffix: item.suffix, carried: nil))
            }
        }
        return LayoutDocument(nodes: out, summary: document.summary)
    }

    /// `{field}` in a copy's text and templates replaced by the values of row `scope` (and
    /// the rows it is nested in), the text budget charged as they grow.
    fileprivate static func fillRowValues(
        _ properties: inout LayoutProperties, scope: Int, scopes: [Scope], budget textBudget: inout Int, node: NodeLocation
    ) throws(LayoutError) {
        func value(_ name: Substring) -> String? {
            var scope = scope
            while scope >= 0 {
                if let found = scopes[scope].values[String(name)] { return found }
                scope = scopes[scope].outer
            }
            return nil
        }
        if let text = properties.text {
            properties.text = try Self.substitute(text, value, budget: &textBudget, node: node)
        }
        if let templates = properties.templates {
            var filled: [String] = []
            filled.reserveCapacity(templates.count)
            for template in templates {
                filled.append(try Self.substitute(template, value, budget: &textBudget, node: node))
            }
            properties.templates = filled
        }
    }

    /// `{name}` replaced by the row's value. The result is held to the text limit as it grows,
    /// and every string read or built is charged to `budget` (the whole expansion's), so a
    /// short template and long values cannot build unbounded text.
    static func substitute(
        _ text: String, _ value: (Substring) -> String?, budget: inout Int, node: NodeLocation
    ) throws(LayoutError) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        budget -= text.utf8.count
        if budget < 0 {
            throw .invalidProperty(
                node: node, property: "text", reason: "the rows fill in more than \(LayoutLimits.maxExpandedTextBytes) bytes of text in all")
        }
        // One pass over the bytes: each is appended once and removed at most once, so a text
        // of many "{" costs no more than its length.
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        var open: Int? = nil
        for byte in text.utf8 {
            if byte == UInt8(ascii: "}"), let start = open,
                let found = value(Substring(decoding: result[(start + 1)...], as: UTF8.self))
            {
                budget -= found.utf8.count
                if budget < 0 {
                    throw .invalidProperty(
                        node: node, property: "text",
                        reason: "the rows fill in more than \(LayoutLimits.maxExpandedTextBytes) bytes of text in all")
                }
                result.removeSubrange(start...)
                result.append(contentsOf: found.utf8)
                open = nil
                if result.count > LayoutLimits.maxTextBytes {
                    throw .invalidProperty(node: node, property: "text", reason: "longer than \(LayoutLimits.maxTextBytes) bytes once filled in")
                }
                continue
            }
            // A "}" closes the candidate name, found or not: no name is looked up twice.
            if byte == UInt8(ascii: "}") { open = nil }
            if byte == UInt8(ascii: "{") { open = result.count }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}

private struct Scope {
    /// One row: field name → value.
    var values: [String: String]
    /// The enclosing forEach's row, or -1.
    var outer: Int
}

extension LayoutLimits {
    /// Fields of one forEach: names are looked up per `{name}`, so their number is bounded.
    public static let maxForEachFields = 64
    /// Bytes of text a document's forEach rows may fill in altogether: the node limit bounds
    /// the copies, this their text (a 64 KiB template times 10,000 rows would be 640 MB).
    public static let maxExpandedTextBytes = 8 << 20
}

extension LayoutProperties {
    /// Takes from `other` what a forEach passes to its copies (a node of `kind`): `hidden`,
    /// `when` and the inherited properties, where this node sets none of them.
    mutating func fillUnset(from other: LayoutProperties, kind: LayoutNodeKind) {
        // A hidden forEach hides every copy, whatever the copy says: SwiftUI has no way to
        // unhide (as PreparedLayout.inherit).
        if hidden == nil || other.hidden == true { hidden = other.hidden ?? hidden }
        if when == nil { when = other.when }
        // A font and a text style are one choice: a node with either keeps its own. An image
        // keeps its own size: only a font it names itself sizes it (as PreparedLayout.fonts).
        if font == nil && textStyle == nil && kind != .image {
            font = other.font
            textStyle = other.textStyle
        }
        if lineLimit == nil { lineLimit = other.lineLimit }
        if truncation == nil { truncation = other.truncation }
        if minimumScaleFactor == nil { minimumScaleFactor = other.minimumScaleFactor }
        if multilineTextAlignment == nil { multilineTextAlignment = other.multilineTextAlignment }
        if layoutDirection == nil { layoutDirection = other.layoutDirection }
    }
}
