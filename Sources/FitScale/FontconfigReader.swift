import CFontconfig
import Dispatch

/// What a freshly loaded fontconfig configuration says about text size and UI fonts, and
/// which files and directories it was built from (so they can be watched).
public struct FontconfigSnapshot: Hashable, Sendable {
    /// `dpi` the configuration assigns to a pattern, nil when it assigns none.
    public var dpi: Double?
    /// `scale` the configuration assigns to a pattern, nil when it assigns none.
    public var scale: Double?
    /// Best match for `system-ui` (else `sans-serif`): family and size.
    public var uiFont: UIFont?
    /// Best match for `monospace`.
    public var monospaceFont: UIFont?
    /// Configuration files fontconfig loaded (FcConfigGetConfigFiles).
    public var configFiles: [String]
    /// Configuration directories (FcConfigGetConfigDirs: `<include>`d directories).
    public var configDirectories: [String]
    /// Font directories (FcConfigGetFontDirs).
    public var fontDirectories: [String]

    /// The text scale the configuration implies: dpi / 96 × scale, nil when it sets neither.
    /// (96 dpi is the CSS reference resolution fitd measures at; a `dpi` of 120 is 1.25.)
    public var textScaleFactor: Double? {
        if dpi == nil && scale == nil { return nil }
        return (dpi ?? 96) / 96 * (scale ?? 1)
    }
}

/// Reads fontconfig's view of the text scale through a probe pattern, the way Pango and Xft
/// see it (FcConfigSubstitute), not by parsing XML: a configuration may set `dpi` in any
/// included file, conditionally, or through `<edit mode="assign">` on any match.
///
/// Every read loads the configuration afresh, so a file the user wrote since the last read
/// counts (fontconfig's own FcConfigGetCurrent would keep the old one until
/// FcConfigBringUptoDate, which does not notice new files in a missing directory).
public struct FontconfigReader: Sendable {
    /// fontconfig's loading is slow for a cold cache (it scans font directories) and
    /// blocking, so it runs off Swift's cooperative pool on this queue. One queue for the
    /// process: fontconfig keeps process-wide state (its default config, caches).
    private static let queue = DispatchQueue(label: "fitd.FitScale.fontconfig")

    /// The configuration file to load; nil = fontconfig's default (FcInitLoadConfigAndFonts).
    public var configFile: String?

    public init(configFile: String? = nil) {
        self.configFile = configFile
    }

    /// Loads the configuration and reads it, on fontconfig's queue.
    public func read() async throws(FitScaleError) -> FontconfigSnapshot {
        let file = configFile
        return try await FontconfigReader.onQueue { () throws(FitScaleError) in try FontconfigReader.readNow(configFile: file) }.get()
    }

    /// Reads a configuration this process loaded a moment before from the same files — the
    /// text engine's, as `fitctl --local` starts (loading it twice was a quarter of a
    /// one-string run's instructions: FcInitLoadConfigAndFonts parses every XML file) —
    /// on fontconfig's queue. Takes over one reference to `config` (FcConfigReference'd by
    /// the caller) and drops it.
    public func read(loaded config: OpaquePointer) async -> FontconfigSnapshot {
        let handed = Handed(config: config)
        return await FontconfigReader.onQueue { () -> FontconfigSnapshot in
            defer { FcConfigDestroy(handed.config) }
            return FontconfigReader.snapshot(of: handed.config)
        }.get()
    }

    /// A configuration's reference handed to fontconfig's queue, used and dropped there
    /// alone (fontconfig reads a loaded configuration from any thread).
    private struct Handed: @unchecked Sendable { let config: OpaquePointer }

    /// Runs `body` on fontconfig's queue and waits for its outcome.
    private static func onQueue<T: Sendable, E: Error>(
        _ body: @escaping @Sendable () throws(E) -> T
    ) async -> Result<T, E> {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(E) in try body() }) }
        }
    }

    /// Loads and reads synchronously (blocking; for tools and tests, not the daemon's pool).
    public static func readNow(configFile: String?) throws(FitScaleError) -> FontconfigSnapshot {
        let config = try loadConfig(configFile)
        // We created this config (refcount 1), so we destroy it.
        defer { FcConfigDestroy(config) }
        return snapshot(of: config)
    }

    /// What a loaded configuration says.
    private static func snapshot(of config: OpaquePointer) -> FontconfigSnapshot {
        let (dpi, scale) = probeScale(config)
        return FontconfigSnapshot(
            dpi: dpi, scale: scale,
            uiFont: match(config, families: ["system-ui", "sans-serif"]),
            monospaceFont: match(config, families: ["monospace"]),
            configFiles: strings(FcConfigGetConfigFiles(config)),
            configDirectories: strings(FcConfigGetConfigDirs(config)),
            fontDirectories: strings(FcConfigGetFontDirs(config)))
    }

    private static func loadConfig(_ file: String?) throws(FitScaleError) -> OpaquePointer {
        guard let file else {
            // As the text engine loads it (CFontconfig's shim says why not FcInitLoadConfigAndFonts).
            guard let config = fit_fc_load_config_and_fonts() else {
                throw .fontconfigUnavailable("fontconfig could not load its configuration (check FONTCONFIG_FILE and /etc/fonts/fonts.conf)")
            }
            return config
        }
        guard let config = FcConfigCreate() else { throw .fontconfigUnavailable("FcConfigCreate failed (out of memory)") }
        guard FcConfigParseAndLoad(config, file, FcTrue) == FcTrue else {
            FcConfigDestroy(config)
            throw .fontconfigUnavailable("cannot parse \(file) (FcConfigParseAndLoad)")
        }
        guard FcConfigBuildFonts(config) == FcTrue else {
            FcConfigDestroy(config)
            throw .fontconfigUnavailable("cannot build the font set of \(file) (FcConfigBuildFonts)")
        }
        return config
    }

    /// FcConfigSubstitute on a `sans-serif` pattern, then FC_DPI / FC_SCALE. Read BEFORE
    /// FcDefaultSubstitute: that fills in dpi 75 and scale 1 when the configuration set
    /// nothing, and "not set" must fall through to the desktop's setting.
    private static func probeScale(_ config: OpaquePointer) -> (dpi: Double?, scale: Double?) {
        guard let pattern = FcPatternCreate() else { return (nil, nil) }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FAMILY, "sans-serif")
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        return (positiveDouble(pattern, FC_DPI), positiveDouble(pattern, FC_SCALE))
    }

    private static func positiveDouble(_ pattern: OpaquePointer, _ object: String) -> Double? {
        var value = 0.0
        guard FcPatternGetDouble(pattern, object, 0, &value) == FcResultMatch, value.isFinite, value > 0 else { return nil }
        return value
    }

    /// The family and size fontconfig picks for the first of `families` that matches the
    /// family asked for through an alias (system-ui is missing from older configurations).
    private static func match(_ config: OpaquePointer, families: [String]) -> UIFont? {
        var fallback: UIFont?
        for family in families {
            guard let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            FcPatternAddString(pattern, FC_FAMILY, family)
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            // Whether the configuration knows this generic name: an alias adds families.
            var second: UnsafeMutablePointer<FcChar8>?
            let aliased = FcPatternGetString(pattern, FC_FAMILY, 1, &second) == FcResultMatch
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let matched = FcFontMatch(config, pattern, &result) else { continue }
            defer { FcPatternDestroy(matched) }
            var name: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(matched, FC_FAMILY, 0, &name) == FcResultMatch, let name else { continue }
            var size = 0.0
            if FcPatternGetDouble(matched, FC_SIZE, 0, &size) != FcResultMatch || !(size > 0) || !size.isFinite {
                size = UIFont.fallbackPointSize
            }
            let font = UIFont(family: String(cString: name), pointSize: size, source: .fontconfig)
            if aliased { return font }
            if fallback == nil { fallback = font }
        }
        return fallback
    }

    /// Drains and frees an FcStrList (the list is ours; its strings belong to the config).
    private static func strings(_ list: OpaquePointer?) -> [String] {
        guard let list else { return [] }
        defer { FcStrListDone(list) }
        var out: [String] = []
        while let item = FcStrListNext(list) { out.append(String(cString: item)) }
        return out
    }
}
