import FitBus
import FitProtocol
import Foundation

/// A warm start: fitd started with the results and shaped words a previous fitd
/// saved ($XDG_CACHE_HOME/fitd/results.bin and shapes.bin, written when SIGTERM stopped it)
/// against a fresh start with none, in alternating rounds so a slow moment of the shared
/// machine hits both. Each start is timed from exec to the first Measure's answer, then over
/// the first 1,000 Measure calls, one at a time as an app asks while it builds its window:
/// 1,000 distinct strings, the ones the previous fitd measured — and, for scale, the fresh
/// fitd asked the same 1,000 again once it has them in memory (what a warm start can at best
/// be). Then 1,000 new strings made of the same words: first thing after a fresh start, and
/// on the warm fitd (whose memory holds no shaped word: its answers came from the file).
enum WarmRestart {
    struct Figures {
        /// Medians over the rounds, ms: [fresh, warm].
        var firstAnswer: [Double]
        var thousand: [Double]
        /// fitd's own CPU time over the 1,000 calls, ms: [fresh, warm] (the round trips'
        /// wall time is mostly the bus's and the client's, and the machine's load).
        var cpu: [Double]
        /// The 1,000 again from the fresh fitd's memory, ms.
        var hot: Double
        /// 1,000 new strings of known words, ms and fitd's CPU ms: [fresh, warm].
        var newStrings: [Double]
        var newStringsCPU: [Double]
        /// Of the warm fitd's answers, how many came from the results file, and how many
        /// shaped runs or words from the shapes file (its GetStats).
        var fromFile: UInt64
        var shapesFromFile: UInt64
        var rounds: Int

        var report: String {
            """
            warm restart against a fresh start (median of \(rounds) each, alternating; results.bin and shapes.bin of the 1,000 strings):
              exec to the first Measure answered: fresh \(f(firstAnswer[0])) ms, warm \(f(firstAnswer[1])) ms: warm ÷ fresh \(f(firstAnswer[1] / firstAnswer[0], 2))
              the first 1,000 Measure calls:      fresh \(f(thousand[0])) ms, warm \(f(thousand[1])) ms: warm ÷ fresh \(f(thousand[1] / thousand[0], 2))
              fitd's CPU time over them:          fresh \(f(cpu[0])) ms, warm \(f(cpu[1])) ms: warm ÷ fresh \(f(cpu[1] / cpu[0], 2))
                (the same 1,000 again from the fresh fitd's memory: \(f(hot)) ms; warm ÷ that \(f(thousand[1] / hot, 2)));
                the warm fitd answered \(fromFile) of 1,000 from the file
              1,000 new strings of those words:   fresh \(f(newStrings[0])) ms, warm \(f(newStrings[1])) ms: warm ÷ fresh \(f(newStrings[1] / newStrings[0], 2))
              fitd's CPU time over them:          fresh \(f(newStringsCPU[0])) ms, warm \(f(newStringsCPU[1])) ms: warm ÷ fresh \(f(newStringsCPU[1] / newStringsCPU[0], 2))
                (\(shapesFromFile) shaped runs and words from shapes.bin)
            """
        }
    }

    static let options = OptionDictionary().dbusValue

    @MainActor static func strings() -> [[DBusValue]] {
        batch("warm ").map { [.string($0.request.text), .string($0.request.font), options] }
    }

    /// New strings of words `strings()` shaped in DejaVu Sans 10 (the entries not divisible
    /// by 3: their first two words are indexes 1, 2, 4, 5, 7, 8, 10, 11 of batch's list, and
    /// their numbers end the string as there).
    @MainActor static func newStrings() -> [[DBusValue]] {
        let words = ["changes", "to", "document", "before", "Open", "recent", "Settings", "Network"]
        let numbers = (0..<1000).filter { $0 % 3 != 0 }
        return (0..<1000).map { i in
            let text = "warm \(words[i % 8]) \(words[(i / 8) % 8]) \(words[(i * 5 + 3) % 8]) \(numbers[(i * 7) % numbers.count])"
            return [.string(text), .string("DejaVu Sans 10"), options]
        }
    }

    @MainActor static func ask(_ calls: [[DBusValue]], first: (Duration) -> Void = { _ in }) async throws -> Duration {
        var elapsed = Duration.zero
        for (i, arguments) in calls.enumerated() {
            elapsed += try await call(FitNames.busName, FitNames.objectPath, FitNames.interface, "Measure", arguments)
            if i == 0 { first(elapsed) }
        }
        return elapsed
    }

    @MainActor static func stop(_ process: Process, signal: Int32 = SIGTERM) {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        ChildReaper.release(process.processIdentifier)
    }

    @MainActor static func measure(rounds: Int) async throws -> Figures {
        let calls = strings(), fresh = newStrings()
        let files = ["results.bin", "shapes.bin"].map { cacheHome + "/fitd/" + $0 }
        var first: [[Double]] = [[], []], thousand: [[Double]] = [[], []], hot: [Double] = []
        var cpu: [[Double]] = [[], []], newTimes: [[Double]] = [[], []], newCPU: [[Double]] = [[], []]
        var fromFile: UInt64 = 0, shapesFromFile: UInt64 = 0
        func cpuMilliseconds(_ process: Process) -> Double { Double(cpuNanoseconds(process.processIdentifier)) / 1e6 }
        for _ in 0..<rounds {
            for file in files { try? FileManager.default.removeItem(atPath: file) }
            // New strings first thing after a fresh start; killed, so it saves nothing.
            let (baseline, _) = try await startFitd()
            var before = cpuMilliseconds(baseline)
            newTimes[0].append(milliseconds(try await ask(fresh)))
            newCPU[0].append(cpuMilliseconds(baseline) - before)
            stop(baseline, signal: SIGKILL)
            for side in 0..<2 {
                // Fresh: no file. Warm: the files the fresh fitd just saved.
                let (process, owned) = try await startFitd()
                before = cpuMilliseconds(process)
                let elapsed = try await ask(calls) { first[side].append(milliseconds(owned + $0)) }
                thousand[side].append(milliseconds(elapsed))
                cpu[side].append(cpuMilliseconds(process) - before)
                if side == 0 {
                    hot.append(milliseconds(try await ask(calls)))
                } else {
                    before = cpuMilliseconds(process)
                    newTimes[1].append(milliseconds(try await ask(fresh)))
                    newCPU[1].append(cpuMilliseconds(process) - before)
                    let reply = try await client.call(
                        destination: FitNames.busName, path: FitNames.objectPath, interface: FitNames.interface, member: "GetStats",
                        arguments: [])
                    let caches = try ServiceStatistics(dbusValues: reply).caches
                    fromFile = caches.first { $0.name == "persisted-results" }?.hits ?? 0
                    shapesFromFile = caches.first { $0.name == "persisted-shapes" }?.hits ?? 0
                }
                stop(process)
                if side == 0, let missing = files.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
                    throw DBusError(.failed, "fitd saved no \(missing) when SIGTERM stopped it")
                }
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Figures(
            firstAnswer: first.map(median), thousand: thousand.map(median), cpu: cpu.map(median), hot: median(hot),
            newStrings: newTimes.map(median), newStringsCPU: newCPU.map(median), fromFile: fromFile,
            shapesFromFile: shapesFromFile, rounds: rounds)
    }
}
