import FitLayout

/// A settings list for layout tests: `rows` rows (an `hstack`) of a label and a value with
/// `lineLimit` 1, every string carrying `tag`, then a template of two strings. Each row's texts
/// are what a row asks of its children at width 0 and unwrapped: 4 × rows + 2 measurements
/// ahead of the layout (TextEngineMeasurer.premeasure).
public enum ListDocument {
    public static func rows(_ rows: Int, tag: String) -> LayoutDocument {
        var nodes = [LayoutNode(id: "list", kind: .vstack, properties: .init(spacing: 4))]
        for row in 0..<rows {
            nodes.append(LayoutNode(id: "r\(row)", parent: .id("list"), kind: .hstack, properties: .init(spacing: 8)))
            nodes.append(LayoutNode(id: "r\(row)l", parent: .id("r\(row)"), kind: .text, properties: .init(text: "\(tag) setting \(row)")))
            nodes.append(LayoutNode(
                id: "r\(row)v", parent: .id("r\(row)"), kind: .text, properties: .init(text: "\(row * 37 % 1000) kB \(tag)", lineLimit: 1)))
        }
        nodes.append(LayoutNode(id: "size", parent: .id("list"), kind: .template, properties: .init(templates: ["\(tag) 0 kB", "\(tag) 999 kB"])))
        return LayoutDocument(nodes: nodes)
    }
}
