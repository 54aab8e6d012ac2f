import FitBus
import FitProtocol
import Foundation

/// A warm start (issue 14): fitd started with the results a previous fitd saved
/// ($XDG_CACHE_HOME/fitd/results.bin, written when SIGTERM stopped it) against a fresh start
/// with none, in alternating rounds so a slow moment of the shared machine hits both. Each
/// start is timed from exec to the first Measure's answer, then over the first 1,000 Measure
/// calls, one at a time as an app asks while it builds its window: 1,000 distinct strings,
/// the ones the previous fitd measured — and, for scale, the fresh fitd asked the same 1,000
/// again once it has them in memory ("hot": what a warm start can at best be).
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
        /// Of the warm fitd's 1,000 answers, how many came from the file (its GetStats).
        var fromFile: UInt64
        var rounds: Int

        var report: String {
            """
            warm restart against a fresh start (median of \(rounds) each, alternating; results.bin of the 1,000 strings):
              exec to the first Measure answered: fresh \(f(firstAnswer[0])) ms, warm \(f(firstAnswer[1])) ms: warm ÷ fresh \(f(firstAnswer[1] / firstAnswer[0], 2))
              the first 1,000 Measure calls:      fresh \(f(thousand[0])) ms, warm \(f(thousand[1])) ms: warm ÷ fresh \(f(thousand[1] / thousand[0], 2))
              fitd's CPU time over them:          fresh \(f(cpu[0])) ms, warm \(f(cpu[1])) ms: warm ÷ fresh \(f(cpu[1] / cpu[0], 2))
                (the same 1,000 again from the fresh fitd's memory: \(f(hot)) ms; warm ÷ that \(f(thousand[1] / hot, 2)));
                the warm fitd answered \(fromFile) of 1,000 from the file
            """
        }
    }

    static let font = OptionDictionary().dbusValue

    @MainActor static func strings() -> [[DBusValue]] {
        batch("warm ").map { [.string($0.request.text), .string($0.request.font), font] }
    }

    @MainActor static func measure(rounds: Int) async throws -> Figures {
        let calls = strings()
        let file = cacheHome + "/fitd/results.bin"
        var first: [[Double]] = [[], []], thousand: [[Double]] = [[], []], hot: [Double] = []
        var fromFile: UInt64 = 0
        var cpu: [[Double]] = [[], []]
        for _ in 0..<rounds {
            for side in 0..<2 {
                // Fresh: no file. Warm: the file the fresh fitd just saved.
                if side == 0 { try? FileManager.default.removeItem(atPath: file) }
                let (process, owned) = try await startFitd()
                var elapsed = owned
                let cpuBefore = cpuNanoseconds(process.processIdentifier)
                for (i, arguments) in calls.enumerated() {
                    let answered = try await call(FitNames.busName, FitNames.objectPath, FitNames.interface, "Measure", arguments)
                    elapsed += answered
                    if i == 0 { first[side].append(milliseconds(elapsed)) }
                }
                thousand[side].append(milliseconds(elapsed - owned))
                cpu[side].append(Double(cpuNanoseconds(process.processIdentifier) - cpuBefore) / 1e6)
                if side == 0 {
                    var again = Duration.zero
                    for arguments in calls {
                        again += try await call(FitNames.busName, FitNames.objectPath, FitNames.interface, "Measure", arguments)
                    }
                    hot.append(milliseconds(again))
                }
                if side == 1 {
                    let reply = try await client.call(
                        destination: FitNames.busName, path: FitNames.objectPath, interface: FitNames.interface, member: "GetStats",
                        arguments: [])
                    let stats = try ServiceStatistics(dbusValues: reply)
                    fromFile = stats.caches.first { $0.name == "persisted-results" }?.hits ?? 0
                }
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
                if side == 0, !FileManager.default.fileExists(atPath: file) {
                    throw DBusError(.failed, "fitd saved no \(file) when SIGTERM stopped it")
                }
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Figures(firstAnswer: first.map(median), thousand: thousand.map(median), cpu: cpu.map(median), hot: median(hot), fromFile: fromFile, rounds: rounds)
    }
}
