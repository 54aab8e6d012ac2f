import FitBus
import FitProtocol
import FitScale
import FitText
import Foundation
import Synchronization
import Testing

@testable import FitService

#if canImport(Glibc)
import Glibc
#endif

/// Counts the renames onto fitd.conf in a directory (inotify(7), IN_MOVED_TO): one per save,
/// since ConfigFile.save writes a temporary file and renames it over the old one. IN_MOVED_FROM
/// is watched too, though not counted: inotify merges an event into the unread one before it
/// when both have the same mask, watch and name (fs/notify/inotify/inotify_fsnotify.c,
/// event_compare), so two renames onto fitd.conf in a row would be one event; the temporary
/// file's IN_MOVED_FROM between them keeps them apart.
final class ConfigRenames {
    private let fd: Int32

    init(directory: String) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0, inotify_add_watch(fd, directory, UInt32(IN_MOVED_TO | IN_MOVED_FROM)) >= 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// Renames onto `name` since the watch began (or the last count).
    func count(name: String = "fitd.conf") -> Int {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let length = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard length > 0 else { return total }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= length {
                let nameLength = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + 16)..<min(length, offset + 16 + nameLength)].prefix { $0 != 0 }
                let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
                if mask & UInt32(IN_MOVED_TO) != 0, String(decoding: nameBytes, as: UTF8.self) == name { total += 1 }
                offset += 16 + nameLength
            }
        }
    }
}

/// A count shared by the tasks of a group.
final class SharedCount: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .sequentiallyConsistent) }
    var current: Int { value.load(ordering: .sequentiallyConsistent) }
}

@Suite("Set TextScale, coalesced")
struct CoalescedSetTests {
    @Test("1,000 Sets at once: the last one wins; generations and fitd.conf writes are bounded by the time taken")
    func thousandSets() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        let directory = fixture.directory + "/fitd"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let renames = try ConfigRenames(directory: directory)
        let before = fixture.service.currentGeneration
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<999 {
                group.addTask {
                    try await fixture.service.changeExplicitScale(to: 1 + Double(index % 100) / 100)
                }
            }
            // The last Set, sent once every other one is queued: its value must be the one in force.
            while fixture.service.scaleBinding.writes.submittedCount < 999 { try await Task.sleep(for: .milliseconds(1)) }
            group.addTask { try await fixture.service.changeExplicitScale(to: 2.5) }
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - started
        // One application per started quarter second, and one at once at the start.
        let windows = Int((elapsed / ExplicitScaleWrites.defaultWindow).rounded(.up)) + 1
        let generations = Int(fixture.service.currentGeneration - before)
        let writes = renames.count()
        print("1,000 Sets in \(elapsed): \(generations) generations, \(writes) writes of fitd.conf, bound \(windows)")
        #expect(try await fixture.property("TextScale") == .double(2.5))
        #expect(fixture.service.currentTextScale == 2.5)
        #expect(generations >= 1 && generations <= windows)
        #expect(writes >= 1 && writes <= windows)
        let file = try String(contentsOfFile: directory + "/fitd.conf", encoding: .utf8)
        #expect(file.contains("scale = 2.5"))
    }

    @Test("one Set after another: each reply comes once its value is in force")
    func sequentialSets() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        for value in [1.5, 2, 1.25, 3] {
            try await fixture.service.changeExplicitScale(to: value)
            #expect(try await fixture.property("TextScale") == .double(value))
        }
        try await fixture.service.resetExplicitScale()
        #expect(try await fixture.property("TextScaleSource") == .string("default"))
    }

    @Test("the first write applies at once; the next no sooner than a window after it")
    func firstAtOnceThenTheWindow() async throws {
        let window = Duration.seconds(1)
        let writes = ExplicitScaleWrites(window: window)
        let applied = Mutex<[(TextScale?, ContinuousClock.Instant)]>([])
        let apply: ExplicitScaleWrites.Apply = { value in
            applied.withLock { $0.append((value, .now)) }
            return nil
        }
        // Counted and compared, not timed against the wall: with the test run's other suites
        // on both cores, a task may wait seconds for a thread.
        try await writes.submit(try TextScale(1.5), apply: apply)
        #expect(writes.waitCount == 0)
        try await writes.submit(try TextScale(2), apply: apply)
        let record = applied.withLock { $0 }
        #expect(record.map(\.0) == [try TextScale(1.5), try TextScale(2)])
        if record.count == 2 { #expect(record[1].1 - record[0].1 >= window) }
        #expect(writes.appliedCount == 2 && writes.submittedCount == 2)
    }

    @Test("the writes a Set stands for share its outcome: a save that fails is an error to each, and the old value stays")
    func failedSave() async throws {
        let fixture = try ScaleFixture()
        await fixture.start()
        try await fixture.service.changeExplicitScale(to: 1.5)
        // fitd.conf's directory made a file: the next save cannot create its temporary file.
        let directory = fixture.directory + "/fitd"
        try FileManager.default.removeItem(atPath: directory)
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: directory))
        let failures = SharedCount()
        await withTaskGroup(of: Void.self) { group in
            for value in [2.0, 2.5, 3] {
                group.addTask {
                    do { try await fixture.service.changeExplicitScale(to: value) } catch {
                        failures.increment()
                    }
                }
            }
        }
        #expect(failures.current == 3)
        #expect(try await fixture.property("TextScale") == .double(1.5))
    }

    @Test("the scales a desktop source may set are those fitd measures at")
    func desktopRangeIsTheMeasuredRange() {
        #expect(TextScale.desktopRange == TextLimits.textScaleRange)
    }
}
