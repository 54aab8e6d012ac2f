/// A layout document: a flat array of nodes that name their parents, so that the depth of the
/// tree never depends on the nesting of JSON or D-Bus values (protocol/layout-document.schema.json).
/// Its `Codable` conformance is the JSON format; reading and writing JSON text is in
/// FitLayoutJSON (`init(json:)`, `json(pretty:)`), so that this module needs no Foundation.
///
/// ```json
/// {"version": 1, "nodes": [
///   {"id": "card", "kind": "firstFit", "axes": "horizontal"},
///   {"id": "row", "parent": "card", "kind": "hstack", "spacing": 8},
///   {"id": "title", "parent": "row", "kind": "text", "text": "Screen time", "textStyle": "body"}]}
/// ```
///
/// People may write the nested form instead — `root` holds the root node, each node its
/// `children`, ids optional (a node without one is `#<its index in the flat form>`, the root
/// `root`; ids beginning with `#` are reserved for these):
///
/// ```json
/// {"version": 1, "root": {"id": "card", "kind": "firstFit", "axes": "horizontal", "children": [
///   {"kind": "hstack", "spacing": 8, "children": [
///     {"id": "title", "kind": "text", "text": "Screen time", "textStyle": "body"}]}]}}
/// ```
///
/// It is read into the flat form (the only one the wire and the engine know); `#1` is the
/// hstack's id there. ``init(root:summary:)`` does the same for a ``LayoutTree`` built in Swift.
public struct LayoutDocument: Hashable, Sendable, Codable {
    /// The format version; 1 is the only one.
    public static let version = 1

    public var nodes: [LayoutNode]
    /// Free text for people (what the document shows); layout ignores it.
    public var summary: String?

    public init(nodes: [LayoutNode], summary: String? = nil) {
        self.nodes = nodes
        self.summary = summary
    }

    private enum Keys: String, CodingKey {
        case version, description, nodes, root
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where Keys(rawValue: key.stringValue) == nil {
            throw LayoutError.malformedDocument(
                "unknown top-level key \"\(key.stringValue)\"; a document has version, description and nodes (or root)")
        }
        if let version = try container.decodeIfPresent(Int.self, forKey: AnyKey("version")), version != Self.version {
            throw LayoutError.malformedDocument("version \(version) is not supported; this engine reads version 1")
        }
        summary = try container.decodeIfPresent(String.self, forKey: AnyKey("description"))
        if container.contains(AnyKey("root")) {
            guard !container.contains(AnyKey("nodes")) else {
                throw LayoutError.malformedDocument("give nodes (the flat form) or root (the nested form), not both")
            }
            nodes = try Self.flatten(try container.decode(NestedNode.self, forKey: AnyKey("root")).tree)
            return
        }
        var list = try container.nestedUnkeyedContainer(forKey: AnyKey("nodes"))
        // Refuse before decoding a node, so that a huge document costs no more than its parse.
        if let count = list.count, count > LayoutLimits.maxNodes {
            throw LayoutError.tooManyNodes(count: count, limit: LayoutLimits.maxNodes)
        }
        var nodes: [LayoutNode] = []
        nodes.reserveCapacity(list.count ?? 0)
        while !list.isAtEnd {
            nodes.append(try list.decode(NodeObject.self).node)
        }
        self.nodes = nodes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Self.version, forKey: .version)
        try container.encodeIfPresent(summary, forKey: .description)
        try container.encode(nodes.map(NodeObject.init), forKey: .nodes)
    }
}

/// A node with its children inside it: the nested form of a document, for people and for
/// programs that build a tree (``LayoutDocument/init(root:summary:)`` flattens it).
public struct LayoutTree: Hashable, Sendable {
    /// nil: `#<its index in the flat form>`, or `root` for the root.
    public var id: String?
    public var kind: String
    public var properties: [String: LayoutPropertyValue]
    public var children: [LayoutTree]

    public init(
        _ kind: String, id: String? = nil, _ properties: [String: LayoutPropertyValue] = [:], children: [LayoutTree] = []
    ) {
        self.id = id
        self.kind = kind
        self.properties = properties
        self.children = children
    }
}

extension LayoutDocument {
    /// The flat document of a tree: nodes in tree order (a parent before its children), each
    /// naming its parent by index. Properties are checked as in any document.
    public init(root: LayoutTree, summary: String? = nil) throws(LayoutError) {
        self.init(nodes: try Self.flatten(root), summary: summary)
    }

    /// Iterative, so that the depth of a tree built in Swift never drives the stack (the
    /// depth limit is checked when the document is prepared).
    /// What the ids the nested form generates begin with (`#3`); refused in the ids it is given.
    public static let generatedIDPrefix = "#"

    static func flatten(_ root: LayoutTree) throws(LayoutError) -> [LayoutNode] {
        var nodes: [LayoutNode] = []
        var stack: [(tree: LayoutTree, parent: Int?)] = [(root, nil)]
        while let (tree, parent) = stack.popLast() {
            guard nodes.count < LayoutLimits.maxNodes else { throw .tooManyNodes(count: nodes.count + 1, limit: LayoutLimits.maxNodes) }
            // A generated id is short at any depth (`<parent's id>.<position>` passed the
            // 256-byte id limit ~126 levels down, below the depth limit) and cannot collide:
            // `#` begins no id a person gives here.
            if let given = tree.id, given.hasPrefix(Self.generatedIDPrefix) {
                throw .invalidID(
                    node: NodeLocation(index: nodes.count, id: given),
                    reason: "ids beginning with \"\(Self.generatedIDPrefix)\" are reserved for the ids the nested form gives nodes without one")
            }
            let id = tree.id ?? (parent == nil ? "root" : "\(Self.generatedIDPrefix)\(nodes.count)")
            nodes.append(
                try LayoutNode(id: id, parent: parent.map(NodeReference.index), kind: tree.kind, properties: tree.properties, index: nodes.count))
            let index = nodes.count - 1
            for child in tree.children.reversed() { stack.append((child, index)) }
        }
        return nodes
    }
}

/// One node of the nested form as JSON: its properties beside `kind` and `id`, its children in
/// `children`.
private struct NestedNode: Decodable {
    var tree: LayoutTree

    init(from decoder: any Decoder) throws {
        // Two coding-path entries per level ("children", position): refuse a nesting the
        // prepared document would refuse anyway, before it recurses further.
        guard decoder.codingPath.count <= 2 * LayoutLimits.maxDepth + 2 else {
            throw LayoutError.malformedDocument("nodes are nested more than \(LayoutLimits.maxDepth) levels below the root")
        }
        let container = try decoder.container(keyedBy: AnyKey.self)
        let place = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        guard let kind = try? container.decode(String.self, forKey: AnyKey("kind")) else {
            throw LayoutError.malformedDocument("the node at \(place) needs a string \"kind\"")
        }
        var id: String?
        if container.contains(AnyKey("id")) {
            guard let name = try? container.decode(String.self, forKey: AnyKey("id")) else {
                throw LayoutError.malformedDocument("the id of the node at \(place) is not a string")
            }
            id = name
        }
        if container.contains(AnyKey("parent")) {
            throw LayoutError.malformedDocument("the node at \(place) names a parent; in the nested form its place says it")
        }
        var children: [LayoutTree] = []
        if container.contains(AnyKey("children")) {
            var list = try container.nestedUnkeyedContainer(forKey: AnyKey("children"))
            if let count = list.count, count > LayoutLimits.maxNodes {
                throw LayoutError.tooManyNodes(count: count, limit: LayoutLimits.maxNodes)
            }
            while !list.isAtEnd { children.append(try list.decode(NestedNode.self).tree) }
        }
        // Its index is known only once the tree is flattened: name the node by its place.
        let values: [String: LayoutPropertyValue]
        do {
            values = try decodeProperties(container, skipping: ["id", "kind", "children"], at: NodeLocation(index: 0, id: id ?? place))
        } catch LayoutError.invalidProperty(_, let property, let reason) {
            throw LayoutError.malformedDocument("the node at \(place): invalid \"\(property)\": \(reason)")
        }
        tree = LayoutTree(kind, id: id, values, children: children)
    }
}

/// A node's properties from its JSON object. A forEach's `data` may also be written as an
/// array of objects (one per row, field → string): it becomes `fields` (the names, sorted) and
/// the flat `data`, a missing value being "". Such rows name their fields, so a `fields` beside
/// them is refused: which of the two won depended on the order the decoder lists the keys in,
/// which JSONDecoder leaves unspecified.
private func decodeProperties(
    _ container: KeyedDecodingContainer<AnyKey>, skipping: [String], at location: NodeLocation
) throws -> [String: LayoutPropertyValue] {
    var values: [String: LayoutPropertyValue] = [:]
    for key in container.allKeys where !skipping.contains(key.stringValue) {
        if let value = try? container.decode(LayoutPropertyValue.self, forKey: key) {
            values[key.stringValue] = value
        } else if key.stringValue == "data", let rows = try? container.decode([[String: String]].self, forKey: key) {
            guard !container.contains(AnyKey("fields")) else {
                throw LayoutError.invalidProperty(
                    node: location, property: "fields",
                    reason: "data written as rows of objects names its fields itself; leave fields out, or write data as a flat array of strings")
            }
            // Counted before the flat data is built: rows × fields would otherwise be
            // allocated for any number of distinct keys (10,000 rows of one new key each).
            let names = Set(rows.flatMap(\.keys))
            guard names.count <= LayoutLimits.maxForEachFields else {
                throw LayoutError.invalidProperty(
                    node: location, property: "data",
                    reason: "the rows name \(names.count) distinct fields; at most \(LayoutLimits.maxForEachFields) (LayoutLimits.maxForEachFields)")
            }
            let fields = names.sorted()
            values["fields"] = .strings(fields)
            values["data"] = .strings(rows.flatMap { row in fields.map { row[$0] ?? "" } })
        } else {
            throw LayoutError.invalidProperty(
                node: location, property: key.stringValue, reason: "expected a string, number, boolean or array of strings")
        }
    }
    return values
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

/// One node as a JSON object: id, parent, kind and its properties side by side.
private struct NodeObject: Codable {
    var node: LayoutNode

    init(_ node: LayoutNode) { self.node = node }

    init(from decoder: any Decoder) throws {
        let index = decoder.codingPath.last?.intValue ?? 0
        let container = try decoder.container(keyedBy: AnyKey.self)
        let id = (try? container.decode(String.self, forKey: AnyKey("id"))) ?? ""
        let location = NodeLocation(index: index, id: id)
        guard container.contains(AnyKey("id")) else {
            throw LayoutError.invalidID(node: location, reason: "every node needs a string \"id\"")
        }
        guard let kind = try? container.decode(String.self, forKey: AnyKey("kind")) else {
            throw LayoutError.missingProperty(node: location, property: "kind")
        }
        var parent: NodeReference?
        if container.contains(AnyKey("parent")), try !container.decodeNil(forKey: AnyKey("parent")) {
            if let name = try? container.decode(String.self, forKey: AnyKey("parent")) {
                parent = .id(name)
            } else if let position = try? container.decode(Int.self, forKey: AnyKey("parent")) {
                parent = .index(position)
            } else {
                throw LayoutError.invalidProperty(node: location, property: "parent", reason: "expected an id (string) or an index (integer)")
            }
        }
        if container.contains(AnyKey("children")) {
            throw LayoutError.invalidProperty(
                node: location, property: "children", reason: "children are for the nested form (a document with root, not nodes)")
        }
        let values = try decodeProperties(container, skipping: ["id", "kind", "parent"], at: location)
        node = try LayoutNode(id: id, parent: parent, kind: kind, properties: values, index: index)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(node.id, forKey: AnyKey("id"))
        switch node.parent {
        case .id(let name): try container.encode(name, forKey: AnyKey("parent"))
        case .index(let position): try container.encode(position, forKey: AnyKey("parent"))
        case nil: break
        }
        try container.encode(node.kind.rawValue, forKey: AnyKey("kind"))
        for (name, value) in node.properties.values {
            try container.encode(value, forKey: AnyKey(name))
        }
    }
}
