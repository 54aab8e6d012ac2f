import FitBus
import FitLayout

/// Layout's call and reply written and read value by value (DBusWriter, DBusReader), as
/// FitClient sends them: a 50-node document is some 500 values each way, which as
/// `DBusValue` trees cost the client more than the daemon's cached answer.
extension LayoutCodec {
    /// Layout's in-signature: nodes, proposal, options.
    public static let callSignature = "\(documentSignature)\(proposalSignature)a{sv}"

    /// The prepared arguments of a Layout call: parents already resolved, so writing them
    /// cannot fail on the document.
    public struct Call: Sendable {
        let document: LayoutDocument
        let parents: [Int32]
        let proposal: ProposedSize
        let options: OptionDictionary

        public init(document: LayoutDocument, proposal: ProposedSize, options: LayoutOptions, sendSizeCategory: Bool) throws(LayoutError) {
            self.document = document
            self.parents = try LayoutCodec.parentIndices(document)
            self.proposal = proposal
            self.options = LayoutCodec.optionDictionary(of: options, sendSizeCategory: sendSizeCategory)
        }

        public func write(to writer: inout DBusWriter) throws(DBusError) {
            try writer.array { (nodes) throws(DBusError) in
                for (node, parent) in zip(document.nodes, parents) {
                    try nodes.structure { (fields) throws(DBusError) in
                        try fields.append(node.id)
                        try fields.append(node.kind.rawValue)
                        try fields.append(parent)
                        try fields.array { (properties) throws(DBusError) in
                            for property in node.properties.values {
                                try properties.dictionaryEntry { (pair) throws(DBusError) in
                                    try pair.append(property.name)
                                    try pair.append(DBusValue.variant(LayoutCodec.encode(property.value)))
                                }
                            }
                        }
                    }
                }
            }
            try writer.structure { (fields) throws(DBusError) in
                try fields.append(proposal.width != nil)
                try fields.append(proposal.width ?? 0)
                try fields.append(proposal.height != nil)
                try fields.append(proposal.height ?? 0)
            }
            try options.write(to: &writer)
        }
    }

    /// Reads Layout's reply; the proposal is the caller's (the reply does not repeat it).
    public static func readResult(_ reader: inout DBusReader, proposal: ProposedSize) throws(DBusError) -> (LayoutResult, generation: UInt64) {
        let size = try reader.structure { (f) throws(DBusError) in LayoutSize(width: try f.double(), height: try f.double()) }
        var nodes: [NodeLayout] = []
        var breakpoints: LayoutBreakpoints?
        try reader.array { (entry) throws(DBusError) in
            nodes.append(try entry.structure { (f) throws(DBusError) in
                let id = try f.string(), visible = try f.bool()
                let frame = LayoutRect(x: try f.double(), y: try f.double(), width: try f.double(), height: try f.double())
                let isText = try f.bool(), scale = try f.double(), lines = try f.uint32(), truncated = try f.bool()
                let hasBaselines = try f.bool(), first = try f.double(), last = try f.double()
                guard case .success(let extras) = try OptionDictionary.read(&f) else {
                    throw DBusError(.invalidArgs, "a frame's extras name a key twice")
                }
                var alignment: HorizontalAlignment?
                if let name = try extras.string("alignment") {
                    guard let parsed = HorizontalAlignment(rawValue: name) else {
                        throw DBusError(.invalidArgs, "alignment \"\(name)\" is unknown")
                    }
                    alignment = parsed
                }
                if let found = try LayoutCodec.breakpoints(from: extras) {
                    var found = found
                    found.rootID = id
                    breakpoints = found
                }
                var node = NodeLayout(
                    id: id, frame: frame, visible: visible,
                    text: isText ? TextOutcome(scale: scale, lineCount: Int(lines), truncated: truncated, alignment: alignment) : nil,
                    firstBaseline: hasBaselines ? first : nil, lastBaseline: hasBaselines ? last : nil,
                    hidden: try extras.bool("hidden") ?? false)
                if let widget = extras.entries["widget"] { node.labelSize = try LabelCodec.decodeFrame(widget) }
                return node
            })
        }
        var decisions: [LayoutDecision] = []
        try reader.array { (entry) throws(DBusError) in
            decisions.append(try entry.structure { (f) throws(DBusError) in
                let id = try f.string(), index = try f.uint32(), kindName = try f.string()
                guard let kind = LayoutNodeKind(rawValue: kindName) else {
                    throw DBusError(.invalidArgs, "a decision of unknown kind \"\(kindName)\"")
                }
                guard case .success(let outcome) = try OptionDictionary.read(&f) else {
                    throw DBusError(.invalidArgs, "a decision's outcome names a key twice")
                }
                return try decision(id: id, nodeIndex: Int(index), kind: kind, outcome: outcome)
            })
        }
        let truncated = try reader.bool()
        let generation = try reader.uint64()
        var result = LayoutResult(proposal: proposal, size: size, nodes: nodes, decisions: decisions, truncated: truncated)
        result.breakpoints = breakpoints
        return (result, generation)
    }
}
