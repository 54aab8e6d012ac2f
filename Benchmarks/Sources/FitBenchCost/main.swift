// FitBenchCost: the text engine's cost model. Every request shape grows from 16 KiB to the
// engine's limit (TextLimits.maxTextBytes) and the time per KiB is printed per size; a
// request costs time linear in its size when that figure stays flat (max ÷ min within 2×).
// Measured cold — the shaping caches emptied before every measurement, fonts kept loaded —
// which is what a new text costs.
//
//     swift build -c release --package-path Benchmarks
//     Benchmarks/.build/release/FitBenchCost [--max-kib 1024] [--min-kib 16] [--rounds 3]
//                                            [--only SHAPE[,SHAPE…]] [--check]
//
//   --check   exit 1 when a shape's max ÷ min per KiB is 2 or more
import FitLayout
import FitLayoutText
import FitText
import Foundation

let benchmarks = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
setenv("FONTCONFIG_FILE", benchmarks.deletingLastPathComponent().appendingPathComponent("Tests/fonts/fonts.conf").path, 1)
let fontCache = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-tests-cache")
try? FileManager.default.createDirectory(at: fontCache, withIntermediateDirectories: true)
setenv("XDG_CACHE_HOME", fontCache.path, 1)

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}
let maxKiB = option("--max-kib").flatMap(Int.init) ?? TextLimits.maxTextBytes / 1024
let minKiB = option("--min-kib").flatMap(Int.init) ?? 16
let rounds = max(1, option("--rounds").flatMap(Int.init) ?? 3)
let only = option("--only").map { Set($0.split(separator: ",").map(String.init)) }
let check = CommandLine.arguments.contains("--check")
let layoutOnly = CommandLine.arguments.contains("--layout-only")
/// Text nodes of the largest layout document (LayoutLimits.maxNodes).
let maxNodes = option("--max-nodes").flatMap(Int.init) ?? LayoutLimits.maxNodes

/// One request shape: a request of about `bytes` UTF-8 bytes of text.
struct Shape {
    var name: String
    var what: String
    var make: (_ bytes: Int) -> MeasureRequest
}

/// `unit` repeated to fill `bytes` (whole repeats only).
func repeated(_ unit: String, _ bytes: Int) -> String {
    String(repeating: unit, count: max(1, bytes / unit.utf8.count))
}

let font = "DejaVu Sans 12"
let prose = "The quick brown fox jumps over the lazy dog, then naps in the warm afternoon sun. "
let shapes: [Shape] = [
    Shape(name: "words", what: "prose, one line") { MeasureRequest(text: repeated(prose, $0), font: font) },
    Shape(name: "words-wrapped", what: "prose at 300 px") { MeasureRequest(text: repeated(prose, $0), font: font, maxWidth: 300) },
    Shape(name: "words-lines", what: "prose at 300 px, lines") {
        MeasureRequest(text: repeated(prose, $0), font: font, maxWidth: 300, includeLines: true)
    },
    Shape(name: "marks", what: "\"a\" + combining marks") {
        MeasureRequest(text: "a" + String(repeating: "\u{301}", count: ($0 - 1) / 2), font: font)
    },
    Shape(name: "newlines", what: "\"\\n\" only") { MeasureRequest(text: repeated("\n", $0), font: font) },
    Shape(name: "a-space-w0", what: "\"a \" at max_width 0") { MeasureRequest(text: repeated("a ", $0), font: font, maxWidth: 0) },
    Shape(name: "a-newline-lines", what: "\"a\\n\", lines") { MeasureRequest(text: repeated("a\n", $0), font: font, includeLines: true) },
    Shape(name: "long-word-char", what: "one word, char wrap") {
        MeasureRequest(text: repeated("x", $0), font: font, maxWidth: 200, wrap: .char)
    },
    Shape(name: "long-word-wchar", what: "one word, word-char wrap") {
        MeasureRequest(text: repeated("x", $0), font: font, maxWidth: 200, wrap: .wordChar)
    },
    Shape(name: "tabs", what: "\"\\tab\" at 300 px") { MeasureRequest(text: repeated("\tab", $0), font: font, maxWidth: 300) },
    Shape(name: "cjk", what: "Han, kana, Hangul at 300 px") {
        MeasureRequest(text: repeated("漢字かなカナ한국어。", $0), font: font, maxWidth: 300)
    },
    Shape(name: "emoji", what: "emoji sequences at 300 px") {
        MeasureRequest(text: repeated("👍🏽👨‍👩‍👧🇫🇷❤️ ", $0), font: font, maxWidth: 300)
    },
    Shape(name: "bidi", what: "Latin/Hebrew/Arabic at 300 px") {
        MeasureRequest(text: repeated("abc שלום def مرحبا ", $0), font: font, maxWidth: 300)
    },
    Shape(name: "bidi-long-run", what: "one Hebrew word") { MeasureRequest(text: repeated("שלום", $0), font: font) },
    Shape(name: "scripts", what: "Latin/Greek/Cyrillic alternating") { MeasureRequest(text: repeated("aΩж", $0), font: font) },
    Shape(name: "fallback", what: "font switch every character") {
        MeasureRequest(text: repeated("a漢", $0), font: font, maxWidth: 300)
    },
    Shape(name: "many-scripts", what: "12 scripts and fonts in turn") {
        MeasureRequest(text: repeated("aΩжאب अก漢か한ა😀", $0), font: font, maxWidth: 300)
    },
    Shape(name: "uncovered", what: "code points no font has") {
        MeasureRequest(text: repeated("\u{10FFFD}\u{E000}\u{1FFFF}", $0), font: font, maxWidth: 300)
    },
    Shape(name: "decomposed", what: "\"e\" + acute, 2-point clusters") {
        MeasureRequest(text: repeated("e\u{301}", $0), font: font, maxWidth: 300)
    },
    Shape(name: "bidi-controls", what: "embeddings, isolates, brackets") {
        MeasureRequest(text: repeated("\u{202B}a(\u{2067}ש[\u{2069}]\u{202C})", $0), font: font, maxWidth: 300)
    },
    Shape(name: "ellipsize", what: "prose, ellipsize middle") {
        MeasureRequest(text: repeated(prose, $0), font: font, maxWidth: 300, ellipsize: .middle)
    },
    Shape(name: "ellipsize-lines", what: "prose, 3 lines, ellipsize end") {
        MeasureRequest(text: repeated(prose, $0), font: font, maxWidth: 300, maxLines: 3, ellipsize: .end)
    },
    Shape(name: "max-lines", what: "prose, max_lines 5") {
        MeasureRequest(text: repeated(prose, $0), font: font, maxWidth: 300, maxLines: 5)
    },
    Shape(name: "letter-spacing", what: "prose at 300 px, spacing 1.5") {
        MeasureRequest(text: repeated(prose, $0), font: font, maxWidth: 300, letterSpacing: 1.5)
    },
    Shape(name: "cells", what: "terminal cells at 80") {
        MeasureRequest(text: repeated("lorem ipsum 漢字 👍🏽 ", $0), maxWidth: 80, unit: .cells)
    },
    Shape(name: "cells-marks", what: "cells, \"a\" + marks") {
        MeasureRequest(text: "a" + String(repeating: "\u{301}", count: ($0 - 1) / 2), unit: .cells)
    },
    Shape(name: "cells-escapes", what: "cells, SGR and OSC 8 around words, escapes ansi, wcwidth") {
        var request = MeasureRequest(
            text: repeated("\u{1B}[1;31mlorem\u{1B}[0m ipsum \u{1B}]8;;https://example.com/\u{1B}\\link\u{1B}]8;;\u{1B}\\ ", $0),
            maxWidth: 80, unit: .cells)
        request.escapes = .ansi
        request.terminal = .wcwidth
        return request
    },
    Shape(name: "cells-open-csi", what: "cells, ESC [ and digits that never end, escapes ansi") {
        var request = MeasureRequest(text: "\u{1B}[" + String(repeating: "1", count: max(0, $0 - 2)), unit: .cells)
        request.escapes = .ansi
        return request
    },
]

let engine = try TextEngine()
var sizes: [Int] = []
var kib = minKiB
while kib <= maxKiB { sizes.append(kib); kib *= 2 }
if sizes.last != maxKiB { sizes.append(maxKiB) }

/// CPU time of this thread: a measurement runs on the calling thread, and on this shared
/// machine (load average up to 10 on 2 cores while others build) wall time varied 5× from one
/// run to the next, CPU time far less.
func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// `--search`: the worst-case search behind the shapes above. Every pairing of a repeated
/// unit (letters, marks, controls, scripts, separators…) with a request option (widths, wrap
/// modes, limits, ellipsizing, spacing, cells) measured at 32 and 256 KiB; prints the
/// pairings whose time per KiB grows most. Linear: the ratio is about 1.
if CommandLine.arguments.contains("--search") {
    let units = [
        "a ", "\n", "a\n", "x", "\t", "\tab", "a\u{301}", "\u{301}", "漢", "한", "ก", "ไทย ", "ខ្មែរ", "မြန်မာ", "ש", "ب",
        "שלום abc ", "😀", "👍🏽", "🇫🇷", " ", "\u{A0}", "-", "a-", "a\u{AD}", "\u{200B}", "\u{202E}a", "\u{2067}", "(", "((]",
        "1", "\u{10FFFD}", "ab cd ", "\r\n", "\u{2028}", "a\u{200D}", "x\t\ty",
    ]
    let options: [(String, (inout MeasureRequest) -> Void)] = [
        ("plain", { _ in }),
        ("w0", { $0.maxWidth = 0 }),
        ("w100", { $0.maxWidth = 100 }),
        ("w100 char", { $0.maxWidth = 100; $0.wrap = .char }),
        ("w100 word-char", { $0.maxWidth = 100; $0.wrap = .wordChar }),
        ("w1e6", { $0.maxWidth = 1_000_000 }),
        ("w100 lines3", { $0.maxWidth = 100; $0.maxLines = 3 }),
        ("w100 ell-start", { $0.maxWidth = 100; $0.ellipsize = .start }),
        ("w100 ell-middle 2", { $0.maxWidth = 100; $0.ellipsize = .middle; $0.maxLines = 2 }),
        ("w100 ell-end", { $0.maxWidth = 100; $0.ellipsize = .end }),
        ("w100 spacing -20", { $0.maxWidth = 100; $0.letterSpacing = -20 }),
        ("w0 spacing -1000", { $0.maxWidth = 0; $0.letterSpacing = -1000 }),
        ("w100 spacing 5 char", { $0.maxWidth = 100; $0.letterSpacing = 5; $0.wrap = .char }),
        ("w100 lines", { $0.maxWidth = 100; $0.includeLines = true }),
        ("cells w10", { $0.unit = .cells; $0.maxWidth = 10; $0.font = "" }),
        ("cells w0 char ell", { $0.unit = .cells; $0.maxWidth = 0; $0.wrap = .char; $0.ellipsize = .end; $0.font = "" }),
    ]
    var results: [(ratio: Double, name: String, small: Double, large: Double)] = []
    for unit in units {
        for (label, apply) in options {
            func request(_ kib: Int) -> MeasureRequest {
                var request = MeasureRequest(text: repeated(unit, kib * 1024), font: font)
                apply(&request)
                return request
            }
            let small = request(32)
            let large = request(256)
            var perKiB: [[Double]] = [[], []]
            for _ in 0..<2 {
                for (i, r) in [small, large].enumerated() {
                    engine.removeCachedMeasurements()
                    let start = threadCPUSeconds()
                    _ = try? engine.measure(r)
                    perKiB[i].append((threadCPUSeconds() - start) * 1e6 / (Double(r.text.utf8.count) / 1024))
                }
            }
            let a = perKiB[0].min() ?? 0
            let b = perKiB[1].min() ?? 0
            results.append((b / max(a, 1e-9), "\(unit.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? String(format: "U+%04X", $0.value) : String($0) }.joined(separator: " ")) | \(label)", a, b))
        }
    }
    results.sort { $0.ratio > $1.ratio }
    print("worst-case search: \(results.count) pairings, time per KiB at 256 KiB ÷ at 32 KiB (µs per KiB)")
    for r in results.prefix(25) { print(String(format: "  %6.2f  %8.1f → %8.1f  %@", r.ratio, r.small, r.large, r.name)) }
    let slowest = results.max { $0.large < $1.large }!
    print(String(format: "  slowest per KiB: %.1f µs (%@)", slowest.large, slowest.name))
    exit(0)
}

/// CPU seconds of one cold call of `body` (caches emptied before each): the median of as many
/// calls as fit in 20 ms, at least one. A small text is measured several times, so that the
/// first call after a large one — which finds the processor's caches full of other data and
/// pays tens of µs for it — does not pass for a cost of its size.
func repeatedMedian(_ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    var spent = 0.0
    repeat {
        engine.removeCachedMeasurements()
        let start = threadCPUSeconds()
        try body()
        let elapsed = threadCPUSeconds() - start
        times.append(elapsed)
        spent += elapsed
    } while spent < 0.02 && times.count < 50
    times.sort()
    return times[times.count / 2]
}

var worst = 0.0
var failed: [String] = []
let selected = shapes.filter { shape in !layoutOnly && (only.map { $0.contains(shape.name) } ?? true) }
if !selected.isEmpty {
    print("CPU time per KiB of text, cold (shaping caches emptied before each measurement), median of \(rounds) rounds")
    print("(a round: each size once, or for 20 ms when it takes less, and its median)")
    print("(sizes in one round interleaved, so a slow moment of the machine touches every size alike)")
    var header = "shape".padding(toLength: 17, withPad: " ", startingAt: 0)
    for size in sizes {
        let label = size >= 1024 && size % 1024 == 0 ? "\(size / 1024) MiB" : "\(size) KiB"
        header += String(repeating: " ", count: max(1, 9 - label.count)) + label
    }
    print(header + "   max÷min  (µs per KiB)")
}
for shape in selected {
    let requests = sizes.map { shape.make($0 * 1024) }
    // Once untimed: fonts and styles loaded, as in a running daemon.
    _ = try engine.measure(shape.make(1024))
    var samples = [[Double]](repeating: [], count: sizes.count)
    for round in 0..<rounds {
        // The order of the sizes turns each round.
        for k in sizes.indices {
            let i = (k + round) % sizes.count
            let elapsed = try repeatedMedian { _ = try engine.measure(requests[i]) }
            samples[i].append(elapsed * 1e6 / (Double(requests[i].text.utf8.count) / 1024))
        }
    }
    let perKiB = samples.map { $0.sorted()[$0.count / 2] }
    let ratio = (perKiB.max() ?? 0) / max(perKiB.min() ?? 1, 1e-9)
    worst = max(worst, ratio)
    if ratio >= 2 { failed.append(shape.name) }
    var line = shape.name.padding(toLength: 17, withPad: " ", startingAt: 0)
    for value in perKiB { line += String(format: "%9.1f", value) }
    print(line + String(format: "   %6.2f   %@", ratio, shape.what))
}

// Layout of many texts (10,000 text nodes of 6 KB once took > 30 s): a column of N text
// nodes, each a different 6 KB text, laid out at 320 px, text caches emptied first. Every
// text is measured at several proposals (SwiftUI's probes), so the cost per KiB is a few
// measurements' worth; what matters is that it stays flat as N grows.
if layoutOnly || only.map({ $0.contains("layout") }) ?? true {
    let measurer = TextEngineMeasurer(engine: engine)
    func column(_ count: Int) -> LayoutDocument {
        var nodes = [LayoutNode(id: "screen", kind: .vstack, properties: .init(spacing: 4))]
        for i in 0..<count {
            let text = "Note \(i): " + String(repeating: prose, count: 6 * 1024 / prose.utf8.count)
            nodes.append(LayoutNode(id: "t\(i)", parent: .id("screen"), kind: .text, properties: .init(text: text)))
        }
        return LayoutDocument(nodes: nodes)
    }
    var counts: [Int] = []
    var n = max(1, maxNodes / 16)
    while n < maxNodes { counts.append(n); n *= 2 }
    counts.append(maxNodes - 1)  // the root is a node too
    let documents = counts.map(column)
    let kib = documents.map { document in
        Double(document.nodes.reduce(0) { $0 + ($1.properties.text?.utf8.count ?? 0) }) / 1024
    }
    _ = try column(4).layout(in: ProposedSize(width: 320, height: nil), measurer: measurer)
    var samples = [[Double]](repeating: [], count: counts.count)
    for round in 0..<rounds {
        for k in counts.indices {
            let i = (k + round) % counts.count
            let elapsed = try repeatedMedian { _ = try documents[i].layout(in: ProposedSize(width: 320, height: nil), measurer: measurer) }
            samples[i].append(elapsed * 1e6 / kib[i])
        }
    }
    let perKiB = samples.map { $0.sorted()[$0.count / 2] }
    let ratio = (perKiB.max() ?? 0) / max(perKiB.min() ?? 1, 1e-9)
    worst = max(worst, ratio)
    if ratio >= 2 { failed.append("layout") }
    print("")
    print("Layout of N text nodes of 6 KiB each at 320 px, CPU time per KiB of text, cold, median of \(rounds) rounds")
    print("   nodes    text KiB   ms per layout   µs per KiB")
    for i in counts.indices {
        print(String(format: "  %6d  %10.0f  %14.1f  %11.1f", counts[i], kib[i], perKiB[i] * kib[i] / 1000, perKiB[i]))
    }
    print(String(format: "  max÷min per KiB: %.2f", ratio))
}
print(String(format: "worst max÷min over all shapes: %.2f (target < 2)%@", worst, failed.isEmpty ? "" : "; missed: " + failed.joined(separator: ", ")))
if check && !failed.isEmpty { exit(1) }
