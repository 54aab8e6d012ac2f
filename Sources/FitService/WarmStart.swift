#if canImport(Glibc)
import Glibc
#endif
import FitText
import FitThreads
import Logging
import Synchronization

/// The daemon's results and shaped words across restarts (docs/caching.md, "A warm start"):
/// reads `$XDG_CACHE_HOME/fitd/results.bin` and `shapes.bin` when the daemon starts and saves
/// them when the daemon stops or goes idle. A file that cannot be used — truncated, corrupt,
/// another version's, other fonts', too large, changed while read — is logged once and
/// ignored; the next save replaces it. A cache directory or secret that others could have
/// written turns persistence off for the daemon's life, with one warning naming what is wrong.
public final class WarmStart: Sendable {
    public static let fileName = "results.bin"
    public static let shapesFileName = "shapes.bin"
    /// A file may be this many times its cache's budget: what a save writes is within the
    /// budget, and the margin keeps a file written before the budget was lowered.
    static let budgetFactor = 2
    public let directory: String
    public var path: String { directory + "/" + Self.fileName }
    public var shapesPath: String { directory + "/" + Self.shapesFileName }
    public var secretPath: String { directory + "/" + PersistenceSecret.fileName }
    private let engine: TextEngine
    private let version: String
    private let logger: Logger
    /// Results the engine had measured when the file was last written: a daemon that
    /// measured nothing since (answered only from caches, or nothing) has nothing new to write.
    /// Held for the whole of a save: two at once (the idle release's and SIGTERM's) would
    /// write the same temporary file.
    private let savedAt = Mutex<UInt64>(0)
    /// The secret once read or made; `off` once the directory or the secret was found unfit.
    private let trust = Mutex<(secret: PersistenceSecret?, off: Bool)>((nil, false))

    /// Whether persistence was turned off because the directory or its secret is unfit.
    public var isOff: Bool { trust.withLock { $0.off } }

    public init(directory: String, engine: TextEngine, version: String, logger: Logger) {
        self.directory = directory
        self.engine = engine
        self.version = version
        self.logger = logger
    }

    /// The directory systemd made for fitd.service's `CacheDirectory=fitd` ($CACHE_DIRECTORY,
    /// writable in the unit's read-only home), else `$XDG_CACHE_HOME/fitd`, else
    /// `$HOME/.cache/fitd` (XDG Base Directory Specification: a relative XDG_CACHE_HOME is
    /// ignored); nil without any.
    public static func directory(environment: [String: String]) -> String? {
        if let list = environment["CACHE_DIRECTORY"],
            let unit = list.split(separator: ":").map(String.init).first(where: { $0.hasPrefix("/") && $0.hasSuffix("/fitd") })
        {
            return unit
        }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/fitd" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.cache/fitd"
    }

    /// Reads the files that were written for this fitd, these fonts and these rules, after
    /// removing what crashed saves left behind. Returns the results the results file holds
    /// (0 when there is no usable file).
    @discardableResult
    public func load() -> Int {
        let secret = secret(creating: false)
        removeStaleTemporaries()
        guard let secret else { return 0 }
        let fingerprint = engine.persistenceFingerprint(version: version)
        loadShapes(fingerprint: fingerprint, secret: secret)
        let budget = engine.configuration.resultCacheBytes
        guard let results = open(path, fingerprint: fingerprint, secret: secret, budget: budget, name: "persisted-results") else { return 0 }
        engine.attachPersistedResults(results)
        logger.info("warm start: \(results.entryCount) results from \(path)")
        return results.entryCount
    }

    /// Lets go of the files' contents (an idle daemon's memory goes back to what it took at
    /// start: read, not mapped, they are the daemon's own memory, some 14 MB when full).
    /// They were saved just before; ``reload()`` reads them again when requests come back.
    public func release() {
        savedAt.withLock { _ in
            engine.attachPersistedResults(nil)
            engine.attachPersistedShapes(nil)
        }
    }

    /// ``load()`` on a thread of its own (a read of megabytes must not hold one of Swift's
    /// cooperative threads): for a daemon that released the files while idle.
    public func reload() async {
        await onThreadOfItsOwn("fitd-reload", else: "answering cold") { [self] in load() }
    }

    /// `body` on a POSIX thread, awaited: file reads, writes and fsyncs block, and must not
    /// hold one of Swift's cooperative threads. Without a thread, `body` does not run and
    /// the log says what that means (`consequence`).
    private func onThreadOfItsOwn(_ name: String, else consequence: String, _ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            do {
                // Dropped at once: detached, it ends when `body` does.
                _ = try PosixThread(name: name) {
                    body()
                    done.resume()
                }
            } catch {
                logger.warning("warm start: no thread for \(name) (\(error)); \(consequence)")
                done.resume()
            }
        }
    }

    /// Reads shapes.bin on a thread of its own while the results are read and fitd takes its
    /// name: it is the larger file (every word of every run), and reading 10 MB into memory
    /// costs milliseconds the first answer need not wait for; until it is attached a word is
    /// shaped as on a fresh start. It holds `savedAt`, so a save waits for it and carries its
    /// runs over.
    private func loadShapes(fingerprint: UInt64, secret: PersistenceSecret) {
        let read: @Sendable () -> Void = { [self] in
            savedAt.withLock { _ in
                let budget = engine.configuration.shapeCacheBytes
                guard let shapes = open(shapesPath, fingerprint: fingerprint, secret: secret, budget: budget, name: "persisted-shapes")
                else { return }
                engine.attachPersistedShapes(shapes)
                logger.info("warm start: \(shapes.entryCount) shaped runs from \(shapesPath)")
            }
        }
        do {
            // Dropped at once: detached, it ends when the file is read.
            _ = try PosixThread(name: "fitd-load", read)
        } catch {
            read()
        }
    }

    /// The secret, nil when persistence is off or (`creating` false) there is none yet: then
    /// no file could be authenticated and none is read. The directory is checked every time
    /// (an lstat): it may have been replaced since the last save.
    private func secret(creating: Bool) -> PersistenceSecret? {
        trust.withLock { trust -> PersistenceSecret? in
            guard !trust.off else { return nil }
            if let problem = WarmStartDirectory.problem(directory) {
                logger.warning("warm start: \(directory) is \(problem); persistence is off (nothing is read from it or saved to it)")
                trust.off = true
                return nil
            }
            if let secret = trust.secret { return secret }
            do throws(PersistedResultsError) {
                let secret = creating
                    ? try PersistenceSecret.loadOrCreate(directory: directory) : try PersistenceSecret.load(path: secretPath)
                trust.secret = secret
                return secret
            } catch {
                logger.warning("warm start: the secret \(secretPath) cannot be used: \(error); persistence is off")
                trust.off = true
                return nil
            }
        }
    }

    /// Removes the temporary files of saves that never finished (a fitd killed while saving);
    /// nothing when the directory is unfit (``secret(creating:)`` has looked at it).
    private func removeStaleTemporaries() {
        guard !isOff else { return }
        for name in WarmStartDirectory.removeStaleTemporaries(in: directory) {
            logger.info("warm start: removed \(directory)/\(name), left by a save that did not finish")
        }
    }

    /// Both files, each read within twice its cache's budget.
    private func open(fingerprint: UInt64, secret: PersistenceSecret) -> (results: PersistedResultTable?, shapes: PersistedResultTable?) {
        let configuration = engine.configuration
        return (
            open(path, fingerprint: fingerprint, secret: secret, budget: configuration.resultCacheBytes, name: "persisted-results"),
            open(shapesPath, fingerprint: fingerprint, secret: secret, budget: configuration.shapeCacheBytes, name: "persisted-shapes")
        )
    }

    /// The table at `path`, or nil, logged: nothing for no file, info for another
    /// fingerprint's, a warning for a file that cannot be used.
    private func open(_ path: String, fingerprint: UInt64, secret: PersistenceSecret, budget: Int, name: String) -> PersistedResultTable? {
        do throws(PersistedResultsError) {
            let limit = budget.multipliedReportingOverflow(by: Self.budgetFactor)
            return try PersistedResultTable.open(
                path: path, fingerprint: fingerprint, secret: secret, byteLimit: limit.overflow ? Int.max : limit.partialValue, name: name)
        } catch .staleFingerprint {
            logger.info("warm start: \(path) was \(PersistedResultsError.staleFingerprint); starting cold")
        } catch {
            logger.warning("warm start: ignoring \(path): \(error)")
        }
        return nil
    }

    /// Writes the results measured so far (with those of the file read still valid) and
    /// reads the new file in place of the old one. Nothing is written when nothing was measured
    /// since the daemon started or last saved. The writing and its fsync run on a thread of
    /// their own: a blocking call must not hold one of Swift's cooperative threads.
    public func save() async {
        await onThreadOfItsOwn("fitd-save", else: "results are not saved") { [self] in saveNow() }
    }

    private func saveNow() {
        savedAt.withLock { savedAt in
            let measured = engine.measuredResultCount
            guard savedAt != measured, !isOff, makeDirectory(), let secret = secret(creating: true) else { return }
            let stamp = engine.persistenceStamp(version: version)
            let fingerprint = stamp.fingerprint
            do throws(PersistedResultsError) {
                guard let entries = try engine.savePersistedResults(to: path, stamp: stamp, secret: secret),
                    let shapes = try engine.savePersistedShapes(to: shapesPath, stamp: stamp, secret: secret)
                else {
                    // Fonts changed under the save: the next save writes the new fonts' results.
                    logger.info("warm start: fonts changed during the save; not saved")
                    return
                }
                savedAt = measured
                logger.info("warm start: saved \(entries) results to \(path), \(shapes) shaped runs to \(shapesPath)")
                let written = open(fingerprint: fingerprint, secret: secret)
                engine.attachPersistedResults(written.results)
                engine.attachPersistedShapes(written.shapes)
            } catch {
                logger.warning("warm start: \(error)")
            }
        }
    }

    /// The cache directory, 0700 like every per-user cache of a session service; its parent
    /// is made too when missing (a fresh home has no ~/.cache).
    private func makeDirectory() -> Bool {
        for dir in [parentDirectory(directory), directory] where !dir.isEmpty {
            if mkdir(dir, 0o700) != 0, errno != EEXIST {
                logger.warning("warm start: cannot create \(dir) (errno \(errno)); results are not saved")
                return false
            }
        }
        return true
    }

    private func parentDirectory(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }
}
