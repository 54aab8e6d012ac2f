import FitTypes

/// A validated document with its tree resolved into arrays (parents, children in document
/// order, inherited fonts, scale-group membership), ready to lay out at any proposal. Every
/// walk here is iterative: a document cannot drive the stack, however deep it claims to be.
/// The daemon keeps these next to its layout cache, since they do not depend on the proposal.
public struct PreparedLayout: Sendable {
    /// The document laid out: the one given, or its expansion when it has `forEach` nodes
    /// (ForEachExpansion.swift); results are in its node order.
    public let document: LayoutDocument
    /// The document's nodes with the inherited properties (``LayoutProperties/inherited`` but
    /// font and textStyle, which are in ``fonts``; and `hidden`) filled in from the nearest
    /// ancestor that sets them: what layout reads (docs/swiftui-layout.md 4.9).
    let nodes: [LayoutNode]
    let root: Int
    let parent: [Int]
    let childStart: [Int]
    let childCount: [Int]
    let childList: [Int]
    /// The font a text, template or image is measured in: its own, else its nearest template's.
    let fonts: [LayoutFont]
    /// The innermost scaleGroup above each node, or -1.
    let group: [Int]
    /// For each scaleGroup, the texts and templates whose factor it sets.
    let members: [[Int]]
    /// Whether the node lays out right to left: its own `layoutDirection`, else its parent's.
    let rightToLeft: [Bool]
    /// The innermost uniformFit whose decision reaches each node (it is in one of its items), or -1.
    let choiceScope: [Int]
    /// Whether the node shows its ``choiceScope``'s decision (a choice point of the list): a
    /// `choice` anywhere in an item, or a `firstFit` that is an item itself (the item's own
    /// candidates). A firstFit deeper inside an item decides for itself, item by item, as a
    /// SwiftUI `ViewThatFits` inside a `ForEach` row does (seed 000: "which view that fits is
    /// dependent on the content, so some items may use HStack and others will VStack").
    let followsList: [Bool]
    /// Each uniformFit's choice points (the nodes with ``followsList`` in its scope), in
    /// document order: what its decision names (`candidate_ids`).
    let choicePoints: [Int: [Int]]
    /// For each uniformFit, how many positions it tries (at least 1).
    let positions: [Int]

    /// The text node `index` shows, as the engine asks a measurer for it: its string, its
    /// inherited font, line limit and truncation (what a picture needs to draw the text again);
    /// nil for another kind of node or an index out of range.
    public func layoutText(_ index: Int, sizeCategory: SizeCategory) -> LayoutText? {
        guard nodes.indices.contains(index), nodes[index].kind == .text else { return nil }
        return layoutText(index, nodes[index].properties.text ?? "", sizeCategory: sizeCategory)
    }

    /// `string` as node `index` shows it: in its inherited font, line limit and truncation.
    func layoutText(_ index: Int, _ string: String, sizeCategory: SizeCategory) -> LayoutText {
        let properties = nodes[index].properties
        return LayoutText(
            string, font: fonts[index], sizeCategory: sizeCategory, lineLimit: properties.lineLimit,
            truncation: properties.truncation ?? .tail)
    }

    /// A text and a width it is measured at (nil: unwrapped), at scale 1.
    public struct TextProbe: Hashable, Sendable {
        public var text: LayoutText
        public var proposedWidth: Double?
    }

    /// What to measure of the texts ahead of the layout, in parallel (``TextEngineMeasurer``'s
    /// `premeasure`): every text node's own string and every template
    /// string unwrapped (the ideal size), and a text directly in a horizontal stack also at
    /// width 0 (a stack offered a width ranks its children by the lengths they take at 0 and
    /// at ∞, ``LayoutContext/distribute``). These are what the layout asks of the texts in rows
    /// and what it reuses at any width a text fits; where it asks at another width (a text in
    /// a column, a template) the probe has shaped the words, and the layout only breaks lines.
    /// Some probes go unused: width 0 when the row is offered no width, the texts of branches
    /// a decision does not show. At most two per text, each bounded as any measurement.
    ///
    /// A text shown twice is listed twice, and its second measurement is a cache hit: making
    /// the list distinct cost a hash of every string, 115 µs for a 150-row list
    /// (FitBenchLayout), on one thread before the parallel work.
    public func textProbes(sizeCategory: SizeCategory) -> [TextProbe] {
        var probes: [TextProbe] = []
        for index in nodes.indices {
            switch nodes[index].kind {
            case .text:
                let text = layoutText(index, nodes[index].properties.text ?? "", sizeCategory: sizeCategory)
                probes.append(TextProbe(text: text, proposedWidth: nil))
                if parent[index] >= 0, nodes[parent[index]].kind == .hstack { probes.append(TextProbe(text: text, proposedWidth: 0)) }
            case .template:
                for template in nodes[index].properties.templates ?? [] {
                    probes.append(TextProbe(text: layoutText(index, template, sizeCategory: sizeCategory), proposedWidth: nil))
                }
            default: break
            }
        }
        return probes
    }

    /// Up to `count` text nodes' own strings unwrapped, spread evenly over the document's
    /// text nodes, and how many text nodes there are: a sample to ask a cache about before
    /// making every probe (``textProbes(sizeCategory:)``) and measuring them.
    public func sampleTextProbes(_ count: Int, sizeCategory: SizeCategory) -> (sample: [TextProbe], textNodes: Int) {
        var texts: [Int] = []
        for index in nodes.indices where nodes[index].kind == .text { texts.append(index) }
        let taken = min(max(0, count), texts.count)
        let sample = (0..<taken).map { step in
            let index = texts[step * texts.count / taken]
            return TextProbe(text: layoutText(index, nodes[index].properties.text ?? "", sizeCategory: sizeCategory), proposedWidth: nil)
        }
        return (sample, texts.count)
    }

    public init(_ document: LayoutDocument) throws(LayoutError) {
        let prepared = try PreparedLayout(checking: document)
        // A forEach is replaced by its rows, and the expansion is checked as any document
        // (ids, kinds of children, the node limit); it has no forEach left.
        self = prepared.hasForEach ? try PreparedLayout(checking: try prepared.expandingForEach()) : prepared
    }

    private init(checking document: LayoutDocument) throws(LayoutError) {
        let nodes = document.nodes
        let count = nodes.count
        guard count > 0 else { throw .emptyDocument }
        guard count <= LayoutLimits.maxNodes else { throw .tooManyNodes(count: count, limit: LayoutLimits.maxNodes) }
        let indexOfID = try Self.checkNodes(nodes)
        let (parent, root) = try Self.parents(of: nodes, indexOfID: indexOfID)
        try Self.checkDepths(of: nodes, parent: parent, root: root)
        let tree = Self.childLists(parent: parent)
        try Self.checkPlaces(of: nodes, parent: parent, tree: tree)
        let inherited = try Inherited(nodes, root: root, parent: parent, tree: tree)

        self.document = document
        self.nodes = inherited.resolved
        self.root = root
        self.parent = parent
        self.childStart = tree.start
        self.childCount = tree.count
        self.childList = tree.list
        self.fonts = inherited.fonts
        self.group = inherited.group
        self.members = inherited.members
        self.rightToLeft = inherited.rightToLeft
        self.choiceScope = inherited.choiceScope
        self.followsList = inherited.followsList
        // Found breadth first; the reply lists them in document order.
        self.choicePoints = inherited.choicePoints.mapValues { $0.sorted() }
        self.positions = inherited.positions
    }

    /// Each node on its own: fonts within the limit, ids valid and unique, properties valid.
    /// The index of each id.
    private static func checkNodes(_ nodes: [LayoutNode]) throws(LayoutError) -> [String: Int] {
        // Nodes are read in place (nodes[index]), not copied out one by one, and a node's
        // location is made only for an error: each copy of a node retained all its strings.
        var indexOfID: [String: Int] = [:]
        indexOfID.reserveCapacity(nodes.count)
        var distinctFonts = Set<String>()
        for index in nodes.indices {
            if let font = nodes[index].properties.font, distinctFonts.insert(font).inserted, distinctFonts.count > LayoutLimits.maxFonts {
                throw .tooManyFonts(count: distinctFonts.count, limit: LayoutLimits.maxFonts)
            }
            let id = nodes[index].id
            guard !id.isEmpty, id.utf8.count <= LayoutLimits.maxIDBytes else {
                throw .invalidID(node: nodes.location(index), reason: "an id is 1 to \(LayoutLimits.maxIDBytes) bytes of UTF-8")
            }
            if let first = indexOfID.updateValue(index, forKey: id) { throw .duplicateID(node: nodes.location(index), firstIndex: first) }
            try Self.checkProperties(in: nodes, index: index)
        }
        return indexOfID
    }

    /// Each node's parent (-1 for the root) and the root: exactly one, and every parent named
    /// a node of the document.
    private static func parents(of nodes: [LayoutNode], indexOfID: [String: Int]) throws(LayoutError) -> ([Int], Int) {
        var parent = [Int](filled: -1, count: nodes.count)
        var root = -1
        for index in nodes.indices {
            switch nodes[index].parent {
            case nil:
                guard root < 0 else { throw .multipleRoots(node: nodes.location(index), firstRoot: nodes.location(root)) }
                root = index
            case .index(let position):
                guard nodes.indices.contains(position) else { throw .danglingParent(node: nodes.location(index), parent: "index \(position)") }
                parent[index] = position
            case .id(let name):
                guard let position = indexOfID[name] else { throw .danglingParent(node: nodes.location(index), parent: "\"\(name)\"") }
                parent[index] = position
            }
            if parent[index] == index { throw .cycle(node: nodes.location(index)) }
        }
        guard root >= 0 else { throw .noRoot }
        return (parent, root)
    }

    /// No cycle, and no node deeper than the limit. Depths by walking up to a node of known
    /// depth with an explicit path; meeting the path again is a cycle. Each node is walked
    /// once, so this is linear.
    private static func checkDepths(of nodes: [LayoutNode], parent: [Int], root: Int) throws(LayoutError) {
        var depth = [Int](filled: -1, count: nodes.count)
        var onPath = [Bool](filled: false, count: nodes.count)
        var path: [Int] = []
        depth[root] = 0
        for start in nodes.indices where depth[start] < 0 {
            var node = start
            while depth[node] < 0 {
                if onPath[node] { throw .cycle(node: nodes.location(node)) }
                onPath[node] = true
                path.append(node)
                node = parent[node]
            }
            var level = depth[node]
            while let next = path.popLast() {
                level += 1
                depth[next] = level
                onPath[next] = false
                if level > LayoutLimits.maxDepth { throw .tooDeep(node: nodes.location(next), limit: LayoutLimits.maxDepth) }
            }
        }
    }

    /// Children in document order, as one array sliced per node: node i's are
    /// `list[start[i]..<start[i] + count[i]]`.
    private struct ChildLists {
        var start: [Int]
        var count: [Int]
        var list: [Int]

        func of(_ node: Int) -> ArraySlice<Int> { list[start[node]..<start[node] + count[node]] }
    }

    private static func childLists(parent: [Int]) -> ChildLists {
        let count = parent.count
        var childCount = [Int](filled: 0, count: count)
        for index in 0..<count where parent[index] >= 0 { childCount[parent[index]] += 1 }
        var childStart = [Int](filled: 0, count: count)
        var running = 0
        for index in 0..<count {
            childStart[index] = running
            running += childCount[index]
        }
        var childList = [Int](filled: 0, count: running)
        var filled = [Int](filled: 0, count: count)
        for index in 0..<count where parent[index] >= 0 {
            let owner = parent[index]
            childList[childStart[owner] + filled[owner]] = index
            filled[owner] += 1
        }
        return ChildLists(start: childStart, count: childCount, list: childList)
    }

    /// Each node's children suit its kind, and the nodes that belong under a kind of parent
    /// (`when`, gridRow) are there.
    private static func checkPlaces(of nodes: [LayoutNode], parent: [Int], tree: ChildLists) throws(LayoutError) {
        for index in nodes.indices {
            try Self.checkChildren(index: index, children: tree.of(index), nodes: nodes)
            if nodes[index].properties.when != nil, parent[index] < 0 || ![.threshold, .forEach].contains(nodes[parent[index]].kind) {
                throw .invalidProperty(node: nodes.location(index), property: "when", reason: "only a child of a threshold appears in one arrangement")
            }
            // Under a forEach, the expansion is checked again with the forEach gone.
            if nodes[index].kind == .gridRow, parent[index] < 0 || ![.grid, .forEach].contains(nodes[parent[index]].kind) {
                throw .invalidChildren(node: nodes.location(index), reason: "a gridRow is a child of a grid")
            }
            if nodes[index].kind == .forEach, parent[index] < 0 {
                throw .invalidChildren(
                    node: nodes.location(index), reason: "a forEach stands for its rows among its parent's children; it cannot be the root")
            }
        }
    }

    /// The values each node takes from its ancestors, worked out top-down in breadth-first
    /// order (a parent before its children), and the limits on what they add up to.
    private struct Inherited {
        var fonts: [LayoutFont]
        var group: [Int]
        var members: [[Int]]
        var rightToLeft: [Bool]
        // The uniformFit whose decision a node's size depends on, its choice points (its
        // firstFit items and every choice in its items), and each uniformFit's number of
        // positions: the most candidates among its choice points.
        var choiceScope: [Int]
        var followsList: [Bool]
        var choicePoints: [Int: [Int]] = [:]
        var positions: [Int]
        /// The nodes with their inherited properties (``PreparedLayout/inherit(_:_:from:)``).
        var resolved: [LayoutNode]

        init(_ nodes: [LayoutNode], root: Int, parent: [Int], tree: ChildLists) throws(LayoutError) {
            let count = nodes.count
            fonts = [LayoutFont](filled: .default, count: count)
            group = [Int](filled: -1, count: count)
            members = [[Int]](filled: [], count: count)
            rightToLeft = [Bool](filled: false, count: count)
            choiceScope = [Int](filled: -1, count: count)
            followsList = [Bool](filled: false, count: count)
            positions = [Int](filled: 1, count: count)
            // Copied on the first inherited value only: most documents share the given array.
            resolved = nodes
            var queue = [root]
            queue.reserveCapacity(count)
            var head = 0
            while head < queue.count {
                let index = queue[head]
                head += 1
                if let up = parent[index] as Int?, up >= 0 {
                    fonts[index] = fonts[up]
                    group[index] = nodes[up].kind == .scaleGroup ? up : group[up]
                    rightToLeft[index] = rightToLeft[up]
                    choiceScope[index] = nodes[up].kind == .uniformFit ? up : choiceScope[up]
                    PreparedLayout.inherit(&resolved, index, from: up)
                }
                if let direction = nodes[index].properties.layoutDirection { rightToLeft[index] = direction == .rightToLeft }
                if let style = nodes[index].properties.textStyle {
                    fonts[index] = .style(style)
                } else if let font = nodes[index].properties.font {
                    fonts[index] = .description(font)
                }
                let kind = nodes[index].kind
                if kind == .text || kind == .template, group[index] >= 0 { members[group[index]].append(index) }
                let isItem = parent[index] >= 0 && nodes[parent[index]].kind == .uniformFit
                try addChoicePoint(index, of: nodes, isItem: isItem, candidates: tree.count[index])
                queue.append(contentsOf: tree.of(index))
            }
            for index in nodes.indices where members[index].count > LayoutLimits.maxScaleGroupMembers {
                throw .tooManyScaleGroupMembers(node: nodes.location(index), count: members[index].count, limit: LayoutLimits.maxScaleGroupMembers)
            }
            try checkNesting(of: nodes, queue: queue)
        }

        /// Counts node `index` among its uniformFit's choice points when it is one: a choice
        /// anywhere in an item, or a firstFit that is an item itself.
        private mutating func addChoicePoint(_ index: Int, of nodes: [LayoutNode], isItem: Bool, candidates: Int) throws(LayoutError) {
            let kind = nodes[index].kind
            if kind == .choice || (kind == .firstFit && isItem), choiceScope[index] >= 0 {
                followsList[index] = true
                choicePoints[choiceScope[index], default: []].append(index)
                if candidates > LayoutLimits.maxChoicePositions {
                    throw .invalidChildren(
                        node: nodes.location(index),
                        reason: "a choice point inside a uniformFit has at most \(LayoutLimits.maxChoicePositions) candidates (LayoutLimits.maxChoicePositions), not \(candidates)")
                }
                positions[choiceScope[index]] = max(positions[choiceScope[index]], candidates)
            } else if kind == .choice {
                throw .invalidChildren(node: nodes.location(index), reason: "a choice shows what an enclosing uniformFit decides; it is in none")
            }
        }

        /// A uniformFit inside another's item is decided again for every position the outer one
        /// tries (its memo keys carry the outer decision), so the work grows as the product of
        /// the positions along the nesting: bounded here, once every count is known (parents
        /// come before children in `queue`, the breadth-first order).
        private func checkNesting(of nodes: [LayoutNode], queue: [Int]) throws(LayoutError) {
            var nested = [Int](filled: 1, count: nodes.count)
            for index in queue where nodes[index].kind == .uniformFit {
                let outer = choiceScope[index]
                nested[index] = positions[index] * (outer >= 0 ? nested[outer] : 1)
                if nested[index] > LayoutLimits.maxNestedChoicePositions {
                    throw .invalidChildren(
                        node: nodes.location(index),
                        reason: "nested uniformFits try \(nested[index]) combinations of positions; at most \(LayoutLimits.maxNestedChoicePositions) (LayoutLimits.maxNestedChoicePositions)")
                }
            }
        }
    }

    /// Fills the inheritable properties `node` does not set from its parent's resolved ones
    /// (the parent is resolved first: breadth-first order). Font and textStyle travel in
    /// `fonts` instead, so that an image keeps its own size unless it names a font itself.
    static func inherit(_ nodes: inout [LayoutNode], _ node: Int, from parent: Int) {
        // Field by field through the array: copying a whole LayoutProperties (strings, arrays)
        // per node would cost more than the rest of this walk. Nothing is written, and so the
        // array is not copied, unless a value is inherited.
        if let value = nodes[parent].properties.lineLimit, nodes[node].properties.lineLimit == nil {
            nodes[node].properties.lineLimit = value
        }
        if let value = nodes[parent].properties.truncation, nodes[node].properties.truncation == nil {
            nodes[node].properties.truncation = value
        }
        if let value = nodes[parent].properties.minimumScaleFactor, nodes[node].properties.minimumScaleFactor == nil,
            nodes[node].kind != .scaleGroup
        {
            nodes[node].properties.minimumScaleFactor = value
        }
        if let value = nodes[parent].properties.multilineTextAlignment, nodes[node].properties.multilineTextAlignment == nil {
            nodes[node].properties.multilineTextAlignment = value
        }
        if let value = nodes[parent].properties.layoutDirection, nodes[node].properties.layoutDirection == nil {
            nodes[node].properties.layoutDirection = value
        }
        // A hidden view's content is hidden whatever it says (SwiftUI has no way to unhide).
        if nodes[parent].properties.hidden == true && nodes[node].properties.hidden != true { nodes[node].properties.hidden = true }
    }

    /// By index: `contains` hands each node to its closure as a copy (every string retained).
    var hasForEach: Bool { nodes.indices.contains { nodes[$0].kind == .forEach } }

    func children(_ node: Int) -> ArraySlice<Int> {
        childList[childStart[node]..<childStart[node] + childCount[node]]
    }

    /// Names and values: each property allowed for the kind, each length finite and not negative.
    static func checkProperties(in nodes: [LayoutNode], index: Int) throws(LayoutError) {
        var location: NodeLocation { nodes.location(index) }
        // Every node of every document passes here: no arrays built (see forEachValue), and
        // the node read in place (a copy of it, or of its properties, retained every string).
        if let name = nodes[index].properties.firstProperty(notAllowedFor: nodes[index].kind) {
            throw .unknownProperty(node: location, property: name, kind: nodes[index].kind.rawValue)
        }
        if let (name, value) = nodes[index].properties.firstInvalidLength {
            throw .invalidSize(node: location, property: name, value: value)
        }
        if let value = nodes[index].properties.minLength, !(value.isFinite && value >= 0) {
            throw .invalidSize(node: location, property: "minLength", value: value)
        }
        // Any finite priority, negative included (SwiftUI's is a Double); ±∞ is the spacers'.
        if let value = nodes[index].properties.layoutPriority, !value.isFinite {
            throw .invalidProperty(node: location, property: "layoutPriority", reason: "\(value) is not a finite number")
        }
        if let value = nodes[index].properties.spacing, !(value.isFinite && value >= 0) {
            throw .invalidSize(node: location, property: "spacing", value: value)
        }
        if let ratio = nodes[index].properties.aspectRatio, ratio <= 0 { throw .invalidSize(node: location, property: "aspectRatio", value: ratio) }
        if let factor = nodes[index].properties.minimumScaleFactor, !(factor > 0 && factor <= 1) {
            throw .invalidScaleFactor(node: location, value: factor)
        }
        if let limit = nodes[index].properties.lineLimit, limit < 1 {
            throw .invalidProperty(node: location, property: "lineLimit", reason: "\(limit) must be at least 1; omit it for no limit")
        }
        if nodes[index].properties.font != nil, nodes[index].properties.textStyle != nil {
            throw .invalidProperty(node: location, property: "font", reason: "give font or textStyle, not both")
        }
        if let low = nodes[index].properties.minWidth, let high = nodes[index].properties.maxWidth, low > high {
            throw .invalidProperty(node: location, property: "minWidth", reason: "\(low) is above the maximum \(high)")
        }
        if let low = nodes[index].properties.minHeight, let high = nodes[index].properties.maxHeight, low > high {
            throw .invalidProperty(node: location, property: "minHeight", reason: "\(low) is above the maximum \(high)")
        }
        func checkLength(_ text: String) throws(LayoutError) {
            if text.utf8.count > LayoutLimits.maxTextBytes {
                throw .invalidProperty(node: location, property: "text", reason: "longer than \(LayoutLimits.maxTextBytes) bytes")
            }
        }
        if let text = nodes[index].properties.text { try checkLength(text) }
        for text in nodes[index].properties.templates ?? [] { try checkLength(text) }
        switch nodes[index].kind {
        case .text where nodes[index].properties.text == nil:
            throw .missingProperty(node: location, property: "text")
        case .template where (nodes[index].properties.templates ?? []).isEmpty:
            throw .missingProperty(node: location, property: "templates")
        case .threshold where nodes[index].properties.category == nil:
            throw .thresholdWithoutCategory(node: location)
        case .scaleGroup where nodes[index].properties.minimumScaleFactor == nil:
            throw .missingProperty(node: location, property: "minimumScaleFactor")
        case .forEach where nodes[index].properties.fields == nil || nodes[index].properties.data == nil:
            throw .missingProperty(node: location, property: nodes[index].properties.fields == nil ? "fields" : "data")
        case .forEach where (nodes[index].properties.fields ?? []).isEmpty || (nodes[index].properties.fields ?? []).count > LayoutLimits.maxForEachFields:
            throw .invalidProperty(node: location, property: "fields", reason: "name 1 to \(LayoutLimits.maxForEachFields) fields")
        case .forEach where (nodes[index].properties.data ?? []).count % max(1, (nodes[index].properties.fields ?? []).count) != 0:
            throw .invalidProperty(
                node: location, property: "data",
                reason: "\((nodes[index].properties.data ?? []).count) values are not whole rows of \((nodes[index].properties.fields ?? []).count) fields")
        case .image where (nodes[index].properties.width == nil || nodes[index].properties.height == nil) && nodes[index].properties.textStyle == nil && nodes[index].properties.font == nil:
            throw .missingProperty(node: location, property: "width and height, or textStyle")
        default: break
        }
    }

    static func checkChildren(index: Int, children: ArraySlice<Int>, nodes: [LayoutNode]) throws(LayoutError) {
        var location: NodeLocation { nodes.location(index) }
        let kind = nodes[index].kind.rawValue
        switch nodes[index].kind {
        case .text, .spacer, .image:
            if !children.isEmpty { throw .invalidChildren(node: location, reason: "a \(kind) has no children") }
        case .frame, .padding, .fixedSize, .scaleGroup, .scroll:
            if children.count != 1 {
                throw .invalidChildren(node: location, reason: "a \(kind) has exactly one child, not \(children.count)")
            }
        case .template:
            if children.count > 1 {
                throw .invalidChildren(node: location, reason: "a template shows at most one child (the actual value)")
            }
        case .overlay, .background:
            if children.isEmpty { throw .invalidChildren(node: location, reason: "\(nodes[index].kind == .overlay ? "an" : "a") \(kind) needs a base child") }
        case .firstFit, .choice:
            if children.isEmpty { throw .invalidChildren(node: location, reason: "a \(kind) needs at least one candidate") }
        // Items may be any subtree: the decision reaches the choice points inside (spec 3.2).
        case .hstack, .vstack, .zstack, .threshold, .fitting, .uniformFit, .grid, .gridRow, .flow, .forEach:
            break
        }
    }
}

