import CCairo
import FitLayout
import FitLayoutJSON
import FitLayoutText
import FitTestSupport
import FitText
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@testable import FitRender

/// Pictures of layouts (docs/pictures.md), on the pinned fonts. The frames against `fit --json` for
/// every example are Tests/render/check_layout_pictures.py's; these check the scene itself.
@Suite struct LayoutPictureTests {
    /// A card that is a row when it fits, else a column; an id that needs escaping; a hidden text.
    static let card = """
        {"version": 1, "nodes": [
          {"id": "card", "kind": "firstFit", "axes": "horizontal"},
          {"id": "row", "parent": "card", "kind": "hstack", "spacing": 8},
          {"id": "icon", "parent": "row", "kind": "image", "width": 20, "height": 20},
          {"id": "a<&\\"b", "parent": "row", "kind": "text", "text": "Screen time this week", "textStyle": "body"},
          {"id": "column", "parent": "card", "kind": "vstack", "spacing": 4},
          {"id": "ghost", "parent": "column", "kind": "text", "text": "190", "hidden": true},
          {"id": "label", "parent": "column", "kind": "text", "text": "Screen time this week", "textStyle": "body"}
        ]}
        """

    func sheets(_ json: String, categories: [SizeCategory], widths: [Double?]) throws -> [[LayoutSheet]] {
        let prepared = try PreparedLayout(LayoutDocument(json: json))
        let measurer = TextEngineMeasurer(engine: try PinnedEngine.engine())
        return try categories.map { category in
            try widths.map { width in
                let result = try prepared.layout(
                    in: ProposedSize(width: width, height: nil), options: LayoutOptions(sizeCategory: category), measurer: measurer)
                return LayoutSheet(prepared: prepared, result: result, measurer: measurer, sizeCategory: category)
            }
        }
    }

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func everyShownNodeIsOneRectAtItsFrameAndTheChoiceNotTakenIsNotDrawn() throws {
        let rows = try sheets(Self.card, categories: [.large], widths: [120])
        let result = rows[0][0].result
        #expect(result.decision("card")?.candidate == 1)  // 120 px: the column
        let svg = try LayoutPicture(rows: rows).svg()
        for node in result.nodes where node.visible {
            let f = node.frame
            let rect = "x=\"\(SVGWriter.number(f.x))\" y=\"\(SVGWriter.number(f.y))\" width=\"\(SVGWriter.number(f.width))\" height=\"\(SVGWriter.number(f.height))\""
            #expect(svg.contains(rect), "\(node.id) at \(f)")
            #expect(svg.contains("<title>\(LayoutPicture.escaped(node.id))</title></rect>"))
        }
        #expect(count("<rect class=\"node ", in: svg) == result.nodes.filter(\.visible).count)
        #expect(!svg.contains("<title>row</title>"))
        #expect(svg.contains("<rect class=\"node text hidden\""))
        #expect(svg.contains("<title>a&lt;&amp;&quot;b</title>") == false)  // in the row, not shown at 120
        #expect(svg.contains("<g class=\"label decision\"><title>card (firstFit): candidate 1 (column)</title>"))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test func anIdIsEscapedAndTheRowIsDrawnWhereItFits() throws {
        let rows = try sheets(Self.card, categories: [.large], widths: [400])
        #expect(rows[0][0].result.decision("card")?.candidate == 0)
        let svg = try LayoutPicture(rows: rows).svg()
        #expect(svg.contains("<title>a&lt;&amp;&quot;b</title></rect>"))
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test func sheetsAreAGridOfCategoriesByWidthsAndShareOneDefinitionPerGlyph() throws {
        let rows = try sheets(Self.card, categories: [.large, .accessibilityExtraLarge], widths: [120, 400])
        let picture = try LayoutPicture(rows: rows)
        #expect(picture.notes.isEmpty, "\(picture.notes)")
        let svg = picture.svg()
        #expect(count("<g class=\"sheet\"", in: svg) == 4)
        let descs = ["large; width 120", "large; width 400", "accessibilityExtraLarge; width 120", "accessibilityExtraLarge; width 400"]
        var at = svg.startIndex
        for desc in descs {  // row by row
            let found = try #require(svg.range(of: "<desc>category \(desc)</desc>", range: at..<svg.endIndex), "\(desc)")
            at = found.upperBound
        }
        // "Screen time this week" in three sheets and the labels: each glyph defined once.
        let ids = svg.components(separatedBy: "<path id=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(Set(ids).count == ids.count)
        #expect(count("<use ", in: svg) > 4 * ids.count)
        // The grid: the second column starts where the widest first-column sheet ends.
        let scene = picture.scene
        #expect(scene.sheets[0].x == scene.sheets[2].x && scene.sheets[1].x == scene.sheets[3].x)
        #expect(scene.sheets[1].x >= scene.sheets[0].x + max(scene.sheets[0].width, scene.sheets[2].width))
        #expect(scene.sheets[2].y >= scene.sheets[0].y + max(scene.sheets[0].height, scene.sheets[1].height))
    }

    @Test func textsAreDrawnAtTheScaleAndInTheFrameTheLayoutGave() throws {
        // A scale group at 0.5: the glyphs of the shrunk texts stay inside their frames.
        let json = """
            {"version": 1, "nodes": [
              {"id": "g", "kind": "scaleGroup", "minimumScaleFactor": 0.5},
              {"id": "row", "parent": "g", "kind": "hstack", "spacing": 10},
              {"id": "a", "parent": "row", "kind": "text", "text": "ISO 3200", "lineLimit": 1},
              {"id": "b", "parent": "row", "kind": "text", "text": "f/2.8", "lineLimit": 1}
            ]}
            """
        let rows = try sheets(json, categories: [.large], widths: [70])
        let result = rows[0][0].result
        let scale = try #require(result.decision("g")?.scale)
        #expect(scale < 1)
        let picture = try LayoutPicture(rows: rows)
        #expect(picture.notes.isEmpty, "\(picture.notes)")
        let sheet = picture.scene.sheets[0]
        let right = try #require(result.frame("b")).maxX
        // Whole-pixel glyph origins (as cairo draws): within a pixel of the frame.
        #expect(sheet.glyphs.allSatisfy { $0.x >= -0.5 && $0.x <= right + 0.5 })
        // The same texts at scale 1 are wider than the frames: the scale was applied.
        let unscaled = try PinnedEngine.engine().measure(MeasureRequest(text: "ISO 3200", font: "sans-serif 11")).width
        #expect(try #require(result.frame("a")).width < unscaled)
    }

    @Test func aTextProposedLessThanItsWidestClusterIsDrawnInTheLayoutsLines() throws {
        // At 0 px "Screen time" breaks after every cluster, the frame as wide as its widest
        // letter; wrapped at the frame's width it would take fewer lines (two narrow letters).
        let json = """
            {"version": 1, "nodes": [{"id": "t", "kind": "text", "text": "Screen time"}]}
            """
        let rows = try sheets(json, categories: [.large], widths: [0])
        let sheet = rows[0][0]
        let outcome = try #require(sheet.result.node("t")?.text)
        #expect(outcome.lineCount > 6)
        let picture = try LayoutPicture(rows: rows)
        #expect(picture.notes.isEmpty, "\(picture.notes)")
        let frame = try #require(sheet.result.frame("t"))
        let request = try #require(try sheet.measurer.redrawRequest(node: 0, of: sheet.prepared, in: sheet.result, sizeCategory: .large))
        let engine = try PinnedEngine.engine()
        #expect(try engine.measure(request).lineCount == outcome.lineCount)
        #expect((request.maxWidth ?? .infinity) < frame.width)  // not the frame's width: too few lines there
        var atFrame = request
        atFrame.maxWidth = frame.width
        #expect(try engine.measure(atFrame).lineCount < outcome.lineCount)
    }

    @Test func aChoiceIsLabelledWithTheChildItShows() throws {
        let json = """
            {"version": 1, "nodes": [
              {"id": "list", "kind": "uniformFit", "axis": "vertical"},
              {"id": "item", "parent": "list", "kind": "choice"},
              {"id": "wide", "parent": "item", "kind": "text", "text": "Groceries and household", "lineLimit": 1},
              {"id": "short", "parent": "item", "kind": "text", "text": "Food"}
            ]}
            """
        let rows = try sheets(json, categories: [.large], widths: [60])
        #expect(rows[0][0].result.decision("list")?.candidate == 1)
        let svg = try LayoutPicture(rows: rows).svg()
        #expect(svg.contains("<title>item (choice): candidate 1 (short)</title>"))
        #expect(svg.contains("<title>list (uniformFit): candidate 1 for all items</title>"))
    }

    @Test func aPictureTooLargeIsRefused() throws {
        let json = """
            {"version": 1, "nodes": [{"id": "wide", "kind": "image", "width": 4000, "height": 4000}]}
            """
        let rows = try sheets(json, categories: [.large, .xLarge, .xxLarge, .xxxLarge, .accessibilityMedium], widths: [nil])
        #expect(throws: RenderError.self) { try LayoutPicture(rows: rows) }
    }

    @Test func bothThemesPaintTheirBackgroundAndPNGIsWritten() throws {
        let rows = try sheets(Self.card, categories: [.large], widths: [200])
        let light = try LayoutPicture(rows: rows, options: RenderOptions(theme: .light)).svg()
        let dark = try LayoutPicture(rows: rows, options: RenderOptions(theme: .dark)).svg()
        #expect(light.contains("fill=\"#edf0f2\"") && dark.contains("fill=\"#121214\""))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-layout-picture-\(getpid()).png").path
        defer { unlink(path) }
        try LayoutPicture(rows: rows).writePNG(to: path)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.prefix(8) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        // PNGEncoder's file, read back by cairo (libpng checks every chunk's CRC and the
        // zlib stream): the scene's size, the background's colour in the corner, text ink.
        let image = try #require(PNGWriter.decode(bytes))
        defer { cairo_surface_destroy(image) }
        let scene = try LayoutPicture(rows: rows).scene
        #expect(cairo_image_surface_get_width(image) == Int32(scene.width))
        #expect(cairo_image_surface_get_height(image) == Int32(scene.height))
        let data = try #require(cairo_image_surface_get_data(image))
        let stride = Int(cairo_image_surface_get_stride(image))
        func pixel(_ x: Int, _ y: Int) -> UInt32 {
            UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)[x]
        }
        // The light theme's background, opaque; within one level of the SVG's #edf0f2 (cairo
        // rounds 0.93 × 255 through 16 bits to 0xee).
        let corner = pixel(0, 0)
        #expect(corner >> 24 == 0xFF)
        for (shift, want) in [(16, 0xED), (8, 0xF0), (0, 0xF2)] as [(UInt32, Int)] {
            #expect(abs(Int(corner >> shift & 0xFF) - want) <= 1, "\(String(corner, radix: 16))")
        }
        var black = 0
        for y in 0..<scene.height { for x in 0..<scene.width where pixel(x, y) == 0xFF00_0000 { black += 1 } }
        // Text is drawn: fully black pixels where glyph stems cover whole pixels (26 for the
        // scene's labels in GTK's default Sans 10).
        #expect(black > 20)
        #expect(throws: RenderError.self) { try LayoutPicture(rows: rows).writePNG(to: "/nonexistent-dir/x.png") }
    }
}
