import FitService
import FitText
import Foundation
import Logging
import Testing

/// The daemon's side of a warm start: where the file goes, and a load or save that cannot
/// read or write it leaves the daemon serving, cold.
@Suite struct WarmStartTests {
    @Test func theDirectoryFollowsSystemdThenXDGThenHome() {
        #expect(WarmStart.directory(environment: ["CACHE_DIRECTORY": "/run/x/other:/home/u/.cache/fitd", "XDG_CACHE_HOME": "/c"]) == "/home/u/.cache/fitd")
        #expect(WarmStart.directory(environment: ["CACHE_DIRECTORY": "/var/cache/other", "XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c/fitd")
        // A relative XDG_CACHE_HOME is ignored (XDG Base Directory Specification).
        #expect(WarmStart.directory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]) == "/h/.cache/fitd")
        #expect(WarmStart.directory(environment: [:]) == nil)
    }

    @Test func aSavedFileIsLoadedByTheNextEngineAndAnUnwritableDirectoryIsNoFailure() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-warm-\(UUID().uuidString)")
        var logger = Logger(label: "fitd-test")
        logger.logLevel = .critical
        let engine = try SharedEngine.fresh()
        let first = WarmStart(directory: root.path + "/fitd", engine: engine, version: "t", logger: logger)
        #expect(first.load() == 0)
        let request = MeasureRequest(text: "Warm start", font: "DejaVu Sans 10")
        let measured = try engine.measure(request)
        await first.save()
        var mode = stat()
        #expect(stat(root.path + "/fitd", &mode) == 0 && mode.st_mode & 0o777 == 0o700)

        let next = try SharedEngine.fresh()
        let second = WarmStart(directory: root.path + "/fitd", engine: next, version: "t", logger: logger)
        #expect(second.load() == 1)
        #expect(next.cachedMeasurement(request) == measured)
        // Another version's file is not used.
        #expect(WarmStart(directory: root.path + "/fitd", engine: try SharedEngine.fresh(), version: "u", logger: logger).load() == 0)

        // A file where the directory should be: nothing saved, nothing thrown.
        try Data("x".utf8).write(to: root.appendingPathComponent("blocked"))
        let blocked = WarmStart(directory: root.path + "/blocked/fitd", engine: engine, version: "t", logger: logger)
        _ = try engine.measure(MeasureRequest(text: "another", font: "DejaVu Sans 10"))
        await blocked.save()
        #expect(!FileManager.default.fileExists(atPath: root.path + "/blocked/fitd/results.bin"))
        try? FileManager.default.removeItem(at: root)
    }
}
