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
        /// The 1,000 again from the fresh fitd's memory, ms.
        var hot: Double
        var rounds: Int

        var report: String {
            """
            warm restart against a fresh start (median of \(rounds) each, alternating; results.bin of the 1,000 strings):
              exec to the first Measure answered: fresh \(f(firstAnswer[0])) ms, warm \(f(firstAnswer[1])) ms: warm ÷ fresh \(f(firstAnswer[1] / firstAnswer[0], 2))
              the first 1,000 Measure calls:      fresh \(f(thousand[0])) ms, warm \(f(thousand[1])) ms: warm ÷ fresh \(f(thousand[1] / thousand[0], 2))
                (the same 1,000 again from the fresh fitd's memory: \(f(hot)) ms; warm ÷ that \(f(thousand[1] / hot, 2)))
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
        for _ in 0..<rounds {
            for side in 0..<2 {
                // Fresh: no file. Warm: the file the fresh fitd just saved.
                if side == 0 { try? FileManager.default.removeItem(atPath: file) }
                let (process, owned) = try await startFitd()
                var elapsed = owned
                for (i, arguments) in calls.enumerated() {
                    let answered = try await call(FitNames.busName, FitNames.objectPath, FitNames.interface, "Measure", arguments)
                    elapsed += answered
                    if i == 0 { first[side].append(milliseconds(elapsed)) }
                }
                thousand[side].append(milliseconds(elapsed - owned))
                if side == 0 {
                    var again = Duration.zero
                    for arguments in calls {
                        again += try await call(FitNames.busName, FitNames.objectPath, FitNames.interface, "Measure", arguments)
                    }
                    hot.append(milliseconds(again))
                }
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
                if side == 0, !FileManager.default.fileExists(atPath: file) {
                    throw DBusError(.failed, "fitd saved no \(file) when SIGTERM stopped it")
                }
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        return Figures(firstAnswer: first.map(median), thousand: thousand.map(median), hot: median(hot), rounds: rounds)
    }
}
