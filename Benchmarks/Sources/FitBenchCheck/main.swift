// FitBenchCheck: `fitctl check` on a real catalog, against `fitctl fit` called per case. The
// target: 45 languages of GTK 4's gtk40 catalog × 12 size categories × 20 widths of a 50-node
// document in ≤ 5 s on 2 cores, every core used (Benchmarks/README.md, "Translations"). The
// document is modelled on GTK's print dialog (its labels and values are gtk40 msgids): six
// label–value rows, each a row when it fits and a column when not, under a one-line title.
//
//     swift build -c release --package-path Benchmarks --product FitBenchCheck
//     Benchmarks/.build/release/FitBenchCheck [--fitctl PATH] [--runs N] [--sample N] [--check]
//
// The check runs as a whole process (`--local`: the engine in it, no daemon), `--runs` times;
// wall time and the CPU time of the process (getrusage of children) give the cores used. The
// peer is what a developer would script without it: one `fitctl fit --local` per language ×
// category × width, with the translated document; `--sample` such processes are timed and the
// mean is multiplied by the number of cases.
#if canImport(Glibc)
import Glibc
#endif
import FitTranslations
import Foundation

struct Options {
    var fitctl = Options.root.appendingPathComponent(".build/release/fitctl").path
    var runs = 3
    var sample = 48
    var check = false

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--fitctl": fitctl = rest.popFirst() ?? fitctl
            case "--runs": runs = rest.popFirst().flatMap(Int.init) ?? runs
            case "--sample": sample = rest.popFirst().flatMap(Int.init) ?? sample
            case "--check": check = true
            default:
                FileHandle.standardError.write(Data("usage: FitBenchCheck [--fitctl PATH] [--runs N] [--sample N] [--check]\n".utf8))
                exit(64)
            }
        }
    }
}

/// The print dialog's rows, messages of gtk40 (gtkprintunixdialog.c, the CUPS options' names
/// with their "printing option" context): a label and its value.
let printingOption = "printing option"
let rows: [(label: MessageReference, value: MessageReference)] = [
    (MessageReference(msgid: "_Only print:"), MessageReference(msgid: "All sheets")),
    (MessageReference(msgid: "Paper Type", context: printingOption), MessageReference(msgid: "Default")),
    (MessageReference(msgid: "Paper Source", context: printingOption), MessageReference(msgid: "Default")),
    (MessageReference(msgid: "Output Tray", context: printingOption), MessageReference(msgid: "Default")),
    (MessageReference(msgid: "Resolution", context: printingOption), MessageReference(msgid: "Default")),
    (MessageReference(msgid: "Two Sided", context: printingOption), MessageReference(msgid: "Portrait")),
]
let title = MessageReference(msgid: "Page Setup")

/// The document: `translate` gives each message's text (nil: the check's form, with msgids).
func document(_ translate: ((MessageReference) -> String)?) -> [String: Any] {
    func text(_ id: String, _ parent: String, _ message: MessageReference, style: String) -> [String: Any] {
        var node: [String: Any] = ["id": id, "parent": parent, "kind": "text", "textStyle": style, "lineLimit": 1]
        if let translate {
            node["text"] = translate(message)
        } else {
            node["msgid"] = message.msgid
            if let context = message.context { node["msgctxt"] = context }
            node["useUnderline"] = message.msgid.contains("_")
        }
        return node
    }
    var nodes: [[String: Any]] = [
        ["id": "dialog", "kind": "vstack", "spacing": 12, "alignment": "leading"],
        text("title", "dialog", title, style: "headline"),
    ]
    for (index, (label, value)) in rows.enumerated() {
        let row = "row\(index)"
        nodes += [
            ["id": row, "parent": "dialog", "kind": "firstFit", "axes": "horizontal"],
            ["id": row + "H", "parent": row, "kind": "hstack", "spacing": 12],
            text(row + "HLabel", row + "H", label, style: "body"),
            ["id": row + "HGap", "parent": row + "H", "kind": "spacer"],
            text(row + "HValue", row + "H", value, style: "body"),
            ["id": row + "V", "parent": row, "kind": "vstack", "spacing": 4, "alignment": "leading"],
            text(row + "VLabel", row + "V", label, style: "body"),
            text(row + "VValue", row + "V", value, style: "body"),
        ]
    }
    return ["version": 1, "nodes": nodes]
}

func write(_ object: [String: Any], to url: URL) throws {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url)
}

/// Runs a process to its end; its wall time and exit status.
func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> (seconds: Double, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    let clock = ContinuousClock()
    let start = clock.now
    try process.run()
    process.waitUntilExit()
    let elapsed = clock.now - start
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, process.terminationStatus)
}

/// User + system CPU seconds of the children waited for so far.
func childrenCPU() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard FileManager.default.isExecutableFile(atPath: options.fitctl) else {
    print("FitBenchCheck: no \(options.fitctl) (swift build -c release --product fitctl)")
    exit(1)
}
let set: TranslationSet
do {
    set = try TranslationSet.load(["gtk40"])
} catch {
    print("FitBenchCheck: SKIP: \(error)")
    exit(77)
}
// 45 languages: those with every message of the document translated, in name order.
let messages = [title] + rows.flatMap { [$0.label, $0.value] }
let complete = set.catalogs.filter { catalog in messages.allSatisfy { catalog.translate($0) != nil } }
guard complete.count >= 45 else {
    print("FitBenchCheck: SKIP: only \(complete.count) gtk40 catalogs translate every message of the document")
    exit(77)
}
let languages = Array(complete.prefix(45))
let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
let work = FileManager.default.temporaryDirectory.appendingPathComponent("fitbench-check-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }
var environment = ProcessInfo.processInfo.environment
environment["FONTCONFIG_FILE"] = Options.root.appendingPathComponent("Tests/fonts/fonts.conf").path
environment["XDG_CONFIG_HOME"] = work.appendingPathComponent("config").path
environment["XDG_CACHE_HOME"] = Options.root.appendingPathComponent(".build/test-cache").path
let source = work.appendingPathComponent("print-dialog.json")
try write(document(nil), to: source)
let widths = stride(from: 200, through: 580, by: 20).map { $0 }
let categories = [
    "xSmall", "small", "medium", "large", "xLarge", "xxLarge", "xxxLarge", "accessibilityMedium", "accessibilityLarge",
    "accessibilityExtraLarge", "accessibilityExtraExtraLarge", "accessibilityExtraExtraExtraLarge",
]
let cases = languages.count * categories.count * widths.count
print("fitctl check: \(languages.count) languages of gtk40 × \(categories.count) categories × \(widths.count) widths = \(cases) cases, a 50-node document, \(cores) cores")

let checkArguments = [
    "check", source.path, "--translations", "gtk40", "--languages", languages.map(\.language).joined(separator: ","),
    "--categories", "all", "--widths", "200:580:20", "--local", "--json",
]
_ = try run(options.fitctl, checkArguments, environment: environment)  // warm: fontconfig's cache, the page cache
var walls: [Double] = []
var utilisations: [Double] = []
for _ in 0..<options.runs {
    let before = childrenCPU()
    let (seconds, status) = try run(options.fitctl, checkArguments, environment: environment)
    guard status == 0 || status == 1 else {
        print("fitctl check exited \(status)")
        exit(1)
    }
    walls.append(seconds)
    utilisations.append((childrenCPU() - before) / seconds)
}
let wall = walls.sorted()[walls.count / 2]
let used = utilisations.sorted()[utilisations.count / 2]

// The peer: one fitctl fit per case, on a sample spread over languages, categories and widths.
var peerSeconds: [Double] = []
var translated: [String: URL] = [:]
for index in 0..<max(1, options.sample) {
    let catalog = languages[(index * 7) % languages.count]
    let category = categories[index % categories.count]
    let width = widths[(index * 3) % widths.count]
    let path: URL
    if let known = translated[catalog.language] {
        path = known
    } else {
        path = work.appendingPathComponent("print-dialog-\(catalog.language).json")
        try write(document { message in
            let text = catalog.translate(message) ?? message.msgid
            return message.msgid.contains("_") ? Mnemonic.stripped(text) : text
        }, to: path)
        translated[catalog.language] = path
    }
    let (seconds, _) = try run(options.fitctl, [
        "fit", path.path, "--width", String(width), "--category", category, "--language", catalog.bcp47, "--local", "--json",
    ], environment: environment)
    peerSeconds.append(seconds)
}
let perCase = peerSeconds.reduce(0, +) / Double(peerSeconds.count)
let peer = perCase * Double(cases)

func f(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
print("")
print("| what | wall | per case | cores used |")
print("|---|---:|---:|---:|")
print("| fitctl check (median of \(options.runs)) | \(f(wall)) s | \(f(wall / Double(cases) * 1e6, 0)) µs | \(f(used)) of \(cores) |")
print("| fitctl fit per case (\(peerSeconds.count) timed, × \(cases)) | \(f(peer, 0)) s | \(f(perCase * 1e3, 1)) ms | 1 process each |")
print("")
print("check is \(f(peer / wall, 0))× faster than a process per case; target ≤ 5 s: \(wall <= 5 ? "met" : "MISSED")")
if options.check, wall > 5 { exit(1) }
