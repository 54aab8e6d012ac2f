import FitTestSupport
import FitText
import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@testable import FitRender

/// Pictures of text (docs/pictures.md): the SVG writer on the pinned fonts
/// (Tests/fonts/fonts.conf).
@Suite struct SVGWriterTests {
    private func layout(_ text: String, font: String = "DejaVu Sans 12", maxWidth: Double? = nil) throws -> PositionedGlyphs {
        try PinnedEngine.engine().positionedGlyphs(MeasureRequest(text: text, font: font, maxWidth: maxWidth))
    }

    private func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func eachGlyphIsDefinedOnceAndPlacedWhereverItIsUsed() throws {
        let svg = try SVGWriter().svg(layout("lolol lol"))
        // Two distinct glyphs with ink (l, o); the space has none and is neither defined nor used.
        #expect(count("<path id=", in: svg) == 2)
        #expect(count("<use ", in: svg) == 8)
    }

    @Test func theSameTextGivesTheSameSVGWhateverTheEngineLoadedBefore() throws {
        // The daemon's pictures are drawn by a fresh engine in fitctl, --local's by the engine
        // that measured: glyph names must not carry the engine's count of fonts loaded.
        let request = MeasureRequest(text: "Hello שלום 👋", font: "Noto Sans 14")
        let fresh = try SVGWriter().svg(PinnedEngine.freshEngine().positionedGlyphs(request))
        let used = try PinnedEngine.freshEngine()
        _ = try used.positionedGlyphs(MeasureRequest(text: "fn main() 你好", font: "DejaVu Sans Mono 12"))
        _ = try used.positionedGlyphs(MeasureRequest(text: "नमस्ते", font: "Noto Serif 20"))
        #expect(try SVGWriter().svg(used.positionedGlyphs(request)) == fresh)
        #expect(fresh.contains("id=\"f0g") && fresh.contains("id=\"f2g"))
    }

    @Test func theOutlineOfDejaVuSansLIsItsRectangleFromTheFont() throws {
        // DejaVu Sans's "l" (glyph 79) is the rectangle x 193…377, y 0…1556 in its 2048 units
        // per em: at 1024 px, half of that, with y down.
        let laid = try layout("l", font: "DejaVu Sans 1024px")
        let glyph = try #require(laid.lines.first?.runs.first?.glyphs.first)
        #expect(glyph.id == 79)
        let font = try #require(laid.lines.first?.runs.first?.font)
        guard case .outline(let commands) = GlyphShapes().shape(of: glyph.id, in: font) else {
            Issue.record("no outline")
            return
        }
        // As FreeType loads it (FreeTypeGlyphs): the contour closed by Z, without the closing
        // line HarfBuzz's draw API gives (hb_draw_close_path after an explicit line_to).
        #expect(commands == [.move(96.5, -778), .line(188.5, -778), .line(188.5, 0), .line(96.5, 0), .close])
        #expect(SVGWriter.pathData(commands) == "M96.5 -778L188.5 -778L188.5 0L96.5 0Z")
        // HarfBuzz's outline is the same rectangle (the fallback when cairo cannot load a font).
        guard case .outline(let fromHarfBuzz) = GlyphShapes.harfBuzzOutline(glyph.id, hbFont: font.hbFont) else {
            Issue.record("no HarfBuzz outline")
            return
        }
        #expect(fromHarfBuzz == [.move(96.5, -778), .line(188.5, -778), .line(188.5, 0), .line(96.5, 0), .line(96.5, -778), .close])
    }

    @Test func theDocumentIsWellFormedXMLWithItsSizeAndViewBox() throws {
        let laid = try layout("Hello, world 👋 שלום नमस्ते", maxWidth: 120)
        let svg = try SVGWriter(options: RenderOptions(boxes: true)).svg(laid)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        let width = Int((laid.metrics.width + 20).rounded(.up))
        #expect(svg.contains("width=\"\(width)\""))
        #expect(svg.contains("viewBox=\"0 0 \(width) "))
        // --boxes: one box and one baseline per line.
        #expect(count("<line ", in: svg) == laid.lines.count)
    }

    @Test func colourEmojiAreEmbeddedPNGsReusedLikeOutlines() throws {
        let svg = try SVGWriter().svg(layout("👍 👍 x", font: "Noto Sans 12"))
        #expect(count("<image id=", in: svg) == 1)
        #expect(count("data:image/png;base64,iVBORw0KGgo", in: svg) == 1)  // the PNG signature
        #expect(count("<use ", in: svg) == 3)
    }

    @Test func characterNoFontHasIsAHexBoxAsWideAsMeasured() throws {
        // U+0378 is unassigned: no font covers it, and Pango draws a hex box.
        let laid = try layout("a\u{378}b")
        let boxes = laid.lines.flatMap(\.runs).flatMap(\.glyphs).filter { $0.hexBox != nil }
        #expect(boxes.count == 1)
        #expect(boxes.first?.hexBox == 0x378)
        let svg = try SVGWriter().svg(laid)
        #expect(svg.contains("<g fill=\"none\""))
    }

    @Test func glyphsEndWhereTheMeasurementEndsTheLine() throws {
        let laid = try layout("The quick brown fox jumps over the lazy dog", maxWidth: 120)
        #expect(laid.lines.count == laid.metrics.lineCount)
        for line in laid.lines {
            let drawn = line.runs.flatMap(\.glyphs).reduce(0) { $0 + $1.advance }
            // Wrapped lines keep their trailing space in the glyphs, not in the width.
            let trailing = line.runs.last?.glyphs.last?.advance ?? 0
            #expect(abs(drawn - line.width) < 0.001 || abs(drawn - trailing - line.width) < 0.001)
        }
        #expect(laid.lines.map(\.baseline) == laid.lines.indices.map { i in laid.lines[i].baseline })
        #expect(abs((laid.lines.first?.baseline ?? 0) - laid.metrics.baseline) < 0.001)
    }

    @Test func glyphOriginsAreOnWholePixelsUnlessAskedForExactOnes() throws {
        let laid = try layout("Wavy kerning AV To")
        let aligned = try TextPicture(laid, options: RenderOptions())
        #expect(aligned.glyphs.allSatisfy { $0.x == $0.x.rounded() && $0.y == $0.y.rounded() })
        let exact = try TextPicture(laid, options: RenderOptions(pixelAlignedGlyphs: false))
        #expect(exact.glyphs.contains { $0.x != $0.x.rounded() })
    }

    @Test func numbersAreWrittenToHundredthsWithoutTrailingZeros() {
        #expect(SVGWriter.number(12) == "12")
        #expect(SVGWriter.number(3.5) == "3.5")
        #expect(SVGWriter.number(-0.25) == "-0.25")
        #expect(SVGWriter.number(1.005) == "1.01" || SVGWriter.number(1.005) == "1")
        #expect(SVGWriter.number(0.04) == "0.04")
        #expect(SVGWriter.number(.nan) == "0")
        #expect(SVGWriter.number(3e35) == "0")  // a hostile font's coordinate does not trap
    }

    @Test func base64MatchesRFC4648Vectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors { #expect(Base64.encode(Array(plain.utf8)) == encoded) }
    }
}

@Suite struct PNGWriterTests {
    @Test func writesAPNGFileAndReportsAPathItCannotWrite() throws {
        let laid = try PinnedEngine.engine().positionedGlyphs(MeasureRequest(text: "Hi 👋", font: "Noto Sans 12"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-render-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGWriter(options: RenderOptions(theme: .dark, boxes: true)).write(laid, to: path)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(throws: RenderError.self) { try PNGWriter().write(laid, to: "/nonexistent-dir/x.png") }
    }

    @Test func aPictureTooLargeIsRefusedBeforeAnythingIsAllocated() throws {
        let laid = try PinnedEngine.engine().positionedGlyphs(MeasureRequest(text: String(repeating: "W", count: 16), font: "DejaVu Sans 2000px"))
        #expect(throws: RenderError.self) { try SVGWriter().svg(laid) }
        #expect(throws: RenderError.self) { try PNGWriter().write(laid, to: "/tmp/never.png") }
    }
}

/// Every picture is written by ``PictureFile``: as command-line tools write a file.
@Suite struct PictureFileTests {
    @Test func aPathEndingInASlashIsRefusedNotWrittenWithoutIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: RenderError.write(path: directory + "/x.svg/", reason: "Is a directory")) {
            try PictureFile.write(Array("<svg/>".utf8), to: directory + "/x.svg/")
        }
        #expect(access(directory + "/x.svg", F_OK) != 0)
    }

    @Test func aLinkIsWrittenThroughNotReplaced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(symlink(directory + "/target.svg", directory + "/link.svg") == 0)
        try PictureFile.write(Array("<svg/>".utf8), to: directory + "/link.svg")
        var info = stat()
        #expect(lstat(directory + "/link.svg", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try String(contentsOfFile: directory + "/target.svg", encoding: .utf8) == "<svg/>")
    }

    @Test func aFullDiskIsReportedWithTheSystemsReason() {
        #expect(throws: RenderError.write(path: "/dev/full", reason: "No space left on device")) {
            try PictureFile.write([UInt8](repeating: 1, count: 100_000), to: "/dev/full")
        }
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-picture-file-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }
}
