/// The result cache across restarts (issue 14, "a warm start"; docs/caching.md): a daemon
/// saves what it measured, and the next one maps the file and answers those requests from it
/// as from its own cache.
extension TextEngine {
    /// The fingerprint a persisted file must carry to be used with this engine: `version`
    /// (the program's), the engine's settings, fontconfig's configuration files and the font
    /// files' identities (``CacheFingerprint``). It stats every font file: a few milliseconds
    /// for a few thousand fonts.
    public func persistenceFingerprint(version: String) -> UInt64 {
        CacheFingerprint.compute(
            version: version, configuration: configuration, language: language,
            preferredLanguages: contextPreferredLanguages, files: resolver.sourceFiles())
    }

    /// Starts answering from `table` (nil: stops). Its fingerprint is the caller's to check
    /// (``PersistedResultTable/open(path:fingerprint:)`` does).
    public func attachPersistedResults(_ table: PersistedResultTable?) {
        persisted.withLock { $0 = table }
    }

    public var persistedResults: PersistedResultTable? { persisted.withLock { $0 } }

    /// Results measured so far (cache misses), for a caller that saves only what is new.
    public var measuredResultCount: UInt64 { measuredResults.load(ordering: .relaxed) }

    /// The persisted result of `key`, kept in the result cache from now on.
    func persistedMeasurement(_ key: Prehashed<MeasureRequest>) -> TextMetrics? {
        guard let table = persisted.withLock({ $0 }), let metrics = table.metrics(for: key.key) else { return nil }
        resultCache.insert(metrics, for: key, bytes: Self.resultBytes(key, metrics))
        return metrics
    }

    /// Writes the result cache — the most recently used first — and then what the mapped
    /// file holds that the cache does not, to `path`, at most `byteLimit` bytes (the result
    /// cache's own budget when nil). Returns the entries written.
    @discardableResult
    public func savePersistedResults(to path: String, fingerprint: UInt64, byteLimit: Int? = nil) throws(PersistedResultsError) -> Int {
        let file = persistedFile(fingerprint: fingerprint, byteLimit: byteLimit ?? configuration.resultCacheBytes)
        try PersistedResultFile.replace(path: path, with: file.bytes)
        return file.entries
    }

    func persistedFile(fingerprint: UInt64, byteLimit: Int) -> (bytes: [UInt8], entries: Int) {
        var records: [(key: [UInt8], value: [UInt8])] = resultCache.entries().map { entry in
            (PersistedResultCoding.key(entry.key.key), PersistedResultCoding.value(entry.value))
        }
        // Only a file written for these fonts and rules may be carried over.
        if let table = persisted.withLock({ $0 }), table.fingerprint == fingerprint {
            table.forEachRecord { key, value in records.append((Array(key), Array(value))) }
        }
        return PersistedResultFile.encode(records: records, fingerprint: fingerprint, byteLimit: byteLimit)
    }
}
