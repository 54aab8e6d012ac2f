#if canImport(Glibc)
import Glibc
#endif
import FitText
import FitThreads
import Logging
import Synchronization

/// The daemon's results and shaped words across restarts (issue 14, "a warm start";
/// docs/caching.md): loads `$XDG_CACHE_HOME/fitd/results.bin` and `shapes.bin` when the
/// daemon starts and saves them when the daemon stops or goes idle. A file that cannot be used — truncated, corrupt, another version's,
/// other fonts' — is logged once and ignored; the next save replaces it.
public final class WarmStart: Sendable {
    public static let fileName = "results.bin"
    public static let shapesFileName = "shapes.bin"
    public let directory: String
    public var path: String { directory + "/" + Self.fileName }
    public var shapesPath: String { directory + "/" + Self.shapesFileName }
    private let engine: TextEngine
    private let version: String
    private let logger: Logger
    /// Results the engine had measured when the file was last written: a daemon that
    /// measured nothing since (answered only from caches, or nothing) has nothing new to write.
    /// Held for the whole of a save: two at once (the idle release's and SIGTERM's) would
    /// write the same temporary file.
    private let savedAt = Mutex<UInt64>(0)

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

    /// Maps the files that were written for this fitd, these fonts and these rules.
    /// Returns the results the results file holds (0 when there is no usable file).
    @discardableResult
    public func load() -> Int {
        let fingerprint = engine.persistenceFingerprint(version: version)
        if let shapes = open(shapesPath, fingerprint: fingerprint, name: "persisted-shapes") {
            engine.attachPersistedShapes(shapes)
            logger.info("warm start: \(shapes.entryCount) shaped runs from \(shapesPath)")
        }
        guard let results = open(path, fingerprint: fingerprint, name: "persisted-results") else { return 0 }
        engine.attachPersistedResults(results)
        logger.info("warm start: \(results.entryCount) results from \(path)")
        return results.entryCount
    }

    /// The table at `path`, or nil, logged: nothing for no file, info for another
    /// fingerprint's, a warning for a file that cannot be used.
    private func open(_ path: String, fingerprint: UInt64, name: String) -> PersistedResultTable? {
        do throws(PersistedResultsError) {
            return try PersistedResultTable.open(path: path, fingerprint: fingerprint, name: name)
        } catch .staleFingerprint {
            logger.info("warm start: \(path) was \(PersistedResultsError.staleFingerprint); starting cold")
        } catch {
            logger.warning("warm start: ignoring \(path): \(error)")
        }
        return nil
    }

    /// Writes the results measured so far (with those of the mapped file still valid) and
    /// maps the new file in place of the old one. Nothing is written when nothing was measured
    /// since the daemon started or last saved. The writing and its fsync run on a thread of
    /// their own: a blocking call must not hold one of Swift's cooperative threads.
    public func save() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            do {
                // Dropped at once: detached, it ends when the save is done.
                _ = try PosixThread(name: "fitd-save") { [self] in
                    saveNow()
                    done.resume()
                }
            } catch {
                logger.warning("warm start: no thread to save on (\(error)); results are not saved")
                done.resume()
            }
        }
    }

    private func saveNow() {
        savedAt.withLock { savedAt in
            let measured = engine.measuredResultCount
            guard savedAt != measured, makeDirectory() else { return }
            let stamp = engine.persistenceStamp(version: version)
            let fingerprint = stamp.fingerprint
            do throws(PersistedResultsError) {
                guard let entries = try engine.savePersistedResults(to: path, stamp: stamp),
                    let shapes = try engine.savePersistedShapes(to: shapesPath, stamp: stamp)
                else {
                    // Fonts changed under the save: the next save writes the new fonts' results.
                    logger.info("warm start: fonts changed during the save; not saved")
                    return
                }
                savedAt = measured
                logger.info("warm start: saved \(entries) results to \(path), \(shapes) shaped runs to \(shapesPath)")
                engine.attachPersistedResults(try PersistedResultTable.open(path: path, fingerprint: fingerprint))
                engine.attachPersistedShapes(try PersistedResultTable.open(path: shapesPath, fingerprint: fingerprint, name: "persisted-shapes"))
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
