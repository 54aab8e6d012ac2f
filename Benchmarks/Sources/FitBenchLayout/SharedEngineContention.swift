import FitLayout
import FitLayoutText
import FitText
import Foundation

/// `FitBenchLayout --contention ROUNDS`: where two cores lose time when they measure with one
/// shared engine. The 150-row list's probes (600 cold measurements)
/// measured with the text caches emptied before every round, five ways; per way the median
/// wall time of a round and the mean CPU time (all threads, getrusage) per round:
///
/// - `one thread`: the probes one after the other;
/// - `two, shared`: the daemon's premeasure, two workers, one engine;
/// - `two, shared, disjoint words`: one engine, each worker half of the probes, the second
///   half's strings upper-cased so that no word is shaped or looked up by both;
/// - `… and another size`: as above, the second half also in another font size (another
///   style, font set and HarfBuzz font);
/// - `two engines`: as the disjoint words, each worker with an engine of its own.
///
/// What the shared runs cost beyond the two engines is contention: cache lines that both cores
/// write (locks, reference counts, recency lists) moving between them.
enum SharedEngineContention {
    static func run(rounds: Int, list: PreparedLayout) async throws {
        let first = try TextEngine(), second = try TextEngine()
        let measurers = [TextEngineMeasurer(engine: first), TextEngineMeasurer(engine: second)]
        let probes = list.textProbes(sizeCategory: .large)
        let half = probes.count / 2
        let upper = probes[half...].map { probe -> PreparedLayout.TextProbe in
            var changed = probe
            changed.text.string = probe.text.string.uppercased()
            return changed
        }
        var resized = upper
        for index in resized.indices { resized[index].text.font = .description("sans-serif 13") }
        let halves: [(String, [PreparedLayout.TextProbe], [PreparedLayout.TextProbe], Bool)] = [
            ("two, shared, disjoint words", Array(probes[..<half]), upper, false),
            ("… and another size", Array(probes[..<half]), resized, false),
            ("two engines", Array(probes[..<half]), upper, true),
        ]
        // Every font and style loaded before the timing, in both engines.
        for measurer in measurers {
            for probe in probes + upper + resized { _ = try? measurer.measure(probe.text, proposedWidth: probe.proposedWidth, scale: 1) }
        }

        func timed(_ body: () async -> Void) async -> (wall: Double, cpu: Double) {
            first.removeCachedMeasurements()
            second.removeCachedMeasurements()
            let cpu = processCPU()
            let clock = ContinuousClock()
            let start = clock.now
            await body()
            return (microseconds(clock.now - start), processCPU() - cpu)
        }
        var ways: [(String, () async -> Void)] = [
            ("one thread", { Self.measure(probes, with: measurers[0]) }),
            ("two, shared", { await measurers[0].premeasure(probes, workers: 2) }),
        ]
        ways.append(("two pthreads, shared", {
            let done = DispatchSemaphore(value: 0)
            for part in [Array(probes[..<half]), Array(probes[half...])] {
                Thread { Self.measure(part, with: measurers[0]); done.signal() }.start()
            }
            done.wait(); done.wait()
        }))
        for (name, a, b, separate) in halves {
            ways.append((name, {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { Self.measure(a, with: measurers[0]) }
                    group.addTask { Self.measure(b, with: measurers[separate ? 1 : 0]) }
                }
            }))
        }
        var walls = [[Double]](repeating: [], count: ways.count), cpus = [Double](repeating: 0, count: ways.count)
        for _ in 0..<max(1, rounds) {
            for (index, way) in ways.enumerated() {
                let (wall, cpu) = await timed(way.1)
                walls[index].append(wall)
                cpus[index] += cpu
            }
        }
        print("\(probes.count) cold measurements (the 150-row list's probes), \(rounds) rounds, ways alternated")
        print("  way                              wall p50 µs   CPU µs/round   CPU ÷ one thread")
        let base = cpus[0]
        for (index, way) in ways.enumerated() {
            let wall = walls[index].sorted()[walls[index].count / 2]
            print(String(
                format: "  %@ %12.0f   %12.0f   %8.2f", way.0.padding(toLength: 32, withPad: " ", startingAt: 0), wall,
                cpus[index] / Double(rounds), cpus[index] / base))
        }
    }

    static func measure(_ probes: some Sequence<PreparedLayout.TextProbe>, with measurer: TextEngineMeasurer) {
        for probe in probes { _ = try? measurer.measure(probe.text, proposedWidth: probe.proposedWidth, scale: 1) }
    }

    /// User and system time of every thread of the process, in µs.
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
        return user + Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
    }
}
