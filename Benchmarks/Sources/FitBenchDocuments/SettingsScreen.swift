import FitLayout

/// A settings screen of `count` nodes: a card that is a row or a column (firstFit), a payment
/// row (threshold), exposure labels (scaleGroup) — each while it fits in the count — then
/// rows of label, spacer, value (four nodes each), then single labels to make up the count.
public func document(nodes count: Int) -> LayoutDocument {
    var nodes = [LayoutNode(id: "screen", kind: .vstack, properties: .init(spacing: 6))]
    func add(_ id: String, _ parent: String, _ kind: LayoutNodeKind, _ properties: LayoutProperties = .init()) {
        nodes.append(LayoutNode(id: id, parent: .id(parent), kind: kind, properties: properties))
    }
    if count - nodes.count >= 7 {
        add("card", "screen", .firstFit, .init(axes: .horizontal))
        add("row", "card", .hstack, .init(spacing: 8))
        add("rowIcon", "row", .image, .init(textStyle: .body))
        add("rowLabel", "row", .text, .init(text: "Screen time this week", textStyle: .body))
        add("column", "card", .vstack, .init(spacing: 4))
        add("columnIcon", "column", .image, .init(textStyle: .body))
        add("columnLabel", "column", .text, .init(text: "Screen time this week", textStyle: .body))
    }
    if count - nodes.count >= 5 {
        add("payment", "screen", .threshold, .init(spacing: 8, category: .accessibilityMedium))
        add("payIcon", "payment", .image, .init(textStyle: .body))
        add("merchant", "payment", .text, .init(text: "Joe's Coffee Shop", textStyle: .body))
        add("gap", "payment", .spacer, .init(when: .horizontal))
        add("amount", "payment", .text, .init(text: "$2.34", textStyle: .body))
    }
    if count - nodes.count >= 5 {
        add("exposure", "screen", .scaleGroup, .init(minimumScaleFactor: 0.5))
        add("labels", "exposure", .hstack, .init(spacing: 10))
        add("shutter", "labels", .text, .init(text: "1/1000s", lineLimit: 1))
        add("iso", "labels", .text, .init(text: "ISO 3200", lineLimit: 1))
        add("aperture", "labels", .text, .init(text: "f/2.8", lineLimit: 1))
    }
    var row = 0
    while count - nodes.count >= 4 {
        add("r\(row)", "screen", .hstack)
        add("r\(row)l", "r\(row)", .text, .init(text: "Setting number \(row)"))
        add("r\(row)s", "r\(row)", .spacer)
        add("r\(row)v", "r\(row)", .text, .init(text: "\(row * 7 % 1000) kB"))
        row += 1
    }
    while nodes.count < count { add("t\(nodes.count)", "screen", .text, .init(text: "Note \(nodes.count)")) }
    return LayoutDocument(nodes: nodes)
}

/// A long list of settings, `rows` rows of a label and a value (`lineLimit` 1), every string
/// carrying `tag`: a document of many texts that no cache has seen when the tag is new (issue
/// 14's Layout of many texts over every core).
public func settingsList(rows: Int, tag: String) -> LayoutDocument {
    var nodes = [LayoutNode(id: "list", kind: .vstack, properties: .init(spacing: 4))]
    for row in 0..<rows {
        nodes.append(LayoutNode(id: "r\(row)", parent: .id("list"), kind: .hstack, properties: .init(spacing: 8)))
        nodes.append(LayoutNode(id: "r\(row)l", parent: .id("r\(row)"), kind: .text, properties: .init(text: "\(tag) setting \(row)")))
        nodes.append(LayoutNode(id: "r\(row)s", parent: .id("r\(row)"), kind: .spacer))
        nodes.append(LayoutNode(
            id: "r\(row)v", parent: .id("r\(row)"), kind: .text, properties: .init(text: "\(row * 37 % 1000) kB of \(tag)", lineLimit: 1)))
    }
    return LayoutDocument(nodes: nodes)
}
