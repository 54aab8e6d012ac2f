import Logging

/// The text scale in force: combines the sources (``TextScalePreference``), re-reads them on
/// a change, keeps each source's last good value when a read fails (and says why in
/// ``problems``), and counts effective changes in ``TextScaleSnapshot/generation``.
///
/// Nothing is read in `init`; call ``reload(reasons:)`` once at start, then for every
/// ``ChangeWatcher`` report (``follow(_:)`` does that).
public actor TextScaleState {
    public let environment: FitScaleEnvironment
    private let desktop: (any DesktopSettingsProvider)?
    private let fontconfigReader: FontconfigReader
    /// For the first reload only: a configuration already loaded from the same files
    /// (referenced for the reader), instead of loading it again; later reloads load afresh.
    private var firstFontconfig: (@Sendable () -> OpaquePointer?)?
    private let store: ExplicitScaleStore
    private let logger: Logger
    /// Checks fontconfig's files before each load (the daemon's; nil: load without a check).
    public nonisolated let fontconfigCheck: FontconfigGuard?

    private var preference = TextScalePreference()
    private var loaded = false
    public private(set) var snapshot: TextScaleSnapshot
    /// Why a source's last good value is in force instead of what it says now (empty when
    /// every source was read). Replaced on every reload.
    public private(set) var problems: [FitScaleError] = []
    /// Number of completed re-reads.
    public private(set) var reloadCount = 0

    /// - Parameter desktop: GNOME's portal (from the daemon) or ``KDESettingsProvider``; nil
    ///   for none.
    /// - Parameter loadedFontconfig: for the first reload, a configuration this process has
    ///   loaded from the same files a moment before, FcConfigReference'd (``FontconfigReader/read(loaded:)``);
    ///   nil when there is none, or to load one anyway.
    public init(
        environment: FitScaleEnvironment, desktop: (any DesktopSettingsProvider)? = nil, logger: Logger,
        loadedFontconfig: (@Sendable () -> OpaquePointer?)? = nil, fontconfigCheck: FontconfigGuard? = nil
    ) {
        self.fontconfigCheck = fontconfigCheck
        self.environment = environment
        self.desktop = desktop
        firstFontconfig = loadedFontconfig
        fontconfigReader = FontconfigReader(configFile: environment.fontconfigFile)
        store = ExplicitScaleStore(path: environment.fitdConfigPath)
        self.logger = logger
        snapshot = TextScaleSnapshot(preference: TextScalePreference(), generation: 0)
    }

    /// Re-reads every source. `reasons` only decide whether a generation bump is due without
    /// a value change (``ChangeReason/fonts``: measurements change with the font set).
    @discardableResult
    public func reload(reasons: Set<ChangeReason> = Set(ChangeReason.allCases)) async -> TextScaleSnapshot {
        var next = preference
        var found: [FitScaleError] = []
        let loaded = firstFontconfig?()
        firstFontconfig = nil
        do throws(FitScaleError) {
            // The first read follows the daemon's own check (FontconfigGuard.prepareAtStart).
            if loaded == nil, reloadCount > 0, let fontconfigCheck,
                !FontconfigGuard.mayLoad(fontconfigCheck.prepareForReload(), logger: logger)
            {
                throw FitScaleError.fontconfigUnavailable("a file it would read is not a regular file of a sane size (above); not loaded")
            }
            if let loaded {
                next.fontconfig = await fontconfigReader.read(loaded: loaded)
            } else {
                next.fontconfig = try await fontconfigReader.read()
            }
        } catch {
            found.append(error)
            logger.warning("text scale: keeping the last good fontconfig values: \(error)")
        }
        if let desktop {
            next.desktopSource = desktop.source
            do throws(FitScaleError) {
                next.desktop = try await desktop.currentSettings()
                for problem in next.desktop?.passedOver ?? [] {
                    logger.warning("desktop settings: \(problem)")
                }
                if let waiting = next.desktop?.textScaleNotAnswering {
                    // The source that decides the scale did not answer: its last good value
                    // stays; the fonts read now apply.
                    next.desktop?.textScale = preference.desktop?.textScale
                    next.desktop?.textScaleSource = preference.desktop?.textScaleSource
                    next.desktop?.textScaleNotAnswering = nil
                    found.append(waiting)
                    logger.warning("text scale: keeping the last good desktop scale (\(preference.desktop?.textScale.map { "\($0)" } ?? "none")): \(waiting)")
                }
                if let waiting = next.desktop?.uiFontNotAnswering {
                    next.desktop?.uiFont = preference.desktop?.uiFont
                    next.desktop?.gtk3UIFont = preference.desktop?.gtk3UIFont
                    next.desktop?.uiFontNotAnswering = nil
                    if !found.contains(waiting) { found.append(waiting) }
                    logger.warning("text scale: keeping the last good UI font (\(preference.desktop?.uiFont.map { "\($0)" } ?? "GTK's default")): \(waiting)")
                }
            } catch {
                found.append(error)
                logger.warning("text scale: keeping the last good \(desktop.source) settings: \(error)")
            }
        }
        // Read last, with no suspension before the commit: the reads above await, and a Set of
        // the explicit scale that ran meanwhile (this actor is reentrant) has saved the file
        // first, so reading it here keeps that Set instead of committing the value from before.
        do throws(FitScaleError) {
            next.explicit = try store.load()
        } catch {
            found.append(error)
            next.explicit = preference.explicit
            logger.warning("text scale: keeping the last good explicit setting (\(preference.explicit?.description ?? "none")): \(error)")
        }
        problems = found
        reloadCount += 1
        return commit(next, forceBump: reasons.contains(.fonts))
    }

    /// Sets the explicit scale (the writable `TextScale` property, `fitctl scale set`):
    /// validated, written atomically to fitd.conf, in force at once.
    @discardableResult
    public func setExplicitScale(_ factor: Double) throws(FitScaleError) -> TextScaleSnapshot {
        let scale = try TextScale(factor)
        try store.save(scale)
        var next = preference
        next.explicit = scale
        problems.removeAll { $0.path == store.path }
        return commit(next, forceBump: false)
    }

    /// Removes the explicit setting (`fitctl scale reset`): the next source decides.
    @discardableResult
    public func resetExplicitScale() throws(FitScaleError) -> TextScaleSnapshot {
        try store.save(nil)
        var next = preference
        next.explicit = nil
        return commit(next, forceBump: false)
    }

    /// What to watch for the sources as last read: fitd.conf, the user's fontconfig
    /// directory, fontconfig's config files, config directories and font directories, and the
    /// desktop provider's files.
    public func watchTargets() -> [WatchTarget] {
        var targets = [
            WatchTarget(path: environment.fitdConfigPath, kind: .file, reason: .fitdConfig),
            WatchTarget(path: environment.userFontconfigDirectory, kind: .directory, reason: .fontconfig),
        ]
        if let fontconfig = preference.fontconfig {
            targets += fontconfig.configFiles.map { WatchTarget(path: $0, kind: .file, reason: .fontconfig) }
            targets += fontconfig.configDirectories.map { WatchTarget(path: $0, kind: .directory, reason: .fontconfig) }
            targets += fontconfig.fontDirectories.map { WatchTarget(path: $0, kind: .directoryTree, reason: .fonts) }
        }
        if let file = environment.fontconfigFile {
            targets.append(WatchTarget(path: file, kind: .file, reason: .fontconfig))
        }
        if let desktop {
            targets += desktop.watchedFiles.map { WatchTarget(path: $0, kind: .file, reason: .desktop) }
        }
        var seen = Set<WatchTarget>()
        return targets.filter { seen.insert($0).inserted }
    }

    /// Re-reads for every report of `watcher` (and keeps its targets current) until the
    /// watcher stops. Run it in a task of the daemon's service group.
    public func follow(_ watcher: ChangeWatcher) async {
        watcher.updateTargets(watchTargets())
        for await change in watcher.changes {
            let before = snapshot.generation
            let after = await reload(reasons: change.reasons)
            watcher.updateTargets(watchTargets())
            if after.generation != before {
                logger.info("text scale: \(change) → \(after)")
            }
        }
    }

    private func commit(_ next: TextScalePreference, forceBump: Bool) -> TextScaleSnapshot {
        preference = next
        let candidate = TextScaleSnapshot(preference: next, generation: snapshot.generation)
        if !loaded || forceBump || !candidate.sameValues(as: snapshot) {
            loaded = true
            var bumped = candidate
            bumped.generation = snapshot.generation + 1
            snapshot = bumped
        }
        return snapshot
    }
}
