#if canImport(Glibc)
import Glibc
#endif

/// What a persisted result depends on besides its request, hashed: the program's version, the
/// engine's settings (default font and language), fontconfig's configuration files and every
/// font file it lists, each by path, size, inode and modification time — the identity
/// fontconfig's own caches check (fc-cache compares directory mtimes; a font replaced in place
/// keeps its directory's). Any change gives another fingerprint, and the file is dropped.
enum CacheFingerprint {
    static func compute(version: String, configuration: TextEngine.Configuration, language: String,
                        preferredLanguages: [String], files: (configuration: [String], fonts: [String])) -> UInt64 {
        var w = PersistedResultCoding.Writer()
        w.u32(PersistedResultFormat.version)
        w.string(version)
        w.string(configuration.defaultFamily)
        w.string(configuration.defaultSize.description)
        w.string(configuration.verticalMetrics.rawValue)
        w.string(language)
        w.u32(UInt32(truncatingIfNeeded: preferredLanguages.count))
        for preferred in preferredLanguages { w.string(preferred) }
        for (kind, list) in [(UInt8(1), files.configuration), (UInt8(2), files.fonts)] {
            w.u8(kind)
            w.u32(UInt32(truncatingIfNeeded: list.count))
            for path in list { identity(path, into: &w) }
        }
        return PersistedResultCoding.hash(w.bytes)
    }

    /// The path and what stat(2) says of it (nothing when it is gone).
    static func identity(_ path: String, into w: inout PersistedResultCoding.Writer) {
        w.string(path)
        var status = stat()
        guard stat(path, &status) == 0 else { return w.u8(0) }
        w.u8(1)
        w.u64(UInt64(truncatingIfNeeded: status.st_size))
        w.u64(UInt64(truncatingIfNeeded: status.st_ino))
        w.u64(UInt64(truncatingIfNeeded: status.st_mtim.tv_sec))
        w.u64(UInt64(truncatingIfNeeded: status.st_mtim.tv_nsec))
    }
}
