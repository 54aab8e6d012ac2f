@testable import FitLayout
import FitLayoutJSON

/// Every character 10 wide, every line 20 tall: the numbers in the comments are hand arithmetic.
let measurer = FixedAdvanceMeasurer(advance: 10, lineHeight: 20)

func node(_ id: String, _ parent: NodeReference?, _ kind: LayoutNodeKind, _ properties: LayoutProperties = .init()) -> LayoutNode {
    LayoutNode(id: id, parent: parent, kind: kind, properties: properties)
}

func text(_ id: String, _ parent: NodeReference?, _ string: String, lineLimit: Int? = nil, style: TextStyle? = nil) -> LayoutNode {
    node(id, parent, .text, .init(text: string, textStyle: style, lineLimit: lineLimit))
}

func image(_ id: String, _ parent: NodeReference?, _ side: Double = 20) -> LayoutNode {
    node(id, parent, .image, .init(width: side, height: side))
}

func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> LayoutRect {
    LayoutRect(x: x, y: y, width: width, height: height)
}

func layout(
    _ nodes: [LayoutNode], width: Double?, height: Double? = nil, category: SizeCategory = .large,
    using textMeasurer: FixedAdvanceMeasurer = measurer
) throws -> LayoutResult {
    try LayoutDocument(nodes: nodes).layout(
        in: ProposedSize(width: width, height: height), options: LayoutOptions(sizeCategory: category), measurer: textMeasurer)
}

/// The error a document is refused with, or nil.
func refusal(_ nodes: [LayoutNode]) -> LayoutError? {
    do {
        _ = try PreparedLayout(LayoutDocument(nodes: nodes))
        return nil
    } catch {
        return error
    }
}

func refusal(json: String) -> LayoutError? {
    do {
        _ = try PreparedLayout(LayoutDocument(json: json))
        return nil
    } catch {
        return error
    }
}
