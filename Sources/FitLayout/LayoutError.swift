import FitTypes

/// A node named in an error: its position in the document's `nodes` array and its id.
public struct NodeLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    public var index: Int
    public var id: String

    public init(index: Int, id: String) {
        self.index = index
        self.id = id
    }

    public var description: String { "node \(index) (id \"\(id)\")" }
}

/// Everything that can go wrong with a layout document or a layout call. Documents come from
/// outside the process (a D-Bus peer, a file given to fitctl), so each bad input ends here, with
/// the offending node, rather than in a crash.
public enum LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The JSON is not a layout document (syntax, or a value of the wrong JSON type).
    case malformedDocument(String)
    case emptyDocument
    /// More than ``LayoutLimits/maxNodes`` nodes.
    case tooManyNodes(count: Int, limit: Int)
    /// More distinct `font` values than ``LayoutLimits/maxFonts``.
    case tooManyFonts(count: Int, limit: Int)
    /// A scaleGroup with more texts than ``LayoutLimits/maxScaleGroupMembers``.
    case tooManyScaleGroupMembers(node: NodeLocation, count: Int, limit: Int)
    /// A node nested deeper than ``LayoutLimits/maxDepth`` below the root.
    case tooDeep(node: NodeLocation, limit: Int)
    case invalidID(node: NodeLocation, reason: String)
    case duplicateID(node: NodeLocation, firstIndex: Int)
    /// A parent reference that names no node (an unknown id, or an index out of range).
    case danglingParent(node: NodeLocation, parent: String)
    /// Following parents from this node comes back to it (or to a node that does).
    case cycle(node: NodeLocation)
    case noRoot
    /// Two nodes without a parent; a document has exactly one root.
    case multipleRoots(node: NodeLocation, firstRoot: NodeLocation)
    case unknownKind(node: NodeLocation, kind: String)
    /// A property this kind of node does not have (a misspelling, usually).
    case unknownProperty(node: NodeLocation, property: String, kind: String)
    case missingProperty(node: NodeLocation, property: String)
    /// A property with a value of the wrong type or outside its domain.
    case invalidProperty(node: NodeLocation, property: String, reason: String)
    /// A negative, NaN or (where not allowed) infinite length.
    case invalidSize(node: NodeLocation, property: String, value: Double)
    /// A minimum scale factor outside (0, 1].
    case invalidScaleFactor(node: NodeLocation, value: Double)
    /// A size category name that is not one of the 12.
    case unknownSizeCategory(node: NodeLocation, name: String)
    /// A `threshold` without the category from which it stacks vertically.
    case thresholdWithoutCategory(node: NodeLocation)
    /// The wrong number or kind of children for this kind of node.
    case invalidChildren(node: NodeLocation, reason: String)
    /// A proposal that is negative or NaN (nil, 0…, and infinity are the valid ones).
    case invalidProposal(axis: LayoutAxis, value: Double)
    /// The measurer could not measure a text (`node` is nil until the engine fills it in).
    case measurementFailed(node: NodeLocation?, reason: String)
    /// A breakpoint range that is not 0 ≤ from ≤ to with a positive step, or has too many steps.
    case invalidBreakpoints(reason: String)

    public var description: String {
        switch self {
        case .malformedDocument(let detail):
            return "not a layout document: \(detail)"
        case .emptyDocument:
            return "the document has no nodes; give at least a root node"
        case .tooManyNodes(let count, let limit):
            return "the document has \(count) nodes; the limit is \(limit) (LayoutLimits.maxNodes)"
        case .tooManyScaleGroupMembers(let node, let count, let limit):
            return "\(node) shrinks \(count) texts together; the limit is \(limit) (LayoutLimits.maxScaleGroupMembers): "
                + "its factor is searched by laying them all out a dozen times; split the group"
        case .tooManyFonts(let count, let limit):
            return "the document names more than \(count - 1) distinct fonts; the limit is \(limit) (LayoutLimits.maxFonts): "
                + "use fewer fonts, or textStyle"
        case .tooDeep(let node, let limit):
            return "\(node) is nested more than \(limit) levels below the root (LayoutLimits.maxDepth)"
        case .invalidID(let node, let reason):
            return "\(node) has an invalid id: \(reason)"
        case .duplicateID(let node, let firstIndex):
            return "\(node) repeats the id of node \(firstIndex); ids must be unique"
        case .danglingParent(let node, let parent):
            return "\(node) names parent \(parent), which is not a node of the document"
        case .cycle(let node):
            return "\(node) is part of a parent cycle; parents must lead to the root"
        case .noRoot:
            return "no node is without a parent; one node (the root) must have none"
        case .multipleRoots(let node, let firstRoot):
            return "\(node) has no parent, but \(firstRoot) is already the root; give it a parent"
        case .unknownKind(let node, let kind):
            return "\(node) has unknown kind \"\(kind)\"; kinds are \(LayoutNodeKind.allCases.map(\.rawValue).joined(separator: ", "))"
        case .unknownProperty(let node, let property, let kind):
            return "\(node): a \(kind) has no property \"\(property)\"; it has \(LayoutProperties.allowed(for: LayoutNodeKind(rawValue: kind) ?? .text).joined(separator: ", "))"
        case .missingProperty(let node, let property):
            return "\(node) needs the property \"\(property)\""
        case .invalidProperty(let node, let property, let reason):
            return "\(node): invalid \"\(property)\": \(reason)"
        case .invalidSize(let node, let property, let value):
            return "\(node): \"\(property)\" is \(value); lengths must be finite numbers of 0 or more (maxWidth/maxHeight may be \"infinity\")"
        case .invalidScaleFactor(let node, let value):
            return "\(node): minimumScaleFactor \(value) is outside (0, 1]"
        case .unknownSizeCategory(let node, let name):
            return "\(node): \"\(name)\" is not a size category; use one of \(SizeCategory.nameList)"
        case .thresholdWithoutCategory(let node):
            return "\(node): a threshold needs \"category\", the size category from which it stacks vertically"
        case .invalidChildren(let node, let reason):
            return "\(node): \(reason)"
        case .invalidProposal(let axis, let value):
            return "invalid proposed \(axis == .horizontal ? "width" : "height") \(value); give 0 or more, infinity, or nothing for the ideal size"
        case .measurementFailed(let node, let reason):
            return "\(node.map { "\($0): " } ?? "")cannot measure text: \(reason)"
        case .invalidBreakpoints(let reason):
            return "invalid breakpoint range: \(reason)"
        }
    }
}

/// Bounds on documents, checked before any layout work, so that a peer cannot make the daemon
/// spend unbounded memory, time or stack.
public enum LayoutLimits {
    /// Enough for the benchmark's 10,000-node documents; a 100,000-node document is refused.
    public static let maxNodes = 10_000
    /// Layout recurses once per level of the tree (sizing and placing, as SwiftUI does); this
    /// bound keeps that recursion far inside any thread's stack. Real documents are < 30 deep.
    public static let maxDepth = 128
    /// Bytes of UTF-8 in an id.
    public static let maxIDBytes = 256
    /// Distinct `font` strings in one document (``TextLimits/maxFontsPerRequest``).
    public static let maxFonts = TextLimits.maxFontsPerRequest
    /// Texts and templates one scaleGroup shrinks together. Its factor is found by laying its
    /// content out at up to a dozen factors (a bisection on the 1/``scaleSteps`` grid), each
    /// text measured again at each: 9,990 texts took 1.5 s of a worker (release build). A
    /// row of labels sharing a factor is a handful.
    public static let maxScaleGroupMembers = 1_000
    /// Scale factors are searched on a grid of 1/`scaleSteps` (factors exact to 1/100 or better).
    public static let scaleSteps = 1000
}

extension LayoutLimits {
    /// Bytes of UTF-8 in one text or template string.
    public static let maxTextBytes = 65_536
    /// Candidates of a list's choice point (a `choice`, or a `firstFit` that is a uniformFit's
    /// item): the list is laid out once per position, so positions × items must stay linear.
    /// A firstFit deeper inside an item decides for itself and is not bounded here.
    public static let maxChoicePositions = 32
    /// The product of the positions along nested uniformFits (an inner list is decided again
    /// for each position the outer one tries): without it the work grows as 32^depth.
    public static let maxNestedChoicePositions = 64
    /// Layouts one breakpoint search may run (samples and bisection steps): a document whose
    /// decisions flip at many widths is not laid out at every width; the search stops and
    /// reports ``LayoutBreakpoints/truncated``.
    public static let maxBreakpointLayouts = 256
    /// The work one breakpoint search may do, in node layouts (layouts × the document's nodes):
    /// 25 layouts of a 10,000-node document, the full 256 up to 1,000 nodes. Past it the search
    /// stops as above.
    public static let maxBreakpointWork = 256_000
    /// Decision intervals one breakpoint result reports in all (``LayoutBreakpoints/truncated``
    /// says when decisions were left out): each decision has at most one interval per change
    /// the search found, but a document may have thousands of decisions.
    public static let maxBreakpointIntervals = 1024
    /// The widest breakpoint range a Layout call may ask for (the `breakpoints` option).
    public static let maxBreakpointWidth = 1_000_000.0
}
