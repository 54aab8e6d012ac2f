// FitBenchPictures: pictures of layouts (target: "a 50-node document at 12 categories to
// SVG in < 50 ms, to PNG in < 200 ms"). The settings screen of 50 nodes is laid out at width
// 320 in each of the 12 size categories with the real text engine, then drawn: 12 sheets in
// one picture, as `fitctl fit doc.json --categories all --width 320 --output x.svg|x.png`
// draws them. The peer measured in the same run is the 12 layouts themselves.
//
//     swift build -c release --package-path Benchmarks --product FitBenchPictures
//     Benchmarks/.build/release/FitBenchPictures [--min-ms 2000]
import FitBenchDocuments
import FitLayout
import FitLayoutText
import FitRender
import FitText
import Foundation

let benchmarks = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
setenv("FONTCONFIG_FILE", benchmarks.deletingLastPathComponent().appendingPathComponent("Tests/fonts/fonts.conf").path, 1)
let fontCache = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-tests-cache")
try? FileManager.default.createDirectory(at: fontCache, withIntermediateDirectories: true)
setenv("XDG_CACHE_HOME", fontCache.path, 1)

let minimumMilliseconds: Double = {
    let arguments = CommandLine.arguments
    guard let flag = arguments.firstIndex(of: "--min-ms"), flag + 1 < arguments.count, let value = Double(arguments[flag + 1])
    else { return 2000 }
    return value
}()

/// Median of one call, over at least 10 calls and `minimumMilliseconds`.
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    let deadline = clock.now + .milliseconds(Int(minimumMilliseconds))
    while samples.count < 10 || (clock.now < deadline && samples.count < 10_000) {
        let start = clock.now
        try body()
        let d = clock.now - start
        samples.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15)
    }
    samples.sort()
    return samples[samples.count / 2]
}

let engine = try TextEngine()
let measurer = TextEngineMeasurer(engine: engine)
let screen = document(nodes: 50)
let prepared = try PreparedLayout(screen)
precondition(prepared.document.nodes.count == 50)
let proposal = ProposedSize(width: 320, height: nil)

func layouts() throws -> [[LayoutSheet]] {
    try SizeCategory.allCases.map { category in
        let result = try prepared.layout(in: proposal, options: LayoutOptions(sizeCategory: category), measurer: measurer)
        return [LayoutSheet(prepared: prepared, result: result, measurer: measurer, sizeCategory: category)]
    }
}

let rows = try layouts()  // fonts and text styles loaded, as in the timed figures
let png = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-bench-pictures-\(getpid()).png").path
defer { unlink(png) }
let first = try LayoutPicture(rows: rows)
precondition(first.notes.isEmpty, "the picture's texts differ from the layout: \(first.notes)")
let firstSVG = first.svg()
let bytes = firstSVG.utf8.count
// The picture's size, from the SVG's root element.
let size = firstSVG.split(separator: "\n").dropFirst().first.map { line in
    line.split(separator: " ").filter { $0.hasPrefix("width=") || $0.hasPrefix("height=") }.joined(separator: " ")
} ?? ""

let layoutTime = try milliseconds { _ = try layouts() }
// What `fitctl fit --output` does after the layouts: sheets (texts laid out again in glyphs,
// outlines read once per glyph), then the file. SVG: the text, as fitctl writes it, without
// the disk; PNG: cairo draws and writes the file (to the temporary directory).
let svgTime = try milliseconds { _ = try LayoutPicture(rows: rows).svg() }
let pngTime = try milliseconds { try LayoutPicture(rows: rows).writePNG(to: png) }
let both = try milliseconds { _ = try LayoutPicture(rows: try layouts()).svg() }

print("50 nodes × 12 size categories at width 320 px, 12 sheets, \(size) px (median of one call)")
print(String(format: "  12 layouts (the peer)              %8.2f ms", layoutTime))
print(String(format: "  picture to SVG (%4d KB)           %8.2f ms   target < 50 ms: %@   %.1f × the layouts",
    bytes / 1000, svgTime, svgTime < 50 ? "met" : "MISSED", svgTime / layoutTime))
print(String(format: "  picture to PNG (file written)      %8.2f ms   target < 200 ms: %@   %.1f × the layouts",
    pngTime, pngTime < 200 ? "met" : "MISSED", pngTime / layoutTime))
print(String(format: "  12 layouts and SVG                 %8.2f ms", both))
