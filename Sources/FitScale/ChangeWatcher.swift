import FitThreads
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization

/// Watches what the text scale is read from with Linux inotify and reports, debounced, why
/// it may have changed.
///
/// - Files are watched through their directory (an editor's or fitd's own atomic
///   rename-over replaces the inode a file watch would hold).
/// - A path that does not exist yet is watched through its nearest existing ancestor; when
///   the next component appears the watch moves down (fontconfig itself never notices a
///   `~/.config/fontconfig` created after it loaded).
/// - Directory trees (font directories) get a watch per directory, also for ones created later.
/// - A watched directory that disappears (IN_IGNORED / IN_MOVE_SELF) is reported and watched
///   again through its parent, so its return is noticed too.
/// - Events are folded into one report per debounce window: the report goes out once no
///   event came for `debounce`, or `maximumDelay` after the first event of a flood that
///   never pauses. 10,000 touches in a second are one re-read, not 10,000.
/// - A full inotify queue (IN_Q_OVERFLOW) reports every reason and re-arms every target.
///
/// The watcher runs on its own thread (poll on the inotify descriptor and an eventfd that
/// wakes it for ``notify(_:)``, target updates and ``stop()``), never on Swift's cooperative
/// pool. Nothing starts in `init`: call ``start()``.
public final class ChangeWatcher: Sendable {
    /// Directories per tree target at most (a font tree is a few hundred).
    public static let maximumDirectoriesPerTree = 4096

    private let core: Mutex<WatchCore>
    private let continuation: AsyncStream<ChangeSet>.Continuation
    private let handler: (@Sendable (ChangeSet) -> Void)?
    private let logger: Logger

    /// The debounced reports, one per window. Finishes after ``stop()``.
    public let changes: AsyncStream<ChangeSet>

    /// - Parameters:
    ///   - debounce: quiet time after the last event before a report (about a second in the
    ///     daemon; tests use less).
    ///   - maximumDelay: a report goes out at the latest this long after the first event of
    ///     a window, even while events keep coming.
    ///   - handler: called on the watcher's thread for every report, besides ``changes``.
    public init(
        targets: [WatchTarget], debounce: Duration = .seconds(1), maximumDelay: Duration = .seconds(5),
        logger: Logger, handler: (@Sendable (ChangeSet) -> Void)? = nil
    ) {
        (changes, continuation) = AsyncStream.makeStream(of: ChangeSet.self, bufferingPolicy: .bufferingNewest(64))
        core = Mutex(WatchCore(targets: targets, debounce: debounce, maximumDelay: max(maximumDelay, debounce)))
        self.handler = handler
        self.logger = logger
    }

    deinit {
        core.withLock { $0.closeDescriptors() }
        continuation.finish()
    }

    /// Opens inotify, installs the watches and starts the thread. Throws when inotify is
    /// unavailable (the per-user instance limit, fs.inotify.max_user_instances, is reached)
    /// or no thread can be started. Calling it again while watching does nothing.
    public func start() throws(FitScaleError) {
        try core.withLock { (core: inout WatchCore) throws(FitScaleError) in
            guard core.inotifyFD < 0 else { return }
            let inotifyFD = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
            guard inotifyFD >= 0 else { throw .fileSystem(operation: "inotify_init1", path: "", errno: errno) }
            // A self-pipe wakes poll (Glibc's module map does not export eventfd).
            var pipeFDs: [Int32] = [-1, -1]
            guard pipe(&pipeFDs) == 0 else {
                let code = errno
                close(inotifyFD)
                throw .fileSystem(operation: "pipe2", path: "", errno: code)
            }
            for fd in pipeFDs {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            }
            core.inotifyFD = inotifyFD
            core.wakeFD = pipeFDs[0]
            core.wakeWriteFD = pipeFDs[1]
            do throws(PosixThreadError) {
                // The thread holds self until it returns; stop() joins it.
                core.thread = try PosixThread(name: "fitd watcher") { [self] in self.run() }
            } catch {
                core.closeDescriptors()
                throw .fileSystem(operation: "pthread_create", path: "", errno: error.code)
            }
            core.armAll(logger: logger)
        }
    }

    /// Stops the thread, closes the descriptors and finishes ``changes``. Waits for the
    /// thread; a report being delivered is completed first.
    public func stop() {
        let thread = core.withLock { (core: inout WatchCore) -> PosixThread? in
            guard core.inotifyFD >= 0, !core.stopping else { return nil }
            core.stopping = true
            core.wake()
            return core.thread.take()
        }
        thread?.join()
        core.withLock { $0.closeDescriptors() }
        continuation.finish()
    }

    /// Reports `reason` through the same debounce (the portal's SettingChanged signal).
    public func notify(_ reason: ChangeReason) {
        core.withLock { core in
            core.record(reason, path: nil, now: .now)
            core.wake()
        }
    }

    /// Replaces the targets (after a fontconfig reload lists other files): watches no longer
    /// needed are removed, new ones added.
    public func updateTargets(_ targets: [WatchTarget]) {
        core.withLock { core in
            guard core.targets != targets else { return }
            core.targets = targets
            if core.inotifyFD >= 0 { core.rearmAll(logger: logger) }
        }
    }

    /// Number of reports delivered so far.
    public var reportCount: Int { core.withLock { $0.reportCount } }

    /// Paths of the directories currently watched.
    public var watchedDirectories: [String] { core.withLock { $0.watches.values.map(\.path).sorted() } }

    /// Each watched directory's watch descriptor (for tests: a directory watched before and
    /// after ``updateTargets(_:)`` keeps its watch).
    var watchDescriptors: [String: Int32] {
        core.withLock { core in Dictionary(core.watches.map { ($0.value.path, $0.key) }, uniquingKeysWith: max) }
    }

    /// The watcher's inotify descriptor, -1 when stopped (for tests: /proc/self/fdinfo lists
    /// the watches the kernel holds for it).
    var inotifyDescriptor: Int32 { core.withLock { $0.inotifyFD } }

    // MARK: - The thread

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let (inotifyFD, wakeFD, timeout, stopping) = core.withLock { core in
                (core.inotifyFD, core.wakeFD, core.pollTimeout(now: .now), core.stopping)
            }
            if stopping { return }
            var fds = [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            if ready < 0, errno != EINTR {
                logger.error("change watcher: poll failed, errno \(errno); watching stops")
                return
            }
            if fds[1].revents != 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(wakeFD, &bytes, bytes.count) > 0 {}
            }
            if fds[0].revents != 0 {
                drain(inotifyFD, &buffer)
            }
            let report = core.withLock { $0.takeReportIfDue(now: .now) }
            if let report {
                logger.debug("change watcher: \(report)")
                continuation.yield(report)
                handler?(report)
            }
        }
    }

    private func drain(_ fd: Int32, _ buffer: inout [UInt8]) {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return }  // EAGAIN: drained
            var events: [InotifyEvent] = []
            var offset = 0
            buffer.withUnsafeBytes { raw in
                // struct inotify_event: int wd; uint32 mask, cookie, len; char name[len].
                while offset + 16 <= count {
                    let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    var name = ""
                    if length > 0, offset + 16 + length <= count {
                        let bytes = raw[(offset + 16)..<(offset + 16 + length)].prefix(while: { $0 != 0 })
                        name = String(decoding: bytes, as: UTF8.self)
                    }
                    events.append(InotifyEvent(wd: wd, mask: mask, name: name))
                    offset += 16 + length
                }
            }
            core.withLock { core in
                let now = ContinuousClock.now
                for event in events { core.handle(event, now: now, logger: logger) }
            }
        }
    }
}

struct InotifyEvent {
    var wd: Int32
    var mask: UInt32
    var name: String
}

/// The watcher's state, only touched under its mutex.
struct WatchCore: ~Copyable {
    enum Role: Hashable {
        /// Events on entries of this directory count for the target.
        case directory(target: Int)
        /// Events naming `name` in this directory count (a file target).
        case fileParent(target: Int, name: String)
        /// A missing path below this directory: the next component is `component`.
        case ancestor(target: Int, component: String)
    }

    struct Watch {
        var path: String
        var roles: Set<Role>
    }

    static let mask: UInt32 = UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE)
        | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF)
        | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    var targets: [WatchTarget]
    let debounce: Duration
    let maximumDelay: Duration
    var inotifyFD: Int32 = -1
    var wakeFD: Int32 = -1
    var wakeWriteFD: Int32 = -1
    var stopping = false
    /// The watcher's thread from start() until stop() takes it to join it.
    var thread: PosixThread?
    var watches: [Int32: Watch] = [:]
    /// An inotify_add_watch failed with ENOSPC (fs.inotify.max_user_watches) since this was
    /// last cleared: a re-arm then arms again once the watches it no longer needs are gone.
    var outOfWatches = false

    var pending: Set<ChangeReason> = []
    var pendingPaths: [String] = []
    var pendingEvents = 0
    var firstEvent: ContinuousClock.Instant?
    var lastEvent: ContinuousClock.Instant?
    var reportCount = 0

    init(targets: [WatchTarget], debounce: Duration, maximumDelay: Duration) {
        self.targets = targets
        self.debounce = debounce
        self.maximumDelay = maximumDelay
    }

    deinit {
        for fd in [inotifyFD, wakeFD, wakeWriteFD] where fd >= 0 { close(fd) }
    }

    mutating func closeDescriptors() {
        for fd in [inotifyFD, wakeFD, wakeWriteFD] where fd >= 0 { close(fd) }
        inotifyFD = -1
        wakeFD = -1
        wakeWriteFD = -1
        watches = [:]
    }

    func wake() {
        guard wakeWriteFD >= 0 else { return }
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)  // EAGAIN (pipe full) is fine: a wake-up is pending
    }

    // MARK: Debounce

    mutating func record(_ reason: ChangeReason, path: String?, now: ContinuousClock.Instant) {
        pending.insert(reason)
        pendingEvents += 1
        if let path, pendingPaths.count < ChangeSet.maximumPaths, !pendingPaths.contains(path) { pendingPaths.append(path) }
        if firstEvent == nil { firstEvent = now }
        lastEvent = now
    }

    private func deadline() -> ContinuousClock.Instant? {
        guard let firstEvent, let lastEvent else { return nil }
        return min(lastEvent + debounce, firstEvent + maximumDelay)
    }

    /// Milliseconds until the pending report is due; -1 (wait for events) when none pends.
    func pollTimeout(now: ContinuousClock.Instant) -> Int32 {
        guard let deadline = deadline() else { return -1 }
        let remaining = now.duration(to: deadline)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
    }

    mutating func takeReportIfDue(now: ContinuousClock.Instant) -> ChangeSet? {
        guard let deadline = deadline(), now >= deadline, !pending.isEmpty else { return nil }
        let report = ChangeSet(reasons: pending, paths: pendingPaths, eventCount: pendingEvents)
        pending = []
        pendingPaths = []
        pendingEvents = 0
        firstEvent = nil
        lastEvent = nil
        reportCount += 1
        return report
    }

    // MARK: Watches

    mutating func armAll(logger: Logger) {
        for index in targets.indices { arm(index, logger: logger) }
    }

    /// Arms the targets again, from their roles up. Watches are added before the old ones
    /// go: inotify_add_watch(2) on a directory already watched returns its descriptor, so a
    /// directory both sets need is watched throughout (removing everything first left a
    /// moment in which a font installed there was never reported). Only the descriptors
    /// no target needs any more are removed; their IN_IGNORED finds no watch and is dropped.
    ///
    /// Both sets are held for a moment: near the user's watch limit (ENOSPC) a new directory
    /// may not fit until the old ones are gone, so then the targets are armed once more
    /// (existing watches come back with their descriptors; roles are a set). An event read
    /// before the update meets a kept watch's new roles: at worst one report too many.
    mutating func rearmAll(logger: Logger) {
        let before = watches
        watches = [:]
        outOfWatches = false
        armAll(logger: logger)
        for wd in before.keys where watches[wd] == nil { inotify_rm_watch(inotifyFD, wd) }
        if outOfWatches {
            outOfWatches = false
            armAll(logger: logger)
        }
    }

    /// Installs the watches target `index` needs now; returns whether the target's own
    /// path (or a file target's directory) exists.
    @discardableResult
    mutating func arm(_ index: Int, logger: Logger) -> Bool {
        let target = targets[index]
        switch target.kind {
        case .file:
            let parent = WatchTarget.normalized(target.path + "/..")
            let name = String(target.path.split(separator: "/").last ?? "")
            if isDirectory(parent) {
                addWatch(parent, role: .fileParent(target: index, name: name), logger: logger)
                return true
            }
            armAncestor(of: parent, target: index, logger: logger)
        case .directory, .directoryTree:
            if isDirectory(target.path) {
                if target.kind == .directoryTree {
                    armTree(target.path, target: index, logger: logger)
                } else {
                    addWatch(target.path, role: .directory(target: index), logger: logger)
                }
                return true
            }
            armAncestor(of: target.path, target: index, logger: logger)
        }
        return false
    }

    private mutating func armTree(_ root: String, target: Int, logger: Logger) {
        var stack = [root]
        var count = 0
        while let directory = stack.popLast() {
            count += 1
            if count > ChangeWatcher.maximumDirectoriesPerTree {
                logger.warning("change watcher: more than \(ChangeWatcher.maximumDirectoriesPerTree) directories under \(root); the rest are not watched")
                return
            }
            addWatch(directory, role: .directory(target: target), logger: logger)
            stack.append(contentsOf: subdirectories(of: directory))
        }
    }

    /// Watches the nearest existing ancestor of `path`, remembering the component below it.
    private mutating func armAncestor(of path: String, target: Int, logger: Logger) {
        var child = path
        var parent = WatchTarget.normalized(path + "/..")
        while parent != child {
            if isDirectory(parent) {
                let component = String(child.split(separator: "/").last ?? "")
                addWatch(parent, role: .ancestor(target: target, component: component), logger: logger)
                return
            }
            child = parent
            parent = WatchTarget.normalized(parent + "/..")
        }
    }

    private mutating func addWatch(_ path: String, role: Role, logger: Logger) {
        let wd = inotify_add_watch(inotifyFD, path, WatchCore.mask)
        guard wd >= 0 else {
            // ENOENT: gone between the check and the call (the parent's event re-arms);
            // ENOSPC: fs.inotify.max_user_watches reached.
            let code = errno
            if code == ENOSPC { outOfWatches = true }
            if code != ENOENT { logger.warning("change watcher: cannot watch \(path): errno \(code)") }
            return
        }
        watches[wd, default: Watch(path: path, roles: [])].roles.insert(role)
    }

    // MARK: Events

    mutating func handle(_ event: InotifyEvent, now: ContinuousClock.Instant, logger: Logger) {
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
            logger.warning("change watcher: the inotify queue overflowed; re-reading everything")
            for reason in ChangeReason.allCases { record(reason, path: nil, now: now) }
            rearmAll(logger: logger)
            return
        }
        guard let watch = watches[event.wd] else { return }
        let isDirectoryEntry = event.mask & UInt32(IN_ISDIR) != 0
        let entryPath = event.name.isEmpty ? watch.path : watch.path + "/" + event.name

        if event.mask & UInt32(IN_MOVE_SELF) != 0 {
            // The directory moved away: its watch would follow it. Drop it; IN_IGNORED re-arms.
            inotify_rm_watch(inotifyFD, event.wd)
            return
        }
        if event.mask & UInt32(IN_IGNORED) != 0 {
            // The watch is gone (directory deleted, or unmounted): report, watch the way back.
            watches[event.wd] = nil
            for role in watch.roles {
                let index = role.target
                guard index < targets.count else { continue }
                if case .ancestor = role {} else { record(targets[index].reason, path: watch.path, now: now) }
                arm(index, logger: logger)
            }
            return
        }
        if event.mask & UInt32(IN_DELETE_SELF) != 0 { return }  // IN_IGNORED follows

        for role in watch.roles {
            guard role.target < targets.count else { continue }
            let target = targets[role.target]
            switch role {
            case .directory(let index):
                record(target.reason, path: entryPath, now: now)
                if target.kind == .directoryTree, isDirectoryEntry,
                    event.mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0
                {
                    armTree(entryPath, target: index, logger: logger)
                }
            case .fileParent(_, let name):
                if event.name == name { record(target.reason, path: entryPath, now: now) }
            case .ancestor(let index, let component):
                guard event.name == component,
                    event.mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0
                else { continue }
                watches[event.wd]?.roles.remove(role)
                if watches[event.wd]?.roles.isEmpty == true {
                    inotify_rm_watch(inotifyFD, event.wd)
                    watches[event.wd] = nil
                }
                // The path came one step closer (or into existence): watch further down.
                // Anything written before the new watch is covered by reporting now.
                if arm(index, logger: logger) { record(target.reason, path: entryPath, now: now) }
            }
        }
    }

    // MARK: File system

    private func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Subdirectories, not following symbolic links (a link loop must not recurse forever).
    private func subdirectories(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var out: [String] = []
        while let entry = readdir(directory) {
            guard let name = DirectoryEntry.name(entry) else { continue }
            if name == "." || name == ".." { continue }
            let child = path + "/" + name
            var info = stat()
            if lstat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { out.append(child) }
        }
        return out
    }
}

extension WatchCore.Role {
    var target: Int {
        switch self {
        case .directory(let target), .fileParent(let target, _), .ancestor(let target, _): return target
        }
    }
}
