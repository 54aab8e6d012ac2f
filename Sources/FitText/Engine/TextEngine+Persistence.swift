import CHarfBuzz

/// The result and shaped-run caches across restarts (docs/caching.md, "A warm start"): a
/// daemon saves what it measured and shaped, and the next one reads the files and answers from
/// them as from its own caches. Every record is keyed, enciphered and authenticated under the
/// user's ``PersistenceSecret``.
extension TextEngine {
    /// The fingerprint a persisted file must carry to be used with this engine: `version`
    /// (the program's), the engine's settings, fontconfig's configuration files and the font
    /// files' identities (``CacheFingerprint``). It stats every font file: a few milliseconds
    /// for a few thousand fonts.
    public func persistenceFingerprint(version: String) -> UInt64 {
        persistenceStamp(version: version).fingerprint
    }

    /// The fingerprint of the fonts measured with now, and their epoch: a save writes only
    /// what was measured under that epoch, so a file never carries results of other fonts
    /// than its fingerprint's.
    public func persistenceStamp(version: String) -> PersistenceStamp {
        let generation = fontGeneration
        let fingerprint = CacheFingerprint.compute(
            version: version, configuration: configuration, language: language,
            preferredLanguages: contextPreferredLanguages,
            fontSet: generation.fontSet ?? CacheFingerprint.fontSet(files: generation.resolver.sourceFiles()))
        return PersistenceStamp(fingerprint: fingerprint, epoch: generation.epoch)
    }

    /// Starts answering from `table` (nil: stops). Its fingerprint is the caller's to check
    /// (``PersistedResultTable/open(path:fingerprint:secret:byteLimit:name:)`` does).
    public func attachPersistedResults(_ table: PersistedResultTable?) {
        persisted.withLock { $0 = table }
    }

    public var persistedResults: PersistedResultTable? { persisted.withLock { $0 } }

    /// Starts shaping from `table`'s runs where the shaped-run cache misses (nil: stops).
    public func attachPersistedShapes(_ table: PersistedResultTable?) {
        typesetResources.persistedShapes.table.withLock { $0 = table }
    }

    public var persistedShapes: PersistedResultTable? { typesetResources.persistedShapes.table.withLock { $0 } }

    /// Results measured so far (cache misses), for a caller that saves only what is new.
    public var measuredResultCount: UInt64 { measuredResults.load(ordering: .relaxed) }

    /// The persisted result of `key`, kept in the result cache from now on.
    func persistedMeasurement(_ key: Prehashed<MeasureRequest>, epoch: UInt64) -> TextMetrics? {
        guard let table = persisted.withLock({ $0 }), let metrics = table.metrics(for: key.key) else { return nil }
        resultCache.insert(EpochMetrics(metrics: metrics, epoch: epoch), for: key, bytes: Self.resultBytes(key, metrics))
        return metrics
    }

    /// Writes the result cache — the most recently used first — and then what the file read
    /// at start holds that the cache does not, to `path`, at most `byteLimit` bytes (the result
    /// cache's own budget when nil). Returns the entries written; nil, with nothing written,
    /// when the fonts changed since `stamp` was taken.
    @discardableResult
    public func savePersistedResults(
        to path: String, stamp: PersistenceStamp, secret: PersistenceSecret, byteLimit: Int? = nil
    ) throws(PersistedResultsError) -> Int? {
        guard let file = persistedFile(stamp: stamp, secret: secret, byteLimit: byteLimit ?? configuration.resultCacheBytes) else {
            return nil
        }
        try PersistedResultFile.replace(path: path, with: file.bytes)
        return file.entries
    }

    /// Writes the shaped-run cache (runs and words), then what the shapes file read at start
    /// holds that the cache does not, to `path`, at most `byteLimit` bytes (the shaped-run
    /// cache's budget when nil). Returns the entries written; nil, with nothing written, when
    /// the fonts changed since `stamp` was taken.
    @discardableResult
    public func savePersistedShapes(
        to path: String, stamp: PersistenceStamp, secret: PersistenceSecret, byteLimit: Int? = nil
    ) throws(PersistedResultsError) -> Int? {
        guard let file = persistedShapeFile(stamp: stamp, secret: secret, byteLimit: byteLimit ?? configuration.shapeCacheBytes) else {
            return nil
        }
        try PersistedResultFile.replace(path: path, with: file.bytes)
        return file.entries
    }

    /// A run's key names its font and features by this process's ids: they are translated
    /// through the fonts of the stamp's resolver and the styles still cached, and a run whose
    /// font or feature list has left those caches — or belongs to another resolver's font
    /// (font ids are never reused) — is not saved.
    func persistedShapeFile(stamp: PersistenceStamp, secret: PersistenceSecret, byteLimit: Int) -> (bytes: [UInt8], entries: Int)? {
        let generation = fontGeneration
        guard generation.epoch == stamp.epoch else { return nil }
        let fingerprint = stamp.fingerprint
        var fonts: [Int32: [UInt8]] = [:]
        for font in generation.resolver.loadedFonts() { fonts[Int32(truncatingIfNeeded: font.id)] = font.identity }
        var features: [Int32: [hb_feature_t]] = [:]
        for entry in styles.entries() { features[entry.value.featureID] = entry.value.features }
        var languages: [UInt: String] = [:]
        var records: [(id: PersistedKeyID, value: [UInt8])] = []
        for (key, run) in typesetResources.shapeCache.entries() {
            guard let font = fonts[key.fontID], let list = features[key.features] else { continue }
            let language = languages[key.language] ?? PersistedShapeCoding.languageTag(key.language)
            languages[key.language] = language
            let bytes = PersistedShapeCoding.key(key, font: font, language: language, features: list)
            records.append((secret.keyID(bytes), PersistedShapeCoding.value(run)))
        }
        return Self.encode(records, carrying: persistedShapes, fingerprint: fingerprint, secret: secret, byteLimit: byteLimit)
    }

    /// Only the results measured under the stamp's epoch: one measured across a change of
    /// fonts is cached under the epoch before it.
    func persistedFile(stamp: PersistenceStamp, secret: PersistenceSecret, byteLimit: Int) -> (bytes: [UInt8], entries: Int)? {
        guard fontGeneration.epoch == stamp.epoch else { return nil }
        let fingerprint = stamp.fingerprint
        let records: [(id: PersistedKeyID, value: [UInt8])] = resultCache.entries().compactMap { entry in
            guard entry.value.epoch == stamp.epoch else { return nil }
            return (secret.keyID(PersistedResultCoding.key(entry.key.key)), PersistedResultCoding.value(entry.value.metrics))
        }
        return Self.encode(records, carrying: persistedResults, fingerprint: fingerprint, secret: secret, byteLimit: byteLimit)
    }

    /// `records`, then those of the file read at start (`old`) that still hold: only a file
    /// written for these fonts and rules, and under this secret, may be carried over. Its
    /// keys are hashes already and are carried as they are: under another secret the same
    /// requests hash to other keys, and its records would never be asked for again.
    private static func encode(
        _ records: [(id: PersistedKeyID, value: [UInt8])], carrying old: PersistedResultTable?, fingerprint: UInt64,
        secret: PersistenceSecret, byteLimit: Int
    ) -> (bytes: [UInt8], entries: Int) {
        var records = records
        if let old, old.fingerprint == fingerprint, old.isKeyed(by: secret) {
            old.forEachRecord { id, value in records.append((id, value)) }
        }
        return PersistedResultFile.encode(records: records, fingerprint: fingerprint, secret: secret, byteLimit: byteLimit)
    }
}

/// What a save is stamped with (``TextEngine/persistenceStamp(version:)``).
public struct PersistenceStamp: Sendable, Equatable {
    public let fingerprint: UInt64
    /// The font epoch the fingerprint was taken in (``TextEngine/fontEpoch``).
    let epoch: UInt64
}

extension TextEngine {
    /// A stamp of the current font epoch with a fingerprint of the caller's (tests and
    /// fuzzers, which write files under made-up fingerprints).
    func stamp(fingerprint: UInt64) -> PersistenceStamp {
        PersistenceStamp(fingerprint: fingerprint, epoch: fontEpoch.load(ordering: .sequentiallyConsistent))
    }
}
