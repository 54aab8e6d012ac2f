#if canImport(Glibc)
import Glibc
#endif
import CFontconfig
import CHarfBuzz

/// What a persisted result depends on besides its request, hashed, in two parts:
///
/// - the **font set** (``fontSet(files:)``), taken when an engine's font resolver is made,
///   before anything is measured with it: fontconfig's configuration files, every font file
///   it lists, and every library mapped into the process as code (HarfBuzz, FreeType,
///   fontconfig, ICU, libthai and fitd itself among them), each by path and what stat(2)
///   says of it, with the versions HarfBuzz and fontconfig report;
/// - the **engine** (``compute(version:configuration:language:preferredLanguages:fontSet:)``):
///   the program's version, the engine's settings and languages, and that font-set stamp.
///
/// A file's identity is its size, inode, modification time and change time. The change time
/// is what catches a font rewritten in place with its size and modification time put back
/// (`touch -r`): utimensat(2) cannot set it, any write moves it. fontconfig's own caches
/// check less (directory mtimes, fc-cache). Hashing the fonts' contents was not chosen: a
/// desktop's few thousand fonts are hundreds of megabytes to read at every start.
///
/// Taking the font set before measuring is what keeps a save honest: a font replaced while
/// fitd runs, before it notices, gives results measured with the old file but a stamp of
/// the old file too, which the next start's stamp (of the new file) does not match.
enum CacheFingerprint {
    static func compute(version: String, configuration: TextEngine.Configuration, language: String,
                        preferredLanguages: [String], fontSet: UInt64) -> UInt64 {
        var w = PersistedResultCoding.Writer()
        w.u32(PersistedResultFormat.version)
        w.string(version)
        w.string(configuration.defaultFamily)
        w.string(configuration.defaultSize.description)
        w.string(configuration.verticalMetrics.rawValue)
        w.string(language)
        w.u32(UInt32(truncatingIfNeeded: preferredLanguages.count))
        for preferred in preferredLanguages { w.string(preferred) }
        w.u64(fontSet)
        return PersistedResultCoding.hash(w.bytes)
    }

    /// The stamp of the fonts, configuration and shaping code measurements are made with now.
    /// Stats every font file and mapped library: a few milliseconds for a few thousand fonts.
    static func fontSet(files: (configuration: [String], fonts: [String])) -> UInt64 {
        var w = PersistedResultCoding.Writer()
        for (kind, list) in [(UInt8(1), files.configuration), (UInt8(2), files.fonts), (UInt8(3), mappedCode())] {
            w.u8(kind)
            w.u32(UInt32(truncatingIfNeeded: list.count))
            for path in list { identity(path, into: &w) }
        }
        w.string(hb_version_string().map { String(cString: $0) } ?? "")
        w.u32(UInt32(bitPattern: FcGetVersion()))
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
        w.u64(UInt64(truncatingIfNeeded: status.st_ctim.tv_sec))
        w.u64(UInt64(truncatingIfNeeded: status.st_ctim.tv_nsec))
    }

    /// The files mapped into this process as code (`x` in /proc/self/maps, proc(5)): the
    /// executable and every shared library, preloaded ones too — a library upgraded under the
    /// same soname is another file (another inode, times), and one replaced while mapped is
    /// listed as "… (deleted)". Sorted, each once. Empty when /proc is not mounted.
    static func mappedCode(maps path: String = "/proc/self/maps") -> [String] {
        guard let text = readSmallFile(path, limit: 4 << 20) else { return [] }
        var paths = Set<String>()
        for line in text.split(separator: "\n") {
            // address perms offset dev inode pathname — the pathname may hold spaces.
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[1].contains("x") else { continue }
            let name = fields[5].drop(while: { $0 == " " })
            if name.hasPrefix("/") { paths.insert(String(name)) }
        }
        return paths.sorted()
    }

    /// A file of the kernel's or the process's own, read whole up to `limit` bytes (nil past it).
    private static func readSmallFile(_ path: String, limit: Int) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        guard bytes.count <= limit else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
