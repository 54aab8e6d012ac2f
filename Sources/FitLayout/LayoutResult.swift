import FitTypes

/// How a text (or a template's reserved strings) came out.
public struct TextOutcome: Hashable, Sendable, Codable {
    /// The minimum-scale factor applied, 1 when the text was not shrunk.
    public var scale: Double
    public var lineCount: Int
    public var truncated: Bool
    /// Where the lines sit in the text's frame (`multilineTextAlignment`, set on the text or
    /// inherited); nil when nobody set it (leading). Never changes a frame (spec 2.1).
    public var alignment: HorizontalAlignment?

    public init(scale: Double, lineCount: Int, truncated: Bool, alignment: HorizontalAlignment? = nil) {
        self.scale = scale
        self.lineCount = lineCount
        self.truncated = truncated
        self.alignment = alignment
    }
}

/// One node's place in the result, in document order.
public struct NodeLayout: Hashable, Sendable, Codable {
    public var id: String
    /// From the root's top-left corner, x rightwards in every layout direction (spec 1.5); zero
    /// when the node is not shown.
    public var frame: LayoutRect
    /// False for candidates a decision did not choose and for children absent from a
    /// threshold's arrangement.
    public var visible: Bool
    /// For texts and templates that are shown.
    public var text: TextOutcome?
    /// From the frame's top to the first and the last text baseline inside the node (a text's
    /// own lines; a container's topmost first and bottom-most last among its texts), so a
    /// toolkit aligns without measuring again. nil when the node shows no text: SwiftUI then
    /// aligns the node's bottom (docs/swiftui-layout.md 1.4).
    public var firstBaseline: Double?
    public var lastBaseline: Double?
    /// Laid out but not drawn (`hidden` on it or an ancestor, docs/swiftui-layout.md 4.3): the
    /// frame is where it would be; `visible` stays true.
    public var hidden: Bool
    /// A shown text's size request as a GtkLabel showing it at its frame's width reports it
    /// (LabelSize), when the layout was asked for widget sizes (``LayoutOptions/widgetSizes``).
    public var labelSize: LabelSize? = nil

    public init(
        id: String, frame: LayoutRect, visible: Bool, text: TextOutcome? = nil, firstBaseline: Double? = nil,
        lastBaseline: Double? = nil, hidden: Bool = false
    ) {
        self.id = id
        self.frame = frame
        self.visible = visible
        self.text = text
        self.firstBaseline = firstBaseline
        self.lastBaseline = lastBaseline
        self.hidden = hidden
    }
}

/// What one decision node decided. Only the fields of its kind are set.
public struct LayoutDecision: Hashable, Sendable, Codable {
    public var id: String
    public var nodeIndex: Int
    public var kind: LayoutNodeKind
    /// firstFit, uniformFit: the chosen candidate's position among the candidates.
    public var candidate: Int?
    /// firstFit: the chosen candidate's id. uniformFit: the id of the node its first choice
    /// point shows at the list's position (what the position is called in the first item).
    public var candidateID: String?
    /// uniformFit: per choice point of the list, in document order, the id of the node it
    /// shows at the list's position (its last child when it has fewer).
    public var candidateIDs: [String]? = nil
    /// threshold: the arrangement.
    public var axis: LayoutAxis?
    /// fitting: the width (vertical axis) or height it fitted its children to.
    public var length: Double?
    /// scaleGroup: the one factor applied to all its texts.
    public var scale: Double?

    public init(
        id: String, nodeIndex: Int, kind: LayoutNodeKind, candidate: Int? = nil, candidateID: String? = nil,
        axis: LayoutAxis? = nil, length: Double? = nil, scale: Double? = nil
    ) {
        self.id = id
        self.nodeIndex = nodeIndex
        self.kind = kind
        self.candidate = candidate
        self.candidateID = candidateID
        self.axis = axis
        self.length = length
        self.scale = scale
    }
}

extension LayoutDecision {
    /// What was decided, in words: "candidate 1 (column)", "horizontal", "scale 0.5" — what
    /// `fitctl fit` prints and its pictures label.
    public var outcome: String {
        switch kind {
        case .firstFit: return "candidate \(candidate ?? 0) (\(candidateID ?? "?"))"
        case .uniformFit: return "candidate \(candidate ?? 0) for all items"
        case .threshold: return axis?.rawValue ?? "?"
        case .fitting: return "length \(ProposedSize.describe(length ?? 0))"
        case .scaleGroup: return "scale \(ProposedSize.describe(scale ?? 1))"
        default: return ""
        }
    }
}

/// A laid-out document: every node's frame and every decision taken.
public struct LayoutResult: Hashable, Sendable, Codable {
    public var proposal: ProposedSize
    /// The root's size.
    public var size: LayoutSize
    public var nodes: [NodeLayout]
    public var decisions: [LayoutDecision]
    /// Whether any shown text or template was truncated.
    public var truncated: Bool
    /// With ``LayoutOptions/breakpoints``: the outcomes of the decisions over a range of widths.
    public var breakpoints: LayoutBreakpoints?

    public init(proposal: ProposedSize, size: LayoutSize, nodes: [NodeLayout], decisions: [LayoutDecision], truncated: Bool) {
        self.proposal = proposal
        self.size = size
        self.nodes = nodes
        self.decisions = decisions
        self.truncated = truncated
    }

    public func node(_ id: String) -> NodeLayout? { nodes.first { $0.id == id } }
    public func frame(_ id: String) -> LayoutRect? { node(id)?.frame }
    public func decision(_ id: String) -> LayoutDecision? { decisions.first { $0.id == id } }
}
