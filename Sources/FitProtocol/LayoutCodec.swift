import FitBus
import FitLayout
import FitTypes

/// Layout requests and results on the wire (protocol/org.fitd.Fit1.xml: Layout). Shared by the
/// daemon and FitClient so both sides agree by construction.
///
/// A document is a flat array of nodes, `a(ssia{sv})`: id, kind, parent index (-1 for the
/// root) and properties. Structure lives in the parent indices, not in nested values, so a
/// deep tree never meets D-Bus's nesting limit (64 levels of containers) and one signature
/// carries every document. Properties are `a{sv}` because each kind has its own set and new
/// ones must not change the signature.
public enum LayoutCodec {
    public static let documentSignature = "a(ssia{sv})"
    /// has_width, width, has_height, height: SwiftUI's ProposedViewSize, where "no value" (the
    /// ideal size) differs from 0 (the minimum) and from infinity (the maximum).
    public static let proposalSignature = "(bdbd)"
    /// id, visible, x, y, width, height, is_text, scale, line_count, truncated, has_baselines,
    /// first_baseline, last_baseline (from the frame's top; a flag, not a NaN sentinel, says
    /// the node shows no text: docs/swiftui-layout.md 1.4), extras. The extras hold what not
    /// every frame has, so that additions keep the signature (docs/interface-versioning.md,
    /// "What may change within Fit1"): `hidden` (b, only when true), `alignment` (s, a text's
    /// multilineTextAlignment when set); with the `breakpoints` option, the root's frame also
    /// has the breakpoints (``breakpointExtras``).
    public static let frameSignature = "(sbddddbdubbdda{sv})"
    /// id, node_index, kind, outcome (only the keys of its kind).
    public static let decisionSignature = "(susa{sv})"
    /// Layout's out arguments: size, frames, decisions, truncated, generation.
    public static let resultSignature = "(dd)a\(frameSignature)a\(decisionSignature)bt"

    /// A breakpoint interval: from, to (both included), candidate (-1 where the decision is
    /// not shown, or for a shown threshold), axis (a shown threshold's arrangement, else "").
    public static let intervalSignature = "(ddis)"
    /// The `breakpoints` extra of the root's frame: per decision, in document order, its id and
    /// its intervals in width order.
    public static let breakpointsSignature = "a(sa\(intervalSignature))"
    /// The `breakpoint_flips` extra: per decision, its intervals' exact starts (to 1/1024 px),
    /// in the order of `breakpoints`; -1 where not found.
    public static let flipsSignature = "a(sad)"

    // MARK: document

    /// The document as Layout's first argument. Parents named by id become indices; a parent
    /// that names no node is refused here, before a round trip.
    public static func encode(_ document: LayoutDocument) throws(LayoutError) -> DBusValue {
        let parents = try parentIndices(document)
        var entries: [DBusValue] = []
        entries.reserveCapacity(document.nodes.count)
        for (node, parent) in zip(document.nodes, parents) {
            let properties = node.properties.values.map { property in
                (key: DBusValue.string(property.name), value: DBusValue.variant(encode(property.value)))
            }
            entries.append(.structure([
                .string(node.id), .string(node.kind.rawValue), .int32(parent),
                .dictionary(keySignature: "s", valueSignature: "v", properties),
            ]))
        }
        return .array(elementSignature: "(ssia{sv})", entries)
    }

    /// Every node's parent as an index (-1 for the root); a parent that names no node is refused.
    static func parentIndices(_ document: LayoutDocument) throws(LayoutError) -> [Int32] {
        var indexOfID: [String: Int] = [:]
        indexOfID.reserveCapacity(document.nodes.count)
        for (index, node) in document.nodes.enumerated() where indexOfID[node.id] == nil { indexOfID[node.id] = index }
        var parents: [Int32] = []
        parents.reserveCapacity(document.nodes.count)
        for (index, node) in document.nodes.enumerated() {
            switch node.parent {
            case nil: parents.append(-1)
            case .index(let position):
                guard let value = Int32(exactly: position), value >= 0 else {
                    throw .danglingParent(node: NodeLocation(index: index, id: node.id), parent: "index \(position)")
                }
                parents.append(value)
            case .id(let name):
                guard let position = indexOfID[name] else {
                    throw .danglingParent(node: NodeLocation(index: index, id: node.id), parent: "\"\(name)\"")
                }
                parents.append(Int32(truncatingIfNeeded: position))
            }
        }
        return parents
    }

    static func encode(_ value: LayoutPropertyValue) -> DBusValue {
        switch value {
        case .string(let text): return .string(text)
        case .number(let number): return .double(number)
        case .bool(let flag): return .boolean(flag)
        case .strings(let list): return .array(elementSignature: "s", list.map(DBusValue.string))
        }
    }

    /// A document from Layout's first argument. Every failure names the node (index and id);
    /// parents come back as indices. Checks only the shape: PreparedLayout checks the tree.
    public static func document(_ value: DBusValue) throws(LayoutError) -> LayoutDocument {
        guard case .array(_, let entries) = value else {
            throw .malformedDocument("the nodes are not \(documentSignature) but \(value.signature)")
        }
        // Refused before any node is decoded, so a huge document costs no more than its parse.
        guard entries.count <= LayoutLimits.maxNodes else {
            throw .tooManyNodes(count: entries.count, limit: LayoutLimits.maxNodes)
        }
        var nodes: [LayoutNode] = []
        nodes.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            guard case .structure(let fields) = entry, fields.count == 4, case .string(let id) = fields[0],
                case .string(let kind) = fields[1], case .int32(let parentIndex) = fields[2],
                case .dictionary(_, _, let pairs) = fields[3]
            else {
                throw .malformedDocument("node \(index) is not (ssia{sv}) but \(entry.signature)")
            }
            let location = NodeLocation(index: index, id: id)
            let parent: NodeReference?
            switch parentIndex {
            case -1: parent = nil
            case ..<(-1): throw .danglingParent(node: location, parent: "index \(parentIndex) (-1 is the root's)")
            default: parent = .index(Int(parentIndex))
            }
            var properties: [String: LayoutPropertyValue] = [:]
            for (key, wrapped) in pairs {
                guard case .string(let name) = key else {
                    throw .malformedDocument("\(location): property names are strings")
                }
                guard properties[name] == nil else {
                    throw .invalidProperty(node: location, property: name, reason: "given twice")
                }
                properties[name] = try property(wrapped.unwrapped, name: name, at: location)
            }
            nodes.append(try LayoutNode(id: id, parent: parent, kind: kind, properties: properties, index: index))
        }
        return LayoutDocument(nodes: nodes)
    }

    static func property(_ value: DBusValue, name: String, at location: NodeLocation) throws(LayoutError) -> LayoutPropertyValue {
        switch value {
        case .string(let text): return .string(text)
        case .double(let number): return .number(number)
        case .boolean(let flag): return .bool(flag)
        case .byte(let number): return .number(Double(number))
        case .int16(let number): return .number(Double(number))
        case .uint16(let number): return .number(Double(number))
        case .int32(let number): return .number(Double(number))
        case .uint32(let number): return .number(Double(number))
        case .int64(let number): return .number(Double(number))
        case .uint64(let number): return .number(Double(number))
        case .array(_, let items):
            var list: [String] = []
            list.reserveCapacity(items.count)
            for item in items {
                guard case .string(let text) = item else {
                    throw .invalidProperty(node: location, property: name, reason: "an array property is as, got \(value.signature)")
                }
                list.append(text)
            }
            return .strings(list)
        default:
            throw .invalidProperty(
                node: location, property: name, reason: "a property is s, d (or an integer), b or as; got \(value.signature)")
        }
    }

    // MARK: proposal and options

    public static func encode(_ proposal: ProposedSize) -> DBusValue {
        .structure([
            .boolean(proposal.width != nil), .double(proposal.width ?? 0),
            .boolean(proposal.height != nil), .double(proposal.height ?? 0),
        ])
    }

    public static func proposal(_ value: DBusValue) throws(DBusError) -> ProposedSize {
        guard case .structure(let f) = value, f.count == 4, case .boolean(let hasWidth) = f[0], case .double(let width) = f[1],
            case .boolean(let hasHeight) = f[2], case .double(let height) = f[3]
        else { throw .invalidArgument("the proposal is not \(proposalSignature) but \(value.signature)") }
        for (name, has, length) in [("width", hasWidth, width), ("height", hasHeight, height)] where has {
            guard !length.isNaN, length >= 0 else {
                throw .invalidArgument("proposed \(name) \(length): give 0 or more, infinity, or has_\(name) false for the ideal size")
            }
        }
        return ProposedSize(width: hasWidth ? width : nil, height: hasHeight ? height : nil)
    }

    /// Layout's options. With `sendSizeCategory` false the daemon uses the user's category
    /// (from its text scale); a UI font is sent only when the options name one.
    public static func options(of options: LayoutOptions, sendSizeCategory: Bool) -> DBusValue {
        optionDictionary(of: options, sendSizeCategory: sendSizeCategory).dbusValue
    }

    static func optionDictionary(of options: LayoutOptions, sendSizeCategory: Bool) -> OptionDictionary {
        // The user's category is the daemon's to apply unless the caller sends its own.
        OptionDictionary(options, table: LayoutOptionTable.all, leavingOut: sendSizeCategory ? nil : LayoutOptionTable.sizeCategory)
    }

    /// The options of a Layout call; `defaultCategory` is the user's, used unless overridden.
    public static func options(_ value: DBusValue, defaultCategory: SizeCategory) throws(DBusError) -> LayoutOptions {
        var options = LayoutOptions(sizeCategory: defaultCategory)
        try OptionDictionary(value).apply(LayoutOptionTable.all, names: LayoutOptionTable.names, to: &options)
        return options
    }

    // MARK: result

    /// Layout's out arguments (``resultSignature``): frames in document order, then decisions.
    public static func encode(_ result: LayoutResult, generation: UInt64) -> [DBusValue] {
        let breakpointsAt = result.breakpoints.map { found in result.nodes.firstIndex { $0.id == found.rootID } ?? 0 }
        let frames = result.nodes.enumerated().map { (position, node) in
            var extras = frameExtras(node)
            if position == breakpointsAt, let found = result.breakpoints { extras = breakpointExtras(found, into: extras, nodes: result.nodes) }
            return DBusValue.structure([
                .string(node.id), .boolean(node.visible),
                .double(node.frame.x), .double(node.frame.y), .double(node.frame.width), .double(node.frame.height),
                .boolean(node.text != nil), .double(node.text?.scale ?? 0),
                .uint32(UInt32(clamping: node.text?.lineCount ?? 0)), .boolean(node.text?.truncated ?? false),
                .boolean(node.firstBaseline != nil), .double(node.firstBaseline ?? 0), .double(node.lastBaseline ?? 0),
                extras.dbusValue,
            ])
        }
        let decisions = result.decisions.map { decision in
            var outcome: [String: DBusValue] = [:]
            if let candidate = decision.candidate { outcome["candidate"] = .uint32(UInt32(clamping: candidate)) }
            if let id = decision.candidateID { outcome["candidate_id"] = .string(id) }
            if let ids = decision.candidateIDs { outcome["candidate_ids"] = ids.dbusValue }
            if let axis = decision.axis { outcome["axis"] = .string(axis.rawValue) }
            if let length = decision.length { outcome["length"] = .double(length) }
            if let scale = decision.scale { outcome["scale"] = .double(scale) }
            return DBusValue.structure([
                .string(decision.id), .uint32(UInt32(clamping: decision.nodeIndex)), .string(decision.kind.rawValue),
                OptionDictionary(outcome).dbusValue,
            ])
        }
        return [
            .structure([.double(result.size.width), .double(result.size.height)]),
            .array(elementSignature: frameSignature, frames),
            .array(elementSignature: decisionSignature, decisions),
            .boolean(result.truncated),
            .uint64(generation),
        ]
    }

    static func frameExtras(_ node: NodeLayout) -> OptionDictionary {
        var extras: [String: DBusValue] = [:]
        if node.hidden { extras["hidden"] = .boolean(true) }
        if let size = node.labelSize { extras["widget"] = LabelCodec.encodeFrame(size) }
        if let alignment = node.text?.alignment { extras["alignment"] = .string(alignment.rawValue) }
        return OptionDictionary(extras)
    }

    /// The breakpoints as the root frame's extras: `min_content_width` (d), `max_content_width`
    /// (d), `breakpoint_range` (dd), `breakpoints` (``breakpointsSignature``, decisions in
    /// document order) and `breakpoints_truncated` (b, only when decisions were left out).
    static func breakpointExtras(_ found: LayoutBreakpoints, into extras: OptionDictionary, nodes: [NodeLayout]) -> OptionDictionary {
        var entries = extras.entries
        entries["min_content_width"] = .double(found.minContentWidth)
        entries["max_content_width"] = .double(found.maxContentWidth)
        entries["breakpoint_range"] = .structure([.double(found.range.from), .double(found.range.to)])
        var position: [String: Int] = [:]
        position.reserveCapacity(nodes.count)
        for (index, node) in nodes.enumerated() where position[node.id] == nil { position[node.id] = index }
        let ordered = found.decisions.sorted { a, b in
            let (pa, pb) = (position[a.key] ?? Int.max, position[b.key] ?? Int.max)
            return pa != pb ? pa < pb : a.key < b.key
        }
        entries["breakpoints"] = .array(
            elementSignature: String(breakpointsSignature.dropFirst()),
            ordered.map { id, intervals in
                .structure([
                    .string(id),
                    .array(
                        elementSignature: intervalSignature,
                        intervals.map { interval in
                            .structure([
                                .double(interval.from), .double(interval.to),
                                .int32(Int32(clamping: interval.candidate ?? -1)), .string(interval.axis?.rawValue ?? ""),
                            ])
                        }),
                ])
            })
        // Added beside `breakpoints` (docs/interface-versioning.md: new keys in a returned
        // dictionary): per decision, each interval's exact start, -1 where it is not known.
        entries["breakpoint_flips"] = .array(
            elementSignature: String(flipsSignature.dropFirst()),
            ordered.map { id, intervals in
                .structure([.string(id), .array(elementSignature: "d", intervals.map { .double($0.exactFrom ?? -1) })])
            })
        if let scale = found.textScale { entries["breakpoint_text_scale"] = .double(scale) }
        if found.truncated { entries["breakpoints_truncated"] = .boolean(true) }
        return OptionDictionary(entries)
    }

    /// The breakpoints a frame's extras carry (the root's, with the `breakpoints` option); nil
    /// when they carry none.
    static func breakpoints(from extras: OptionDictionary) throws(DBusError) -> LayoutBreakpoints? {
        guard let minimum = try extras.double("min_content_width"), let maximum = try extras.double("max_content_width") else {
            return nil
        }
        guard case .structure(let range)? = extras.entries["breakpoint_range"], range.count == 2,
            case .double(let from) = range[0], case .double(let to) = range[1]
        else { throw DBusError(.invalidArgs, "a frame with breakpoints has no breakpoint_range (dd)") }
        var decisions: [String: [DecisionInterval]] = [:]
        if let list = extras.entries["breakpoints"] {
            guard case .array(_, let entries) = list else { throw DBusError(.invalidArgs, "breakpoints is not \(breakpointsSignature)") }
            for entry in entries {
                guard case .structure(let f) = entry, f.count == 2, case .string(let id) = f[0], case .array(_, let items) = f[1] else {
                    throw DBusError(.invalidArgs, "breakpoints is not \(breakpointsSignature)")
                }
                var intervals: [DecisionInterval] = []
                intervals.reserveCapacity(items.count)
                for item in items {
                    guard case .structure(let g) = item, g.count == 4, case .double(let low) = g[0], case .double(let high) = g[1],
                        case .int32(let candidate) = g[2], case .string(let axisName) = g[3]
                    else { throw DBusError(.invalidArgs, "a breakpoint interval is not \(intervalSignature)") }
                    if axisName.isEmpty {
                        intervals.append(DecisionInterval(from: low, to: high, candidate: Int(candidate)))
                    } else {
                        guard let axis = LayoutAxis(rawValue: axisName) else {
                            throw DBusError(.invalidArgs, "a breakpoint interval's axis \"\(axisName)\" is unknown")
                        }
                        intervals.append(DecisionInterval(from: low, to: high, axis: axis))
                    }
                }
                decisions[id] = intervals
            }
        }
        if case .array(_, let entries)? = extras.entries["breakpoint_flips"] {
            for entry in entries {
                guard case .structure(let f) = entry, f.count == 2, case .string(let id) = f[0], case .array(_, let starts) = f[1],
                    var intervals = decisions[id], starts.count == intervals.count
                else { throw DBusError(.invalidArgs, "breakpoint_flips is not \(flipsSignature) matching breakpoints") }
                for (index, start) in starts.enumerated() {
                    guard case .double(let value) = start else { throw DBusError(.invalidArgs, "breakpoint_flips is not \(flipsSignature)") }
                    intervals[index].exactFrom = value >= 0 ? value : nil
                }
                decisions[id] = intervals
            }
        }
        var found = LayoutBreakpoints(
            range: BreakpointRange(from: from, to: to), minContentWidth: minimum, maxContentWidth: maximum, decisions: decisions,
            truncated: try extras.bool("breakpoints_truncated") ?? false)
        found.textScale = try extras.double("breakpoint_text_scale")
        return found
    }

    /// A result from Layout's reply as decoded values (the reader of LayoutCodec+Streaming,
    /// through a message); the proposal is the caller's (the reply does not repeat it).
    public static func result(_ values: [DBusValue], proposal: ProposedSize) throws(DBusError) -> (LayoutResult, generation: UInt64) {
        try DBusReader.read(values) { (reader) throws(DBusError) in try readResult(&reader, proposal: proposal) }
    }

    /// A decision from its outcome dictionary (only the keys of its kind).
    static func decision(id: String, nodeIndex: Int, kind: LayoutNodeKind, outcome: OptionDictionary) throws(DBusError) -> LayoutDecision {
        var decision = LayoutDecision(id: id, nodeIndex: nodeIndex, kind: kind)
        decision.candidate = try outcome.integer("candidate")
        decision.candidateID = try outcome.string("candidate_id")
        decision.candidateIDs = try outcome.strings("candidate_ids")
        if let axis = try outcome.string("axis") {
            guard let parsed = LayoutAxis(rawValue: axis) else { throw DBusError(.invalidArgs, "axis \"\(axis)\" is unknown") }
            decision.axis = parsed
        }
        decision.length = try outcome.double("length")
        decision.scale = try outcome.double("scale")
        return decision
    }
}

extension DBusError {
    /// The named error reply for a layout error. The message is the engine's, which names the
    /// offending node by index and id.
    public init(_ error: LayoutError) {
        switch error {
        case .tooManyNodes, .tooManyFonts, .tooManyScaleGroupMembers, .tooDeep:
            self.init(FitErrorName.tooLarge, error.description)
        case .invalidProposal, .measurementFailed(node: nil, _), .invalidBreakpoints:
            self.init(FitErrorName.invalidArgument, error.description)
        default:
            self.init(FitErrorName.invalidDocument, error.description)
        }
    }
}
