import FitLayout
import FitLayoutText
import FitText

/// One sheet of a layout picture: a document laid out at one proposal and size category,
/// with the measurer it was laid out with (same fonts, UI font and text scale), so that its
/// texts are drawn in the glyphs the layout measured.
public struct LayoutSheet {
    public var prepared: PreparedLayout
    public var result: LayoutResult
    public var measurer: TextEngineMeasurer
    public var sizeCategory: SizeCategory
    /// Said before the category in the title: what tells sheets of one category and width
    /// apart (a language, in `fitctl check`'s pictures).
    public var caption: String?

    public init(
        prepared: PreparedLayout, result: LayoutResult, measurer: TextEngineMeasurer, sizeCategory: SizeCategory,
        caption: String? = nil
    ) {
        self.prepared = prepared
        self.result = result
        self.measurer = measurer
        self.sizeCategory = sizeCategory
        self.caption = caption
    }

    /// "large · width 320" (the proposal's width; "ideal" without one), after the caption.
    public var title: String {
        (caption.map { "\($0) · " } ?? "") + "\(sizeCategory.name) · width \(ProposedSize.describe(result.proposal.width))"
    }
}

/// Pictures of layouts (`fitctl fit --output`): sheets in a grid (a row per size category, a
/// column per width), each titled, every shown node's frame outlined in its kind's colour, the
/// texts in their real glyphs at their frames and scale, and under each layout its decisions.
/// The same scene is written as SVG (``svg()``) or drawn by cairo (``writePNG(to:)``).
public struct LayoutPicture {
    public var options: RenderOptions
    /// Texts drawn differently from what the layout says (line count, truncation or width):
    /// the picture's engine and the layout's disagree (e.g. the daemon has other fonts).
    public private(set) var notes: [String] = []
    let scene: LayoutScene
    let shapes = GlyphShapes()

    /// `rows[r][c]`: the sheet at row r, column c (rows may be of different lengths).
    public init(rows: [[LayoutSheet]], options: RenderOptions = RenderOptions()) throws(RenderError) {
        self.options = options
        var notes: [String] = []
        scene = try LayoutScene(rows: rows, options: options, notes: &notes)
        self.notes = notes
    }
}

/// What both writers draw: sheets at whole-pixel positions, each with its labels (in sheet
/// coordinates) and its layout (in layout coordinates, from the layout's origin).
struct LayoutScene {
    enum Style {
        case container, modifier, decision, text, spacer, image
    }

    struct Outline {
        var nodeID: String
        var kind: LayoutNodeKind
        var rect: TextPicture.Rect
        var style: Style
        var hidden: Bool
    }

    struct Sheet {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
        var title: String
        var category: String
        var proposal: String
        /// The layout's top-left corner in the sheet, and its size as drawn (clipped).
        var layoutX: Double
        var layoutY: Double
        var layoutWidth: Double
        var layoutHeight: Double
        /// The proposed width, when finite and drawable: a dashed line shows how much of it
        /// the layout took.
        var proposalX: Double?
        var outlines: [Outline] = []
        /// Texts of the layout, in layout coordinates.
        var glyphs: [TextPicture.PlacedGlyph] = []
        var hexBoxes: [TextPicture.Rect] = []
        /// Title and decisions, in sheet coordinates.
        var labels: [Label] = []
    }

    /// One line of text about a sheet: its title, a decision, the truncated texts.
    struct Label {
        enum Role: String { case title, decision, truncated }
        var role: Role
        var text: String
        var glyphs: [TextPicture.PlacedGlyph] = []
        var hexBoxes: [TextPicture.Rect] = []
    }

    var width: Int
    var height: Int
    var sheets: [Sheet] = []

    /// Space around and between sheets, and inside a sheet around its contents, px.
    static let gap = 16.0
    static let padding = 10.0
    static let lineGap = 6.0
    /// A layout larger than this (an infinite proposal can give an infinite frame) is drawn
    /// clipped to it.
    static let maxLayoutSide = 4096.0
    static let titleFont = "sans-serif Bold 10"
    static let labelFont = "sans-serif 9"

    init(rows: [[LayoutSheet]], options: RenderOptions, notes: inout [String]) throws(RenderError) {
        var built: [[Sheet]] = []
        for row in rows {
            var sheets: [Sheet] = []
            for sheet in row { sheets.append(try Self.sheet(sheet, options: options, notes: &notes)) }
            built.append(sheets)
        }
        // Columns as wide as their widest sheet, rows as tall as their tallest: a grid a person
        // reads across (widths) and down (categories).
        let columns = built.map(\.count).max() ?? 0
        let columnWidths = (0..<columns).map { c in built.compactMap { c < $0.count ? $0[c].width : nil }.max() ?? 0 }
        var y = Self.gap
        for row in built {
            var x = Self.gap
            for (c, var sheet) in row.enumerated() {
                sheet.x = x
                sheet.y = y
                sheet.width = columnWidths[c]
                sheets.append(sheet)
                x += columnWidths[c] + Self.gap
            }
            y += (row.map(\.height).max() ?? 0) + Self.gap
        }
        let w = columnWidths.reduce(Self.gap) { $0 + $1 + Self.gap }
        let h = y
        guard w <= TextPicture.maxSide, h <= TextPicture.maxSide, w * h <= TextPicture.maxPixels else {
            throw .tooLarge(width: w, height: h, limit: Int(TextPicture.maxSide), pixels: Int(TextPicture.maxPixels))
        }
        width = Int(w)
        height = Int(h)
    }

    static func style(_ kind: LayoutNodeKind) -> Style {
        switch kind {
        case .text: return .text
        case .spacer: return .spacer
        case .image: return .image
        case .frame, .padding, .fixedSize: return .modifier
        case .firstFit, .uniformFit, .threshold, .fitting, .scaleGroup, .choice, .template: return .decision
        default: return .container
        }
    }

    /// A frame as drawn: within ±``maxLayoutSide`` (frames may be infinite or huge). Not
    /// clipped to the root: a child that overflows its layout is drawn where it is.
    static func clipped(_ frame: LayoutRect) -> TextPicture.Rect {
        func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, -maxLayoutSide), maxLayoutSide) }
        let x = clamp(frame.x), y = clamp(frame.y)
        return TextPicture.Rect(x: x, y: y, width: max(0, clamp(frame.maxX) - x), height: max(0, clamp(frame.maxY) - y))
    }

    /// "rent (choice): candidate 1 (rentColumn)" for each shown choice node, from its shown child.
    static func choices(_ document: LayoutDocument, _ result: LayoutResult) -> [String] {
        let nodes = document.nodes
        guard nodes.count == result.nodes.count, nodes.contains(where: { $0.kind == .choice }) else { return [] }
        var indexOfID: [String: Int] = [:]
        for (index, node) in nodes.enumerated() { indexOfID[node.id] = index }
        var children: [Int: [Int]] = [:]
        for (index, node) in nodes.enumerated() {
            switch node.parent {
            case .index(let parent)?: children[parent, default: []].append(index)
            case .id(let name)?: if let parent = indexOfID[name] { children[parent, default: []].append(index) }
            case nil: break
            }
        }
        return nodes.indices.compactMap { index in
            guard nodes[index].kind == .choice, result.nodes[index].visible,
                let (position, child) = (children[index] ?? []).enumerated().first(where: { result.nodes[$0.element].visible })
            else { return nil }
            return "\(nodes[index].id) (choice): candidate \(position) (\(nodes[child].id))"
        }
    }

    static func sheet(_ input: LayoutSheet, options: RenderOptions, notes: inout [String]) throws(RenderError) -> Sheet {
        let engine = input.measurer.engine
        let result = input.result
        let nodes = input.prepared.document.nodes
        func finite(_ v: Double) -> Double { v.isFinite ? min(max(0, v), maxLayoutSide) : maxLayoutSide }
        let layoutWidth = finite(result.size.width), layoutHeight = finite(result.size.height)
        // Room for what overflows the root to the right or below (a text under a 0 px proposal).
        let shown = result.nodes.filter(\.visible).map { clipped($0.frame) }
        let extentWidth = max(layoutWidth, shown.map { $0.x + $0.width }.max() ?? 0)
        let extentHeight = max(layoutHeight, shown.map { $0.y + $0.height }.max() ?? 0)

        var sheet = Sheet(
            x: 0, y: 0, width: 0, height: 0, title: input.title, category: input.sizeCategory.name,
            proposal: ProposedSize.describe(result.proposal.width), layoutX: padding, layoutY: padding,
            layoutWidth: layoutWidth, layoutHeight: layoutHeight)

        // The labels: title, then one line per decision and one for truncation.
        var top = padding
        let title = try label(input.title, .title, engine: engine, top: &top)
        top += lineGap
        sheet.layoutY = top
        top += extentHeight.rounded(.up) + lineGap
        var labels = [title]
        for (text, role) in outcomeLabels(input, result) { labels.append(try label(text, role, engine: engine, top: &top)) }
        sheet.labels = labels.map(\.label)
        let labelWidth = labels.map(\.width).max() ?? 0
        if let width = result.proposal.width, width.isFinite, width > 0, width <= maxLayoutSide { sheet.proposalX = width }
        sheet.width = (max(labelWidth, extentWidth, sheet.proposalX ?? 0) + 2 * padding).rounded(.up)
        sheet.height = (top + padding).rounded(.up)

        // Frames, in document order (parents before children in the flat form; containers
        // first either way, drawn under the texts).
        for (index, node) in result.nodes.enumerated() where node.visible && index < nodes.count {
            let kind = nodes[index].kind
            sheet.outlines.append(
                Outline(
                    nodeID: node.id, kind: kind, rect: clipped(node.frame),
                    style: style(kind), hidden: node.hidden))
        }

        // Texts, drawn again by the engine as the layout measured them.
        (sheet.glyphs, sheet.hexBoxes) = drawnTexts(input, options: options, notes: &notes)
        return sheet
    }

    /// A label's glyphs below the ones before it (`top`, moved past it), and its width.
    private static func label(
        _ text: String, _ role: Label.Role, engine: TextEngine, top: inout Double
    ) throws(RenderError) -> (label: Label, width: Double) {
        let layout: PositionedGlyphs
        do throws(FitTextError) {
            layout = try engine.positionedGlyphs(MeasureRequest(text: text, font: role == .title ? titleFont : labelFont))
        } catch {
            throw .text("label \"\(text)\": \(error.description)")
        }
        var glyphs: [TextPicture.PlacedGlyph] = [], hexBoxes: [TextPicture.Rect] = []
        TextPicture.place(layout, left: padding, top: top, pixelAligned: true, glyphs: &glyphs, hexBoxes: &hexBoxes)
        top += layout.metrics.height.rounded(.up)
        return (Label(role: role, text: text, glyphs: glyphs, hexBoxes: hexBoxes), layout.metrics.width)
    }

    /// The labels under the layout: one per decision, one per choice, and one for the
    /// truncated texts.
    private static func outcomeLabels(_ input: LayoutSheet, _ result: LayoutResult) -> [(String, Label.Role)] {
        var labels: [(String, Label.Role)] = []
        for decision in result.decisions { labels.append(("\(decision.id) (\(decision.kind.rawValue)): \(decision.outcome)", .decision)) }
        // A choice follows its uniformFit (or a forced choice): the result carries no decision
        // for it, but which of its children is shown says which it took.
        let choices = Self.choices(input.prepared.document, result)
        for choice in choices { labels.append((choice, .decision)) }
        if result.decisions.isEmpty && choices.isEmpty { labels.append(("no decisions", .decision)) }
        let truncated = result.nodes.filter { $0.visible && $0.text?.truncated == true && !$0.hidden }.map(\.id)
        if !truncated.isEmpty { labels.append(("truncated: " + truncated.joined(separator: ", "), .truncated)) }
        return labels
    }

    /// The glyphs of every text the layout shows, each drawn again by the engine in its frame;
    /// a text that cannot be drawn, or is drawn otherwise than the layout measured it, gets a note.
    private static func drawnTexts(
        _ input: LayoutSheet, options: RenderOptions, notes: inout [String]
    ) -> ([TextPicture.PlacedGlyph], [TextPicture.Rect]) {
        let engine = input.measurer.engine
        let result = input.result
        var glyphs: [TextPicture.PlacedGlyph] = [], hexBoxes: [TextPicture.Rect] = []
        for (index, node) in result.nodes.enumerated() {
            let request: MeasureRequest?
            do throws(LayoutError) {
                request = try input.measurer.redrawRequest(node: index, of: input.prepared, in: result, sizeCategory: input.sizeCategory)
            } catch {
                notes.append("\(node.id): \(error)")
                continue
            }
            guard let request, let outcome = node.text else { continue }
            let layout: PositionedGlyphs
            do throws(FitTextError) {
                layout = try engine.positionedGlyphs(request)
            } catch {
                notes.append("\(node.id): \(error.description)")
                continue
            }
            let metrics = layout.metrics
            let drawnTruncated = metrics.truncated || metrics.ellipsized
            if metrics.lineCount != outcome.lineCount || drawnTruncated != outcome.truncated || metrics.width > node.frame.width + 0.01 {
                notes.append(
                    "\(node.id) at \(input.title): drawn as \(metrics.lineCount) line(s)\(drawnTruncated ? ", truncated" : ""), \(metrics.width) px wide; the layout says \(outcome.lineCount)\(outcome.truncated ? ", truncated" : ""), \(node.frame.width) px"
                )
            }
            let frame = node.frame
            // multilineTextAlignment places the lines in the frame (spec 2.1); leading keeps
            // the engine's own x (a right-to-left paragraph's lines are already right-aligned).
            var lineX: ((GlyphLine) -> Double)? = nil
            switch outcome.alignment {
            case .center?: lineX = { (frame.width - $0.width) / 2 }
            case .trailing?: lineX = { frame.width - $0.width }
            default: break
            }
            guard frame.x.isFinite, frame.y.isFinite else { continue }
            TextPicture.place(
                layout, left: frame.x, top: frame.y, pixelAligned: options.pixelAlignedGlyphs, lineX: lineX,
                glyphs: &glyphs, hexBoxes: &hexBoxes)
        }
        return (glyphs, hexBoxes)
    }
}
