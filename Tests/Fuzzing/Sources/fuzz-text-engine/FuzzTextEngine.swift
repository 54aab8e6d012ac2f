#if canImport(Glibc)
import Glibc
#endif
import FitText
import FuzzSupport

// The text engine (TextEngine.measure) on arbitrary text and options, in pixels and in cells,
// with the pinned fonts of Tests/fonts/fonts.conf (scripts/fuzz sets FONTCONFIG_FILE).
// Input: five header bytes, then the text (UTF-8, repaired where invalid):
//   0: bit 0 cells, bits 1-2 wrap, bits 3-4 ellipsize, bit 5 lines, bit 6 letter spacing,
//      bit 7 max_width given
//   1: max_width (× 4 px, × 1 cell)      2: max_lines (0: none, else 1…15)
//   3: font (low nibble) and features (high nibble)      4: text scale (0.25 steps)
// Checks: a result has finite, non-negative sizes and (without ellipsize) no more lines
// than max_lines.
// A slow input is a finding (-timeout): the engine must be linear in the text.

let fonts = [
    "", "Sans 12", "DejaVu Sans Mono 10", "Serif Bold Italic 16", "Noto Sans CJK JP 14px", "Noto Color Emoji 20",
    "monospace 9", "Sans Condensed Ultra-Light 7.5", "sans 0.25px", "Noto Sans Arabic 13", "Noto Sans Devanagari 15",
    "Sans Small-Caps 11", "DejaVu Sans, Noto Sans Thai 12", "system-ui 2000px", "Nonexistent Family 12", "Sans 4096",
]
let featureSets: [[String]] = [[], ["tnum"], ["-liga", "-kern"], ["ss01=2", "smcp"], ["zzzz=99999"], ["liga=0", "dlig"]]

let engine: TextEngine? = {
    var configuration = TextEngine.Configuration()
    configuration.language = "en-us"
    // Smaller caches than the daemon's: a fuzz run is millions of distinct requests.
    configuration.shapeCacheBytes = 4 << 20
    configuration.resultCacheBytes = 4 << 20
    configuration.paragraphCacheBytes = 1 << 20
    return try? TextEngine(configuration: configuration)
}()

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    Seeds.writeIfAsked {
        let texts: [(String, [UInt8], String)] = [
            ("latin", [0, 0, 0, 1, 3], "Hello, world"),
            ("wrap", [0b1010_0010, 30, 2, 1, 3], "The quick brown fox jumps over the lazy dog"),
            ("ellipsize-middle", [0b1001_0000, 20, 1, 2, 3], "a_very_long_identifier_without_spaces.swift"),
            ("cells", [0b1000_0001, 10, 0, 0, 3], "漢字かな交じり文 and ASCII\twith a tab"),
            ("emoji", [0, 0, 0, 5, 3], "👩‍👩‍👧‍👦 🇩🇪 👍🏽 ❤️"),
            ("bidi", [0b1000_0000, 40, 0, 9, 3], "Hello مرحبا بالعالم 123 שלום"),
            ("combining", [0, 0, 0, 1, 3], "e\u{301}\u{302}\u{303} Z\u{351}\u{35B}\u{34C} ก่ำ"),
            ("devanagari", [0b0100_0000, 0, 0, 10, 5], "नमस्ते दुनिया"),
            ("newlines", [0b0010_0000, 0, 3, 1, 3], "one\ntwo\r\nthree\u{2029}four\n\n"),
            ("features", [0, 0, 0, 0x12, 7], "office 0123456789 ffi"),
            ("cells-control", [1, 0, 0, 0, 3], "\u{1B}[31mred\u{7}\u{0}\u{200B}\u{AD}x"),
        ]
        return texts.map { (name: $0.0, bytes: $0.1 + Array($0.2.utf8)) }
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func test(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let engine else {
        printError("no text engine: is FONTCONFIG_FILE set to Tests/fonts/fonts.conf?\n")
        exit(2)
    }
    var input = FuzzInput(data, size)
    let flags = input.byte(), width = input.byte(), lines = input.byte(), style = input.byte(), scale = input.byte()
    let cells = flags & 1 == 1
    var request = MeasureRequest(text: input.rest(), font: fonts[Int(style & 0x0F)])
    request.unit = cells ? .cells : .px
    request.wrap = [WrapMode.word, .char, .wordChar, .word][Int(flags >> 1) & 3]
    request.ellipsize = [EllipsizeMode.none, .start, .middle, .end][Int(flags >> 3) & 3]
    request.includeLines = flags & 0x20 != 0
    request.letterSpacing = flags & 0x40 != 0 ? 1.5 : 0
    if flags & 0x80 != 0 { request.maxWidth = Double(width) * (cells ? 1 : 4) }
    if lines != 0 { request.maxLines = Int(lines % 15) + 1 }
    request.features = featureSets[Int(style >> 4) % featureSets.count]
    request.textScale = 0.25 * Double(scale % 16 + 1)
    // GTK 3's metrics (whole pixels, fonts loaded apart) from the scale byte's spare high bit.
    request.metrics = scale & 0x80 != 0 ? .gtk3 : .gtk4
    guard let metrics = try? engine.measure(request) else { return 0 }
    guard metrics.width.isFinite, metrics.height.isFinite, metrics.width >= 0, metrics.height >= 0 else {
        fuzzFailure("non-finite or negative size \(metrics.width) × \(metrics.height) for \(request)")
    }
    // With an ellipsize mode max_lines counts per paragraph (protocol/README.md, Pango's
    // set_height(-N)); without one, it bounds the whole text.
    if let maxLines = request.maxLines, request.ellipsize == .none, metrics.lineCount > maxLines {
        fuzzFailure("\(metrics.lineCount) lines with max_lines \(maxLines) for \(request)")
    }
    return 0
}

@main enum Main {
    static func main() { runFuzzer(test) }
}
