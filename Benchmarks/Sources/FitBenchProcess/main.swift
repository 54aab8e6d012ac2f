// `fitctl measure --batch --local` as a user runs it — a whole process: start-up, JSON in,
// the engine, JSON out — on 20,000 mixed-script UI strings (UICorpus), against Pango laying
// out the same strings in this process (C API, warm: the PangoPeer FitBenchRatios uses).
// "fitctl's I/O at engine speed". Prints µs per string and the ratio to Pango; the
// same strings twice in one process (the second half's cost, all cached, from the
// difference); the per-stage split fitctl itself measures (FITCTL_TIMINGS=1); and, in this
// process, the JSON choices for each stage (FitJSON, Codable, JSONSerialization) on the same
// requests and results. Usage: FitBenchProcess [--fitctl PATH] [--strings N] [--runs N];
// --write-corpus FILE writes the request lines and exits (to profile fitctl by hand).
#if canImport(Glibc)
import Glibc
#endif
import FitBenchPeers
import FitJSON
import FitText
import Foundation

struct Options {
    var fitctl = BenchEnvironment.repositoryRoot.appendingPathComponent(".build/release/fitctl").path
    var strings = 20_000
    var runs = 3
    var alternatives = true
    /// Only write the request lines to this file (for perf, by hand) and exit.
    var writeCorpus: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--fitctl": fitctl = try Self.value(&rest, argument)
            case "--strings": strings = try Self.count(&rest, argument)
            case "--runs": runs = try Self.count(&rest, argument)
            case "--no-alternatives": alternatives = false
            case "--write-corpus": writeCorpus = try Self.value(&rest, argument)
            case "-h", "--help":
                print("usage: FitBenchProcess [--fitctl PATH] [--strings N] [--runs N] [--no-alternatives] [--write-corpus FILE]")
                exit(0)
            default: throw BenchError.environment("unknown argument \(argument)")
            }
        }
    }

    static func value(_ rest: inout ArraySlice<String>, _ name: String) throws -> String {
        guard let value = rest.popFirst() else { throw BenchError.environment("\(name) needs a value") }
        return value
    }

    static func count(_ rest: inout ArraySlice<String>, _ name: String) throws -> Int {
        guard let count = Int(try value(&rest, name)), count > 0 else { throw BenchError.environment("\(name) takes a count > 0") }
        return count
    }
}

func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// CPU time of this process (user + system), seconds: Pango's pass runs on this thread alone.
func processCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func us(_ value: Double) -> String { String(format: "%8.2f µs", value) }

/// The request lines fitctl reads: {"text": …, "font": …}.
func requestLines(_ corpus: Corpus) -> [UInt8] {
    var writer = JSONWriter(reservingCapacity: corpus.count * 80)
    for entry in corpus.entries {
        writer.beginObject()
        writer.member("text", entry.text)
        if !entry.font.isEmpty { writer.member("font", entry.font) }
        writer.endObject()
        writer.newline()
    }
    return writer.bytes
}

/// One run of fitctl: wall and CPU (user + system) time, and its stage times if it printed them.
struct ProcessRun {
    var wall: Double  // seconds
    var cpu: Double
    var stages: [String: Double] = [:]  // ms by name
}

/// Runs `fitctl measure --batch --local --language en-us` with stdin from `input`, stdout
/// to `output`, stderr to `errors`; fails unless it exits 0 (every line measured).
/// `core`: pinned to that core through `taskset -c` (util-linux), the peer of the every-core
/// figure.
func runFitctl(_ fitctl: String, input: String, output: String, errors: String, environment: [String], core: Int? = nil) throws -> ProcessRun {
    try startFitctl(fitctl, input: input, output: output, errors: errors, environment: environment, core: core).finish()
}

/// A fitctl started and not yet waited for (two of them run side by side for the machine's
/// own ceiling).
struct StartedFitctl {
    let pid: pid_t
    let start: UInt64
    let errors: String

    /// Waits for it; fails unless it exited 0.
    func finish() throws -> ProcessRun {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = Double(now() - start) / 1e9
        guard status == 0 else {
            let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw BenchError.peer("fitctl", reason: "exited with status \(status >> 8): \(message.prefix(400))")
        }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        var run = ProcessRun(wall: wall, cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime))
        // "fitctl timings: lines N read_ms X engine_ms Y write_ms Z" (FITCTL_TIMINGS=1).
        if let text = try? String(contentsOfFile: errors, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("fitctl timings:") })
        {
            let words = line.split(separator: " ")
            for (name, value) in zip(words, words.dropFirst()) where name.hasSuffix("_ms") {
                run.stages[String(name.dropLast(3))] = Double(value)
            }
        }
        return run
    }
}

/// The ids of the cores this process may run on (`Cpus_allowed_list` of /proc/self/status:
/// a container may allow fewer than the machine has), in order; the online cores when it
/// cannot be read.
func allowedCores() -> [Int] {
    let online = Array(0..<max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") })
    else { return online }
    var cores: [Int] = []
    for item in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
        let bounds = item.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard let low = bounds.first, let high = bounds.last, low <= high, high < 4096 else { return online }
        cores += Array(low...high)
    }
    return cores.isEmpty ? online : cores
}

/// Starts `fitctl measure --batch --local --language en-us` as ``runFitctl`` runs it, without
/// waiting for it.
func startFitctl(_ fitctl: String, input: String, output: String, errors: String, environment: [String], core: Int? = nil) throws -> StartedFitctl {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let taskset = "/usr/bin/taskset"
    let arguments = (core.map { [taskset, "-c", String($0)] } ?? []) + [fitctl, "measure", "--batch", "--local", "--language", "en-us"]
    let program = core == nil ? fitctl : taskset
    var argv = arguments.map { strdup($0) } + [nil]
    var envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let start = now()
    let spawned = posix_spawn(&pid, program, &actions, nil, &argv, &envp)
    guard spawned == 0 else { throw BenchError.peer("fitctl", reason: "posix_spawn \(program): \(String(cString: strerror(spawned)))") }
    return StartedFitctl(pid: pid, start: start, errors: errors)
}

func main() throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    if let path = options.writeCorpus {
        try Data(requestLines(UICorpus.generate(count: options.strings))).write(to: URL(fileURLWithPath: path))
        return
    }
    guard FileManager.default.isExecutableFile(atPath: options.fitctl) else {
        throw BenchError.missingFile(options.fitctl, what: "the release fitctl (make release)")
    }
    try BenchEnvironment.pinFonts()
    let corpus = UICorpus.generate(count: options.strings)
    let n = Double(corpus.count)
    let bytes = corpus.entries.reduce(0) { $0 + $1.text.utf8.count }
    print("whole-process benchmark: \(corpus.count) mixed-script UI strings (UICorpus: Latin, CJK, Arabic, Hebrew, Devanagari, emoji), \(UICorpus.fonts.count) fonts, mean \(bytes / corpus.count) UTF-8 bytes")
    print("fitctl: \(options.fitctl)")

    let work = FileManager.default.temporaryDirectory.appendingPathComponent("fitbench-process-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let lines = requestLines(corpus)
    let once = work.appendingPathComponent("once.jsonl").path
    let twice = work.appendingPathComponent("twice.jsonl").path
    try Data(lines).write(to: URL(fileURLWithPath: once))
    try Data(lines + lines).write(to: URL(fileURLWithPath: twice))
    // The first lines alone: the start-up and warm-up part of a run.
    let startLines = min(1024, corpus.count)
    let firstLines = work.appendingPathComponent("first-lines.jsonl").path
    try Data(requestLines(Corpus(entries: Array(corpus.entries.prefix(startLines))))).write(to: URL(fileURLWithPath: firstLines))
    let output = work.appendingPathComponent("out.jsonl").path
    let errors = work.appendingPathComponent("err.txt").path
    // The pinned fonts; an empty configuration home, so no explicit text scale of the user's
    // applies; FITCTL_TIMINGS for the stage split (a fitctl without it ignores it).
    let configHome = work.appendingPathComponent("config").path
    try FileManager.default.createDirectory(atPath: configHome, withIntermediateDirectories: true)
    var environment = ProcessInfo.processInfo.environment
    environment["FONTCONFIG_FILE"] = BenchEnvironment.fontsConfiguration.path
    environment["XDG_CONFIG_HOME"] = configHome
    environment["FITCTL_TIMINGS"] = "1"
    environment["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
    let env = environment.map { "\($0.key)=\($0.value)" }

    // Warm-up (page cache, fontconfig's cache), and the check that every line came out.
    _ = try runFitctl(options.fitctl, input: once, output: output, errors: errors, environment: env)
    let produced = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    guard produced.count == corpus.count, !produced.contains(where: { $0.contains("\"error\"") }) else {
        throw BenchError.peer("fitctl", reason: "\(produced.count) result lines for \(corpus.count) requests, or errors among them")
    }

    // Pango, warm, in this process: one untimed pass, then a timed pass per fitctl run.
    let pango = try PangoPeer(corpus: corpus)
    _ = pango.measureCorpus()
    var pangoTimes: [Double] = []
    var pangoCPUTimes: [Double] = []
    var singles: [ProcessRun] = []
    var doubles: [ProcessRun] = []
    for _ in 0..<options.runs {
        let start = now()
        let startCPU = processCPU()
        _ = pango.measureCorpus()
        pangoCPUTimes.append(processCPU() - startCPU)
        pangoTimes.append(Double(now() - start) / 1e9)
        singles.append(try runFitctl(options.fitctl, input: once, output: "/dev/null", errors: errors, environment: env))
        doubles.append(try runFitctl(options.fitctl, input: twice, output: "/dev/null", errors: errors, environment: env))
    }
    // Every core: the same process pinned to one core (taskset -c) against free,
    // alternating, so a slow moment of the shared machine hits both. The same for the first
    // 1,024 lines (start-up and the warm-up: fontconfig, font sets, most first words), so
    // that the rest's throughput shows apart. And the machine's own ceiling: two processes
    // side by side, each pinned to a core of its own, sharing nothing but the machine,
    // against one alone.
    var pinned: [Double] = []
    var free: [Double] = []
    var pinnedStart: [Double] = []
    var freeStart: [Double] = []
    var sideBySide: [Double] = []
    let allowed = allowedCores()
    let cores = allowed.count
    let first = allowed[0]
    for _ in 0..<options.runs {
        pinned.append(try runFitctl(options.fitctl, input: once, output: "/dev/null", errors: errors, environment: env, core: first).wall)
        free.append(try runFitctl(options.fitctl, input: once, output: "/dev/null", errors: errors, environment: env).wall)
        pinnedStart.append(try runFitctl(options.fitctl, input: firstLines, output: "/dev/null", errors: errors, environment: env, core: first).wall)
        freeStart.append(try runFitctl(options.fitctl, input: firstLines, output: "/dev/null", errors: errors, environment: env).wall)
        if cores >= 2 {
            let begin = now()
            let one = try startFitctl(options.fitctl, input: once, output: "/dev/null", errors: errors, environment: env, core: first)
            let other: StartedFitctl
            do {
                other = try startFitctl(options.fitctl, input: once, output: "/dev/null", errors: errors + ".2", environment: env, core: allowed[1])
            } catch {
                _ = try? one.finish()  // no process left running to slow what comes next
                throw error
            }
            // Both waited for before either failure is thrown.
            let results = [Result { try one.finish() }, Result { try other.finish() }]
            for result in results { _ = try result.get() }
            sideBySide.append(Double(now() - begin) / 1e9)
        }
    }
    let pangoPer = median(pangoTimes) / n * 1e6
    let pangoCPUPer = median(pangoCPUTimes) / n * 1e6
    let wallPer = median(singles.map(\.wall)) / n * 1e6
    let cpuPer = median(singles.map(\.cpu)) / n * 1e6
    let secondPer = median(zip(doubles, singles).map { $0.wall - $1.wall }) / n * 1e6
    let secondCPUPer = median(zip(doubles, singles).map { $0.cpu - $1.cpu }) / n * 1e6

    // Wall time against Pango's wall time, CPU time (user + system) against Pango's CPU
    // time: on a busy machine the CPU ratio is the steadier one.
    func ratio(_ value: Double, _ peer: Double) -> String { String(format: "%7.2f", value / peer) }
    print("\nmedians of \(options.runs) runs (Pango timed between fitctl runs, so both see the same machine)")
    print("                                                      per string    ÷ pango (wall to wall, CPU to CPU)")
    print("pango (C API, warm, in this process)          (wall)  \(us(pangoPer))      1.00")
    print("                                              (CPU)   \(us(pangoCPUPer))      1.00")
    print("fitctl measure --batch --local, whole process (wall)  \(us(wallPer))   \(ratio(wallPer, pangoPer))")
    print("                                              (CPU)   \(us(cpuPer))   \(ratio(cpuPer, pangoCPUPer))")
    print("the same strings again in one process         (wall)  \(us(secondPer))   \(ratio(secondPer, pangoPer))")
    print("                                              (CPU)   \(us(secondCPUPer))   \(ratio(secondCPUPer, pangoCPUPer))")
    let speedup = median(pinned) / median(free)
    print(String(
        format: "every core: one core %.0f ms, all %d %.0f ms: %.2f × (target ≥ 1.7 × on 2 cores: %@)",
        median(pinned) * 1000, cores, median(free) * 1000, speedup, speedup >= 1.7 ? "met" : "MISSED"))
    let pinnedRest = median(zip(pinned, pinnedStart).map { $0 - $1 }), freeRest = median(zip(free, freeStart).map { $0 - $1 })
    print(String(
        format: "  the first %d lines (start-up, warm-up): one core %.0f ms, all %.0f ms: %.2f ×; the other %d: %.0f ms, %.0f ms: %.2f ×",
        startLines, median(pinnedStart) * 1000, median(freeStart) * 1000, median(pinnedStart) / median(freeStart),
        corpus.count - startLines, pinnedRest * 1000, freeRest * 1000, pinnedRest / freeRest))
    if !sideBySide.isEmpty {
        // Two processes that share no cache, lock or reference count: what the machine gives.
        let ceiling = 2 * median(pinned) / median(sideBySide)
        print(String(
            format: "  the machine's ceiling: one pinned process %.0f ms, two side by side (a core each) %.0f ms: %.2f ×",
            median(pinned) * 1000, median(sideBySide) * 1000, ceiling))
    }

    // Stages, as fitctl times them (FITCTL_TIMINGS=1); the rest of the wall time is start-up
    // (loading, fontconfig, the engine) and exit.
    let stageRuns = singles.filter { !$0.stages.isEmpty }
    if stageRuns.isEmpty {
        print("\nstages: this fitctl does not report them (no FITCTL_TIMINGS support)")
    } else {
        print("\nstages (fitctl's own clock, FITCTL_TIMINGS=1; medians)    per string   share of wall")
        let wall = median(stageRuns.map(\.wall)) * 1000
        var accounted = 0.0
        for (name, label) in [("read", "JSON read (read(2), lines, parse)"), ("engine", "engine (measure, substitution check)"), ("write", "JSON write (text, write(2))")] {
            let ms = median(stageRuns.compactMap { $0.stages[name] })
            accounted += ms
            print("  \(label.padding(toLength: 46, withPad: " ", startingAt: 0)) \(us(ms / n * 1000))   \(String(format: "%5.1f", ms / wall * 100)) %")
        }
        print("  \("start-up and exit (the rest)".padding(toLength: 46, withPad: " ", startingAt: 0)) \(us((wall - accounted) / n * 1000))   \(String(format: "%5.1f", (wall - accounted) / wall * 100)) %")
    }
    if options.alternatives { try alternatives(corpus: corpus, lines: lines) }
}

// MARK: - The JSON choices per stage, in this process, on the same requests and results

/// A result line as fitctl writes it, for Codable: the fields in fitctl's order.
struct ResultLine: Encodable {
    var width, height, baseline: Double
    var lines: Int
    var ellipsized, truncated: Bool
    var unit: String
    var fonts: [String]
    var substituted: Bool
}

struct RequestLine: Decodable {
    var text: String
    var font: String?
}

func time(_ repeats: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<repeats {
        let start = now()
        try body()
        best = min(best, Double(now() - start) / 1e9)
    }
    return best
}

func alternatives(corpus: Corpus, lines: [UInt8]) throws {
    let n = Double(corpus.count)
    let engine = try TextEngine()
    let results = try corpus.entries.map { entry -> TextMetrics in
        var request = MeasureRequest(text: entry.text, font: entry.font)
        request.language = "en-us"
        return try engine.measure(request)
    }
    let requestLines = lines.split(separator: 0x0A).map(Array.init)
    print("\nJSON per stage in this process, \(corpus.count) lines (best of 3)   per string")
    var sink = 0
    let fitRead = time {
        for line in requestLines {
            if case .object(let object)? = try? JSONReader.parse(line), case .string(let text)? = object["text"] { sink &+= text.utf8.count }
        }
    }
    let decoder = JSONDecoder()
    let codableRead = time {
        for line in requestLines {
            if let request = try? decoder.decode(RequestLine.self, from: Data(line)) { sink &+= request.text.utf8.count }
        }
    }
    let serializationRead = time {
        for line in requestLines {
            if let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any], let text = object["text"] as? String {
                sink &+= text.utf8.count
            }
        }
    }
    func write(_ metrics: TextMetrics, _ writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("width", metrics.width)
        writer.member("height", metrics.height)
        writer.member("baseline", metrics.baseline)
        writer.member("lines", metrics.lineCount)
        writer.member("ellipsized", metrics.ellipsized)
        writer.member("truncated", metrics.truncated)
        writer.member("unit", metrics.unit.rawValue)
        writer.member("fonts", metrics.fontsUsed)
        writer.member("substituted", false)
        writer.endObject()
        writer.newline()
    }
    let fitWrite = time {
        var writer = JSONWriter(reservingCapacity: 1 << 20)
        for metrics in results { write(metrics, &writer) }
        sink &+= writer.bytes.count
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    let codableWrite = try time {
        var out = Data()
        for m in results {
            out.append(try encoder.encode(ResultLine(
                width: m.width, height: m.height, baseline: m.baseline, lines: m.lineCount, ellipsized: m.ellipsized,
                truncated: m.truncated, unit: m.unit.rawValue, fonts: m.fontsUsed, substituted: false)))
            out.append(0x0A)
        }
        sink &+= out.count
    }
    let serializationWrite = try time {
        var out = Data()
        for m in results {
            let object: [String: Any] = [
                "width": m.width, "height": m.height, "baseline": m.baseline, "lines": m.lineCount, "ellipsized": m.ellipsized,
                "truncated": m.truncated, "unit": m.unit.rawValue, "fonts": m.fontsUsed, "substituted": false,
            ]
            out.append(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            out.append(0x0A)
        }
        sink &+= out.count
    }
    let rows: [(String, Double, Double)] = [
        ("read: FitJSON.JSONReader (fitctl now)", fitRead, fitRead),
        ("read: JSONDecoder (Codable)", codableRead, fitRead),
        ("read: JSONSerialization + [String: Any] (before)", serializationRead, fitRead),
        ("write: FitJSON.JSONWriter (fitctl now)", fitWrite, fitWrite),
        ("write: JSONEncoder (Codable, fixed order)", codableWrite, fitWrite),
        ("write: JSONSerialization, .sortedKeys (before)", serializationWrite, fitWrite),
    ]
    for (label, seconds, peer) in rows {
        print("  \(label.padding(toLength: 50, withPad: " ", startingAt: 0)) \(us(seconds / n * 1e6))   \(String(format: "%6.1f", seconds / peer)) × FitJSON")
    }
    if sink == 42 { print("") }  // keeps the work observable
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("FitBenchProcess: \(error)\n".utf8))
    exit(1)
}
