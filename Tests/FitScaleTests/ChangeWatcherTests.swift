import Foundation
import Logging
import Testing

@testable import FitScale

/// Watcher tests use a short debounce (0.3 s) and generous deadlines (10 s for the watcher,
/// 60 s for the text scale's re-read, which waits its turn on fontconfig's shared queue) so a
/// loaded 2-core machine does not make them flaky; no assertion is tighter than seconds.
@Suite struct ChangeWatcherTests {
    private func makeWatcher(_ targets: [WatchTarget], log: ReportLog, debounce: Duration = .milliseconds(300), maximumDelay: Duration = .seconds(5)) -> ChangeWatcher {
        ChangeWatcher(targets: targets, debounce: debounce, maximumDelay: maximumDelay, logger: LogCapture().logger) { log.add($0) }
    }

    @Test func userFontconfigCreatedAfterStartIsNoticedAndReRead() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig()
        try FileManager.default.createDirectory(atPath: sandbox.configHome, withIntermediateDirectories: true)
        let state = TextScaleState(environment: sandbox.environment, logger: LogCapture().logger)
        #expect(await state.reload().factor == 1)
        let log = ReportLog()
        let watcher = makeWatcher(await state.watchTargets(), log: log)
        try watcher.start()
        defer { watcher.stop() }
        let following = Task { await state.follow(watcher) }
        defer { following.cancel() }

        // ~/.config/fontconfig does not exist yet: fontconfig itself would never see this.
        let started = ContinuousClock.now
        try sandbox.write(sandbox.userFontconfigFile, Sandbox.fontconfigDocument(Sandbox.dpiRule(120)))
        // The watcher's report is timed where it arrives. The re-read that follows goes
        // through FontconfigReader's one queue, which every suite of a parallel `swift test`
        // shares: in CI on two cores it once took 14 s, so it gets a minute.
        #expect(await eventually { log.contains(.fontconfig) })
        let noticed = try #require(log.firstTime(.fontconfig))
        #expect(started.duration(to: noticed) < .seconds(3), "noticed within 3 s")
        #expect(await eventually(timeout: .seconds(60)) { await state.snapshot.factor == 1.25 })
        let snapshot = await state.snapshot
        #expect(snapshot.source == .fontconfig && snapshot.category == .xxLarge)

        // And the file, now watched, is followed when it changes again.
        try sandbox.write(sandbox.userFontconfigFile, Sandbox.fontconfigDocument(Sandbox.dpiRule(144)))
        #expect(await eventually(timeout: .seconds(60)) { await state.snapshot.factor == 1.5 })
    }

    @Test func fitdConfigWrittenByAnotherProcessIsReported() async throws {
        let sandbox = try Sandbox()
        let log = ReportLog()
        // Neither the config home nor fitd/ exist: watched through the nearest ancestor.
        let watcher = makeWatcher([WatchTarget(path: sandbox.environment.fitdConfigPath, kind: .file, reason: .fitdConfig)], log: log)
        try watcher.start()
        defer { watcher.stop() }
        try ExplicitScaleStore(path: sandbox.environment.fitdConfigPath).save(try TextScale(2))
        #expect(await eventually { log.contains(.fitdConfig) })
        let before = log.count
        try ExplicitScaleStore(path: sandbox.environment.fitdConfigPath).save(try TextScale(3))  // atomic rename
        #expect(await eventually { log.count > before })
        #expect(log.all.allSatisfy { $0.reasons == [.fitdConfig] })
    }

    @Test func installingAFontIsAFontsChange() async throws {
        let sandbox = try Sandbox()
        try sandbox.writeFontconfig(extraFontDirectory: true)
        let state = TextScaleState(environment: sandbox.environment, logger: LogCapture().logger)
        let first = await state.reload()
        let targets = await state.watchTargets()
        #expect(targets.contains(WatchTarget(path: sandbox.fontDirectory, kind: .directoryTree, reason: .fonts)))
        let log = ReportLog()
        let watcher = makeWatcher(targets, log: log)
        try watcher.start()
        defer { watcher.stop() }
        let following = Task { await state.follow(watcher) }
        defer { following.cancel() }

        // Into a subdirectory created after start, as a package manager would.
        let subdirectory = sandbox.fontDirectory + "/truetype/new"
        try FileManager.default.createDirectory(atPath: subdirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", toPath: subdirectory + "/Test.ttf")
        #expect(await eventually { log.contains(.fonts) })
        #expect(await eventually(timeout: .seconds(60)) { await state.snapshot.generation > first.generation })
        #expect(await eventually { watcher.watchedDirectories.contains(subdirectory) })
        // A later file in the new subdirectory is seen through its own watch.
        let count = log.count
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: subdirectory + "/Second.ttf")
        #expect(await eventually { log.count > count && log.all.last?.reasons.contains(.fonts) == true })
    }

    @Test func tenThousandTouchesAreOneReRead() async throws {
        let sandbox = try Sandbox()
        let directory = sandbox.root + "/fontconfig"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for index in 0..<100 { try sandbox.write("\(directory)/\(index).conf", "x") }
        let log = ReportLog()
        let watcher = makeWatcher(
            [WatchTarget(path: directory, kind: .directory, reason: .fontconfig)], log: log,
            debounce: .seconds(1), maximumDelay: .seconds(30))
        try watcher.start()
        defer { watcher.stop() }

        for round in 0..<100 {
            for index in 0..<100 {
                var times = [timespec(tv_sec: 1_000_000 + round, tv_nsec: index), timespec(tv_sec: 1_000_000 + round, tv_nsec: index)]
                #expect(utimensat(AT_FDCWD, "\(directory)/\(index).conf", &times, 0) == 0)
            }
        }
        #expect(await eventually { log.count >= 1 })
        try await Task.sleep(for: .seconds(3))  // anything else would have come by now
        #expect((1...2).contains(log.count), "\(log.all)")
        #expect(log.all.allSatisfy { $0.reasons == [.fontconfig] })
        #expect(log.all.map(\.eventCount).reduce(0, +) >= 100)
    }

    @Test func fontDirectoryThatDisappearsIsReportedAndWatchedAgain() async throws {
        let sandbox = try Sandbox()
        let tree = sandbox.fontDirectory
        try FileManager.default.createDirectory(atPath: tree + "/a/b", withIntermediateDirectories: true)
        let log = ReportLog()
        let watcher = makeWatcher([WatchTarget(path: tree, kind: .directoryTree, reason: .fonts)], log: log)
        try watcher.start()
        defer { watcher.stop() }
        #expect(watcher.watchedDirectories == [tree, tree + "/a", tree + "/a/b"])

        try FileManager.default.removeItem(atPath: tree)
        #expect(await eventually { log.contains(.fonts) })
        // Now watched through the parent, waiting for it to return.
        #expect(await eventually { watcher.watchedDirectories == [sandbox.root] })

        let count = log.count
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        #expect(await eventually { log.count > count })
        #expect(await eventually { watcher.watchedDirectories.contains(tree) })
        try sandbox.write(tree + "/Font.ttf", "not really a font")
        let again = log.count
        #expect(await eventually { log.count > again })
    }

    /// A fontconfig reload that lists other directories keeps the watches both lists need
    /// (the same descriptor: never removed, so no moment in which a change there is missed),
    /// drops the others and adds the new ones.
    @Test func updatingTargetsKeepsTheWatchesBothListsNeed() async throws {
        let sandbox = try Sandbox()
        let kept = sandbox.fontDirectory, dropped = sandbox.root + "/old", added = sandbox.root + "/new"
        for directory in [kept, dropped, added] { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        let log = ReportLog()
        let watcher = makeWatcher(
            [WatchTarget(path: kept, kind: .directoryTree, reason: .fonts), WatchTarget(path: dropped, kind: .directory, reason: .fontconfig)],
            log: log)
        try watcher.start()
        defer { watcher.stop() }
        let keptWatch = try #require(watcher.watchDescriptors[kept])

        watcher.updateTargets([WatchTarget(path: added, kind: .directory, reason: .fontconfig), WatchTarget(path: kept, kind: .directoryTree, reason: .fonts)])
        #expect(watcher.watchDescriptors[kept] == keptWatch)
        #expect(watcher.watchedDirectories == [added, kept].sorted())
        // The dropped directory's watch is gone from the kernel too, not only forgotten.
        #expect(try kernelWatches(watcher) == 2)

        // The kept watch reports for its target as now listed (its roles are the new
        // list's, not merged with the old), the new one for its own.
        try sandbox.write(kept + "/Font.ttf", "not really a font")
        #expect(await eventually { log.contains(.fonts) })
        #expect(!log.contains(.fontconfig))
        try sandbox.write(added + "/fonts.conf", "x")
        #expect(await eventually { log.contains(.fontconfig) })
    }

    /// The watches the kernel holds for `watcher`: the "inotify wd:" lines of its descriptor
    /// in /proc/self/fdinfo (proc(5)).
    private func kernelWatches(_ watcher: ChangeWatcher) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/fdinfo/\(watcher.inotifyDescriptor)", encoding: .utf8)
        return text.split(separator: "\n").count { $0.hasPrefix("inotify wd:") }
    }

    @Test func externalNotificationsShareTheDebounceAndStopEndsTheStream() async throws {
        let sandbox = try Sandbox()
        let log = ReportLog()
        let watcher = makeWatcher([WatchTarget(path: sandbox.root, kind: .directory, reason: .fontconfig)], log: log)
        try watcher.start()
        for _ in 0..<50 { watcher.notify(.desktop) }
        #expect(await eventually { log.count == 1 })
        #expect(log.all.first?.reasons == [.desktop])
        watcher.stop()
        watcher.stop()  // idempotent
        var iterator = watcher.changes.makeAsyncIterator()
        // The stream holds the one report, then finishes.
        #expect(await iterator.next()?.reasons == [.desktop])
        #expect(await iterator.next() == nil)
    }
}
