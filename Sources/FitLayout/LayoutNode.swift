/// What a node is. Layout kinds follow SwiftUI's views and modifiers; decision kinds are the
/// adaptive-layout techniques (docs/swiftui-layout.md, protocol/README.md), each a node whose
/// outcome the result reports.
public enum LayoutNodeKind: String, Hashable, Sendable, Codable, CaseIterable {
    case text, spacer, image, hstack, vstack, zstack, overlay, frame, padding, fixedSize
    case firstFit, uniformFit, threshold, fitting, template, scaleGroup
    /// `scroll` proposes nil along its axis (ScrollView); `choice` shows the child an enclosing
    /// uniformFit decides (docs/swiftui-layout.md 3.2).
    case scroll, choice
    /// Reuse and containers (docs/swiftui-layout.md 4.3, 4.4, 4.6, 4.7): `background`
    /// is an overlay drawn behind; `grid` arranges `gridRow`s in columns; `flow` wraps its items
    /// into lines; `forEach` repeats its children once per data row and is replaced by them.
    case background, grid, gridRow, flow, forEach

    /// The kind's position in `allCases`, by switch: Hashable and == of an enum with raw
    /// values go through the raw string.
    var ordinal: Int {
        switch self {
        case .text: return 0
        case .spacer: return 1
        case .image: return 2
        case .hstack: return 3
        case .vstack: return 4
        case .zstack: return 5
        case .overlay: return 6
        case .frame: return 7
        case .padding: return 8
        case .fixedSize: return 9
        case .firstFit: return 10
        case .uniformFit: return 11
        case .threshold: return 12
        case .fitting: return 13
        case .template: return 14
        case .scaleGroup: return 15
        case .scroll: return 16
        case .choice: return 17
        case .background: return 18
        case .grid: return 19
        case .gridRow: return 20
        case .flow: return 21
        case .forEach: return 22
        }
    }

    /// Whether the result reports what a node of this kind decided (``LayoutDecision``).
    public var isDecision: Bool {
        switch self {
        case .firstFit, .uniformFit, .threshold, .fitting, .scaleGroup: return true
        default: return false
        }
    }
}

/// A parent named by its position in the document's `nodes` array or by its id.
public enum NodeReference: Hashable, Sendable, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    case index(Int)
    case id(String)

    public init(stringLiteral value: String) { self = .id(value) }
    public init(stringInterpolation: DefaultStringInterpolation) { self = .id(String(stringInterpolation: stringInterpolation)) }
    public init(integerLiteral value: Int) { self = .index(value) }

    public var description: String {
        switch self {
        case .index(let index): return "index \(index)"
        case .id(let id): return "\"\(id)\""
        }
    }
}

/// One node of a document. Children are the nodes whose parent is this one, in document order
/// (the candidates of a `firstFit`, the items of a stack).
public struct LayoutNode: Hashable, Sendable {
    public var id: String
    /// nil for the root, the only node without a parent.
    public var parent: NodeReference?
    public var kind: LayoutNodeKind
    public var properties: LayoutProperties

    public init(id: String, parent: NodeReference? = nil, kind: LayoutNodeKind, properties: LayoutProperties = .init()) {
        self.id = id
        self.parent = parent
        self.kind = kind
        self.properties = properties
    }

    /// Builds a node from untyped properties (a JSON object, a D-Bus `a{sv}`), checking each
    /// name against the kind and each value's type.
    public init(
        id: String, parent: NodeReference?, kind kindName: String, properties values: [String: LayoutPropertyValue],
        index: Int
    ) throws(LayoutError) {
        let location = NodeLocation(index: index, id: id)
        guard let kind = LayoutNodeKind(rawValue: kindName) else {
            throw .unknownKind(node: location, kind: kindName)
        }
        self.id = id
        self.parent = parent
        self.kind = kind
        self.properties = LayoutProperties()
        // Sorted so that the first bad property reported does not depend on dictionary order.
        for name in values.keys.sorted() {
            try properties.set(name, values[name]!, node: location, kind: kind)
        }
    }
}

extension [LayoutNode] {
    /// Where node `index` is, for an error: made only then (it retains the node's id).
    func location(_ index: Int) -> NodeLocation { NodeLocation(index: index, id: self[index].id) }
}
