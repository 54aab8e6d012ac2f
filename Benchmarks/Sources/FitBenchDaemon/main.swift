// FitBenchDaemon: fitd over D-Bus against the cheapest possible D-Bus service, in one run on
// one private bus (issue: the daemon's speed targets, and the Layout round trip of the
// layout issue). Everything goes through the same client (FitBus), so the client's own cost
// is in both sides of every ratio.
//
//     swift build -c release                                   # the root package: fitd
//     swift build -c release --package-path Benchmarks
//     Benchmarks/.build/release/FitBenchDaemon [--round-trips 4000] [--batch-rounds 20] [--warm-rounds 5] [--fitd PATH]
//
// Measures: Measure (cached) and Layout (cached, 50 nodes, 3 decisions) round trips against
// Echo(s) — p50/p99 and their ratios, interleaved A-B-C so a slow moment hits all three;
// MeasureBatch of 1,000 strings, cached and uncached, in strings/s; uncached MeasureBatch and
// Layout of a long list with every core against one worker; the daemon's RSS when idle;
// how long fitd takes from exec to owning its name (fontconfig cache warm); a restart with the
// results it saved against a fresh start (WarmRestart.swift).
import FitBenchDocuments
import FitBus
import FitLayout
import FitProtocol
import FitText
import Foundation

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
let roundTrips = option("--round-trips").flatMap(Int.init) ?? 4000
/// MeasureBatch calls per kind (cached, uncached); more to profile the daemon under load.
let batchRounds = max(1, option("--batch-rounds").flatMap(Int.init) ?? 20)
/// Fresh and warm starts each (WarmRestart.swift).
let warmRounds = max(1, option("--warm-rounds").flatMap(Int.init) ?? 5)
let fitdPath = option("--fitd") ?? ProcessInfo.processInfo.environment["FITD"] ?? root + "/.build/release/fitd"
let echoPath = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fit-echo-service").path
setenv("FONTCONFIG_FILE", root + "/Tests/fonts/fonts.conf", 1)

guard FileManager.default.isExecutableFile(atPath: fitdPath) else {
    FileHandle.standardError.write(Data("FitBenchDaemon: no fitd at \(fitdPath); build it with `swift build -c release` first\n".utf8))
    exit(2)
}

// MARK: a private bus and the two services

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fitbench-\(getpid())").path
try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
// A cache home of its own: a run's saved results (fitd's results.bin) must not make
// the next run's uncached figures warm. fontconfig's cache of the pinned fonts is shared
// through a link (fonts.conf keeps it under $XDG_CACHE_HOME; a rescan costs seconds).
let cacheHome = directory + "/cache"
let inheritedCache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache"
try? FileManager.default.createDirectory(atPath: inheritedCache + "/fitd-test-fontconfig", withIntermediateDirectories: true)
try? FileManager.default.createDirectory(atPath: cacheHome, withIntermediateDirectories: true)
try? FileManager.default.createSymbolicLink(atPath: cacheHome + "/fitd-test-fontconfig", withDestinationPath: inheritedCache + "/fitd-test-fontconfig")
setenv("XDG_CACHE_HOME", cacheHome, 1)
let config = """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig><type>session</type><listen>unix:dir=\(directory)</listen>
      <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
    </busconfig>
    """
try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
let bus = Process()
bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
bus.arguments = ["--config-file=\(directory)/bus.conf", "--nofork", "--print-address=1"]
let addressPipe = Pipe()
bus.standardOutput = addressPipe
bus.standardError = FileHandle.nullDevice
try bus.run()
ChildReaper.adopt(bus.processIdentifier)
var addressData = Data()
while !addressData.contains(UInt8(ascii: "\n")) {
    let chunk = addressPipe.fileHandleForReading.availableData
    if chunk.isEmpty { break }
    addressData.append(chunk)
}
let address = String(decoding: addressData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
var children: [Process] = []
@MainActor func cleanUp() {
    for child in children where child.isRunning { kill(child.processIdentifier, SIGKILL) }
    kill(bus.processIdentifier, SIGKILL)
    try? FileManager.default.removeItem(atPath: directory)
}
@MainActor func spawn(_ path: String, arguments: [String] = []) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardError = FileHandle.nullDevice
    try process.run()
    children.append(process)
    ChildReaper.adopt(process.processIdentifier)
    return process
}

let client = try await BusConnection.connect(address: address)

/// Starts fitd and returns how long it took from exec to owning org.fitd.Fit1.
@MainActor func startFitd(arguments: [String] = []) async throws -> (Process, Duration) {
    // Subscribed before the exec, so the owner change cannot be missed.
    let owners = try await client.signals(matching: SignalMatch(
        sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"))
    let start = ContinuousClock.now
    let process = try spawn(fitdPath, arguments: arguments)
    for await signal in owners {
        if case .string(let name) = signal.arguments[0], name == FitNames.busName,
            case .string(let owner) = signal.arguments[2], !owner.isEmpty
        {
            return (process, ContinuousClock.now - start)
        }
    }
    throw DBusError(.failed, "the bus went away")
}

func milliseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15 }
func microseconds(_ d: Duration) -> Double { milliseconds(d) * 1e3 }

// MARK: name acquisition (five starts; the first warms the page cache)

var startTimes: [Double] = []
var fitd: Process? = nil
for attempt in 0..<6 {
    let (process, elapsed) = try await startFitd()
    if attempt > 0 { startTimes.append(milliseconds(elapsed)) }
    if attempt < 5 {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        ChildReaper.release(process.processIdentifier)
    } else {
        fitd = process
    }
}
guard let fitd else { cleanUp(); exit(1) }
_ = try spawn(echoPath)
try await Task.sleep(for: .milliseconds(300))

// MARK: idle memory

func memory(_ pid: Int32) -> (rss: Int, anon: Int, file: Int, pss: Int) {
    func field(_ text: String, _ name: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let rollup = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
    return (field(status, "VmRSS"), field(status, "RssAnon"), field(status, "RssFile"), field(rollup, "Pss"))
}
let idleBefore = memory(fitd.processIdentifier)

// MARK: round trips: Echo, Measure (cached), Layout (cached)

@MainActor func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue]) async throws -> Duration {
    let start = ContinuousClock.now
    _ = try await client.call(destination: destination, path: path, interface: interface, member: member, arguments: arguments)
    return ContinuousClock.now - start
}
/// The same Layout call to the C service's Reflect: the cheapest service answering a call of
/// that size and shape (its reply is the document back: 10 % larger than Layout's reply).
@MainActor func reflectLayout(_ call: LayoutCodec.Call = layoutCall) async throws -> Duration {
    let start = ContinuousClock.now
    _ = try await client.call(
        destination: "org.fitd.Echo1", path: "/org/fitd/Echo1", interface: "org.fitd.Echo1", member: "Reflect",
        signature: LayoutCodec.callSignature,
        write: { (writer) throws(DBusError) in try call.write(to: &writer) },
        read: { (reader) throws(DBusError) in
            try reader.array { (node) throws(DBusError) in _ = try node.value() }
            _ = try reader.value()
            _ = try reader.value()
        })
    return ContinuousClock.now - start
}
let echoArguments: [DBusValue] = [.string("Hello, world")]
let measureArguments: [DBusValue] = [.string("Hello, world"), .string("DejaVu Sans 12"), OptionDictionary().dbusValue]
let layoutDocument = document(nodes: 50)
// Layout as FitClient calls it: the document written and the reply read value by value.
let layoutCall = try LayoutCodec.Call(
    document: layoutDocument, proposal: ProposedSize(width: 320, height: nil), options: LayoutOptions(), sendSizeCategory: false)
@MainActor func callLayout(_ call: LayoutCodec.Call = layoutCall) async throws -> Duration {
    let start = ContinuousClock.now
    _ = try await client.call(
        destination: FitNames.busName, path: FitNames.objectPath, interface: FitNames.interface, member: "Layout",
        signature: LayoutCodec.callSignature,
        write: { (writer) throws(DBusError) in try call.write(to: &writer) },
        read: { (reader) throws(DBusError) in try LayoutCodec.readResult(&reader, proposal: ProposedSize(width: 320, height: nil)).0 })
    return ContinuousClock.now - start
}
var echo: [Double] = [], measure: [Double] = [], layout: [Double] = [], reflect: [Double] = []
for i in 0..<(roundTrips + 500) {
    let e = try await call("org.fitd.Echo1", "/org/fitd/Echo1", "org.fitd.Echo1", "Echo", echoArguments)
    let m = try await call(FitNames.busName, FitNames.objectPath, FitNames.interface, "Measure", measureArguments)
    let l = try await callLayout()
    let r = try await reflectLayout()
    if i >= 500 {  // the first calls warm the caches and the code paths
        echo.append(microseconds(e)); measure.append(microseconds(m)); layout.append(microseconds(l))
        reflect.append(microseconds(r))
    }
}
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

// MARK: MeasureBatch throughput

// As a Swift program calls it (FitClient's way): requests written and results read value by
// value (DBusWriter, DBusReader). "Cached" batches hold strings the daemon has measured, in
// an order no earlier batch used, so nothing but the per-string cache can answer them.
@MainActor func batch(_ prefix: String) -> [(request: MeasureRequest, sendTextScale: Bool)] {
    let words = ["Save", "changes", "to", "the", "document", "before", "closing", "Open", "recent", "files", "Settings", "Network"]
    return (0..<1000).map { i in
        let text = "\(prefix)\(words[i % words.count]) \(words[(i * 7) % words.count]) \(i)"
        return (MeasureRequest(text: text, font: i % 3 == 0 ? "Noto Sans 11" : "DejaVu Sans 10"), false)
    }
}
@MainActor func measureBatch(_ requests: [(request: MeasureRequest, sendTextScale: Bool)]) async throws -> Duration {
    let start = ContinuousClock.now
    let results = try await client.call(
        destination: FitNames.busName, path: FitNames.objectPath, interface: FitNames.interface, member: "MeasureBatch",
        signature: MeasureCodec.batchSignature,
        write: { (writer) throws(DBusError) in try MeasureCodec.writeBatch(requests, to: &writer) },
        read: { (reader) throws(DBusError) in try MeasureCodec.readBatchResults(&reader, units: requests.map(\.request.unit)) })
    let elapsed = ContinuousClock.now - start
    guard results.count == requests.count, results.allSatisfy({ (try? $0.get()) != nil }) else {
        throw DBusError(.failed, "MeasureBatch answered \(results.count) results, not all measured")
    }
    return elapsed
}
/// CPU time a process has run, all threads (nanoseconds, /proc/PID/task/*/schedstat, first
/// field): what each process on the path costs, which the machine's load affects far less
/// than wall time.
func cpuNanoseconds(_ pid: Int32) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { total, task in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
        return total + (Int(text.split(separator: " ").first ?? "0") ?? 0)
    }
}
let processes: [(name: String, pid: Int32)] = [("fitd", fitd.processIdentifier), ("dbus-daemon", bus.processIdentifier), ("client", getpid())]
func cpu() -> [Int] { processes.map { cpuNanoseconds($0.pid) } }

let cachedBatch = batch("")
_ = try await measureBatch(cachedBatch)
// Every batch is built before the CPU is read, so that the client's CPU is its calls' alone.
let cachedBatches = (0..<batchRounds).map { round in
    let shift = (round * 137) % cachedBatch.count
    return Array(cachedBatch[shift...] + cachedBatch[..<shift])
}
var cachedTime = Duration.zero
let cachedCPUBefore = cpu()
for rotated in cachedBatches { cachedTime += try await measureBatch(rotated) }
let cachedCPU = zip(cpu(), cachedCPUBefore).map { Double($0 - $1) / Double(batchRounds) / 1000 }
// Every string new: a prefix no earlier batch used.
let uncachedBatches = (0..<batchRounds).map { round in batch("r\(round)x ") }
var uncachedTime = Duration.zero
let uncachedCPUBefore = cpu()
for fresh in uncachedBatches { uncachedTime += try await measureBatch(fresh) }
let uncachedCPU = zip(cpu(), uncachedCPUBefore).map { Double($0 - $1) / Double(batchRounds) / 1000 }
try await Task.sleep(for: .seconds(1))
let idleAfter = memory(fitd.processIdentifier)

// MARK: every core: uncached MeasureBatch of 1,000 with fitd.conf's [limits]
// workers = 1 against the default (every core), in alternating laps of fresh daemons so a
// slow moment of the shared machine hits both; each daemon measures one batch untimed first.
let oneWorkerConfig = directory + "/one-worker.conf"
try "[limits]\nworkers = 1\n".write(toFile: oneWorkerConfig, atomically: true, encoding: .utf8)
kill(fitd.processIdentifier, SIGTERM)
fitd.waitUntilExit()
ChildReaper.release(fitd.processIdentifier)
var coreTimes: [Duration] = [.zero, .zero]  // every core, one worker
/// A batch of strings the daemon has just measured, again: everything of a batch but measuring
/// (both processes' encoding and decoding, the bus, the cache lookups), which more workers
/// barely shorten.
var coreCachedTimes: [Duration] = [.zero, .zero]
/// Layout of a 150-row list (300 texts none of the daemon's caches has seen), as above.
var layoutCoreTimes: [Duration] = [.zero, .zero]
let listRows = 150
func listCall(_ tag: String) throws -> LayoutCodec.Call {
    try LayoutCodec.Call(
        document: settingsList(rows: listRows, tag: tag), proposal: ProposedSize(width: 320, height: nil),
        options: LayoutOptions(), sendSizeCategory: false)
}
let coreLaps = 4, coreRounds = max(2, batchRounds / 4)
for lap in 0..<coreLaps {
    for (side, arguments) in [[], ["--config", oneWorkerConfig]].enumerated() {
        let (process, _) = try await startFitd(arguments: arguments)
        // Untimed: a fresh daemon's first batch also loads its fonts, font sets and ICU's
        // tables, one at a time, and that start would be most of the figure; the issue's
        // figure is a running daemon's throughput on strings it has not seen.
        _ = try await measureBatch(batch("c\(lap)s\(side)warm "))
        for round in 0..<coreRounds {
            coreTimes[side] += try await measureBatch(batch("c\(lap)s\(side)r\(round)x "))
        }
        // The last batch, whose strings are surely all still cached (a long run's earlier ones
        // may not be), in an order no earlier call used, as the cached rounds above.
        let last = batch("c\(lap)s\(side)r\(coreRounds - 1)x ")
        for round in 0..<coreRounds {
            let shift = (round * 137 + 1) % last.count
            coreCachedTimes[side] += try await measureBatch(Array(last[shift...] + last[..<shift]))
        }
        _ = try await callLayout(listCall("l\(lap)s\(side)warm"))
        for round in 0..<coreRounds {
            layoutCoreTimes[side] += try await callLayout(listCall("l\(lap)s\(side)r\(round)"))
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        ChildReaper.release(process.processIdentifier)
    }
}
// The floor of such a call: the C service's Reflect of the same message (its reply is the
// document back, larger than Layout's).
var listReflect: [Double] = []
for round in 0..<30 { listReflect.append(milliseconds(try await reflectLayout(listCall("reflect\(round)")))) }
let listFloor = listReflect.sorted()[listReflect.count / 2]
let coreStrings = Double(coreLaps * coreRounds * 1000)
let allCoresRate = coreStrings / (milliseconds(coreTimes[0]) / 1000)
let oneCoreRate = coreStrings / (milliseconds(coreTimes[1]) / 1000)
/// Calls of each kind each side made: batches, Layouts, cached batches.
let callsPerSide = Double(coreLaps * coreRounds)
let allCoresLayout = milliseconds(layoutCoreTimes[0]) / callsPerSide, oneCoreLayout = milliseconds(layoutCoreTimes[1]) / callsPerSide
/// Amdahl's law for the cores this machine has: a call of `whole` ms of which `serial` ms does
/// not spread, the rest spread perfectly. What every core could give at best, from this run.
func amdahl(whole: Double, serial: Double) -> Double {
    let cores = Double(ParallelChunksCount.cores)
    return whole / (min(serial, whole) + max(0, whole - serial) / cores)
}
let oneCoreBatch = milliseconds(coreTimes[1]) / callsPerSide
let oneCoreCachedBatch = milliseconds(coreCachedTimes[1]) / callsPerSide, allCoresCachedBatch = milliseconds(coreCachedTimes[0]) / callsPerSide
/// The CPU of an uncached batch outside fitd, in ms: the client's and dbus-daemon's. It is serial
/// around fitd's part (the client encodes and the bus forwards before fitd can start, and both
/// wait while fitd measures), so no daemon sending these replies can spread it: with everything
/// of fitd's spread perfectly, Amdahl's law still bounds every core by it. (The client's share
/// includes checking each reply's results, a few µs, outside the timed round trip.)
let outsideDaemonCPU = processes.indices.filter { processes[$0].name != "fitd" }.map { uncachedCPU[$0] }.reduce(0, +) / 1000
let warm = try await WarmRestart.measure(rounds: warmRounds)
cleanUp()

// MARK: report

func f(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
let e50 = percentile(echo, 0.5), e99 = percentile(echo, 0.99)
let m50 = percentile(measure, 0.5), m99 = percentile(measure, 0.99)
let l50 = percentile(layout, 0.5), l99 = percentile(layout, 0.99)
let r50 = percentile(reflect, 0.5), r99 = percentile(reflect, 0.99)
let cachedRate = Double(batchRounds * 1000) / (milliseconds(cachedTime) / 1000)
let uncachedRate = Double(batchRounds * 1000) / (milliseconds(uncachedTime) / 1000)
let startMedian = startTimes.sorted()[startTimes.count / 2]
func verdict(_ ok: Bool) -> String { ok ? "MET" : "MISSED" }
print("""
    fitd over D-Bus against the echo floor (\(roundTrips) interleaved round trips each, private bus, FitBus client)

    round trip              p50 µs    p99 µs   p50 ÷ echo   p99 ÷ echo
    echo (C libdbus)      \(f(e50).leftPad(8))  \(f(e99).leftPad(8))        1.00         1.00
    Measure, cached       \(f(m50).leftPad(8))  \(f(m99).leftPad(8))  \(f(m50 / e50, 2).leftPad(10))   \(f(m99 / e99, 2).leftPad(10))
    Layout 50 nodes, cached \(f(l50).leftPad(6))  \(f(l99).leftPad(8))  \(f(l50 / e50, 2).leftPad(10))   \(f(l99 / e99, 2).leftPad(10))
    Reflect of that call    \(f(r50).leftPad(6))  \(f(r99).leftPad(8))  \(f(r50 / e50, 2).leftPad(10))   \(f(r99 / e99, 2).leftPad(10))
      (C libdbus, returns its arguments: the floor for a call of Layout's size; Layout ÷ it: p50 \(f(l50 / r50, 2)))

    MeasureBatch of 1,000: cached \(f(cachedRate, 0)) strings/s, uncached \(f(uncachedRate, 0)) strings/s
      CPU per batch, µs     \(processes.map { $0.name.leftPad(12) }.joined())
      cached                \(cachedCPU.map { f($0, 0).leftPad(12) }.joined())
      uncached              \(uncachedCPU.map { f($0, 0).leftPad(12) }.joined())
    MeasureBatch of 1,000 uncached over every core (\(ParallelChunksCount.cores)) \(f(allCoresRate, 0)) strings/s, with workers = 1 \(f(oneCoreRate, 0)) strings/s: \(f(allCoresRate / oneCoreRate, 2)) ×
      (with workers = 1 a batch takes \(f(oneCoreBatch, 2)) ms, the same batch cached \(f(oneCoreCachedBatch, 2)) ms: if only measuring spread, at most \(f(amdahl(whole: oneCoreBatch, serial: oneCoreCachedBatch), 2)) ×;
       cached over every core \(f(allCoresCachedBatch, 2)) ms: \(f(oneCoreCachedBatch / allCoresCachedBatch, 2)) ×;
       the client and dbus-daemon take \(f(outsideDaemonCPU, 2)) ms of CPU a batch: a fitd that spread all of its own work perfectly, at most \(f(amdahl(whole: oneCoreBatch, serial: outsideDaemonCPU), 2)) ×)
    Layout of a \(listRows)-row list uncached (\(2 * listRows) new texts) over every core \(f(allCoresLayout, 2)) ms, with workers = 1 \(f(oneCoreLayout, 2)) ms: \(f(oneCoreLayout / allCoresLayout, 2)) ×
      (Reflect of that call, the transport's floor: \(f(listFloor, 2)) ms: if all but the transport spread, at most \(f(amdahl(whole: oneCoreLayout, serial: listFloor), 2)) ×)
    fitd from exec to owning org.fitd.Fit1: median \(f(startMedian)) ms of 5 (\(startTimes.map { f($0) }.joined(separator: ", ")))
    \(warm.report)
    fitd memory idle after start:  RSS \(f(Double(idleBefore.rss) / 1024)) MB (anonymous \(f(Double(idleBefore.anon) / 1024)) MB, file-backed \(f(Double(idleBefore.file) / 1024)) MB), PSS \(f(Double(idleBefore.pss) / 1024)) MB
    fitd memory idle after all:    RSS \(f(Double(idleAfter.rss) / 1024)) MB (anonymous \(f(Double(idleAfter.anon) / 1024)) MB, file-backed \(f(Double(idleAfter.file) / 1024)) MB), PSS \(f(Double(idleAfter.pss) / 1024)) MB

    targets: Measure p50 ≤ 1.2 × echo: \(verdict(m50 <= 1.2 * e50)); p99 ≤ 2 × echo: \(verdict(m99 <= 2 * e99)); Layout p50 ≤ 1.3 × echo: \(verdict(l50 <= 1.3 * e50))
             batch cached ≥ 300,000/s: \(verdict(cachedRate >= 300_000)); uncached ≥ 50,000/s: \(verdict(uncachedRate >= 50_000))
             every core ≥ 1.7 × one on 2 cores: batch \(verdict(allCoresRate >= 1.7 * oneCoreRate)), layout \(verdict(oneCoreLayout >= 1.7 * allCoresLayout))
             idle RSS ≤ 20 MB: \(verdict(idleBefore.rss <= 20 * 1024)); name within 100 ms: \(verdict(startMedian <= 100))
    """)

enum ParallelChunksCount {
    static let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
