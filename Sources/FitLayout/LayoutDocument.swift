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
        case version, description, nodes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where Keys(rawValue: key.stringValue) == nil {
            throw LayoutError.malformedDocument(
                "unknown top-level key \"\(key.stringValue)\"; a document has version, description and nodes")
        }
        if let version = try container.decodeIfPresent(Int.self, forKey: AnyKey("version")), version != Self.version {
            throw LayoutError.malformedDocument("version \(version) is not supported; this engine reads version 1")
        }
        summary = try container.decodeIfPresent(String.self, forKey: AnyKey("description"))
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
        var values: [String: LayoutPropertyValue] = [:]
        for key in container.allKeys where !["id", "kind", "parent"].contains(key.stringValue) {
            guard let value = try? container.decode(LayoutPropertyValue.self, forKey: key) else {
                throw LayoutError.invalidProperty(
                    node: location, property: key.stringValue, reason: "expected a string, number, boolean or array of strings")
            }
            values[key.stringValue] = value
        }
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
