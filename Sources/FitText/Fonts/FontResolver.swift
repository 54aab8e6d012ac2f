import CFontconfig
import CHarfBuzz
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Resolves font descriptions to sorted font sets through fontconfig
/// (FcConfigSubstitute → FcDefaultSubstitute → FcFontSort, as Pango's fontmap does) and loads
/// fonts for shaping. Everything is cached: one fontconfig sort costs about 0.35 ms, far more
/// than measuring a label, so it happens once per description and size.
final class FontResolver: Sendable {
    private struct SetKey: Hashable {
        var description: FontDescription
        var pixelSize: Double
        var language: String?
        var rendering: GlyphRendering
    }

    private struct FontKey: Hashable {
        var file: String
        var index: Int
        var pixelSize: Double
        var rendering: GlyphRendering
        /// fontconfig's variations for the face, then the description's (nil: none).
        var faceVariations: String?
        var variations: String?
    }

    private struct FaceKey: Hashable {
        var file: String
        var index: Int
    }

    /// What a prepared pattern says of a face: the same file may carry another family name
    /// for another language (FcFontRenderPrepare picks it), or, by a configuration's rule,
    /// another charset (its address: the entry holds a reference, so it is not reused).
    private struct FaceInfoKey: Hashable {
        var file: String
        var index: Int
        var family: String
        var style: String
        var weight: Double
        var charset: UInt
        var variations: String?
    }

    private static let faceInfoLimit = 16_384

    /// What the resolver's threads share under its mutex: the face table, the candidate set
    /// (made on first use), the font ids. Fonts load under it, so that two callers asking for
    /// the same font at once do not both load it; sets sort outside it (``fontSet(for:pixelSize:language:rendering:)``),
    /// which is safe because the configuration is never reloaded: a change of fonts or
    /// configuration makes a new resolver.
    private struct State: ~Copyable {
        var config: OpaquePointer?
        /// One FontFaceInfo per face as fontconfig prepares it, shared by every set that
        /// lists it: a sort lists some 160 faces with the test fonts, and a set of its own
        /// copies cost 48 of a new size's 50 KB. Keys come from installed fonts, not from
        /// peers; still bounded (emptied past `faceInfoLimit`; sets keep theirs).
        var faceInfos: [FaceInfoKey: FontFaceInfo] = [:]
        var faceInfoBytes = 0
        /// The configuration's fonts in the formats HarfBuzz reads, made on first use: what
        /// sets are sorted from (see ``supportedFonts(_:)``).
        var supported: UnsafeMutablePointer<FcFontSet>?

        deinit {
            if let supported { FcFontSetDestroy(supported) }
            if let config { FcConfigDestroy(config) }
        }
    }

    private let state: Mutex<State>
    /// Font ids for the whole process, never reused by a later resolver: the shaped-run
    /// caches key runs by font id and outlive a resolver (a measurement that started before
    /// a change of fonts stores its runs after it), so a new resolver's font must not take
    /// an old one's id.
    private static let nextFontID = Atomic<Int>(0)
    /// `State.config`, which this resolver never replaces: read without the lock by sorts.
    private nonisolated(unsafe) let config: OpaquePointer
    /// Sets being sorted, by key (see ``fontSet(for:pixelSize:language:rendering:)``).
    private let sorting = Mutex<[SetKey: PendingSort]>([:])
    /// Least recently used first to go, each within its share of the budget (``Budget``).
    /// Eviction drops the cache's reference only: a set or font a measurement still holds
    /// stays valid until that measurement lets go of it (Swift references; HarfBuzz's
    /// hb_font_t holds its own reference to its hb_face_t).
    private let sets: ByteBoundedCache<SetKey, FontSet>
    private let fonts: ByteBoundedCache<FontKey, Font>
    private let faces: ByteBoundedCache<FaceKey, HarfBuzzFace>

    /// How ascent and descent are rounded (see ``VerticalMetricsRounding``).
    let rounding: VerticalMetricsRounding

    /// Whether the configuration may edit a font's charset when fontconfig prepares it for a
    /// request (a `<match target="font">` rule): then each set prepares every font up front
    /// and takes coverage from the prepared charsets (``SortedFonts``).
    let editsCharsets: Bool

    /// Loads the fontconfig configuration (FONTCONFIG_FILE is honoured, as everywhere), or
    /// the one file `configurationFile` names (tests).
    /// `byteLimit` bounds the sets, fonts and faces kept together (split as ``Budget`` says).
    init(rounding: VerticalMetricsRounding, byteLimit: Int = 16 << 20, configurationFile: String? = nil) throws(FitTextError) {
        let loaded: OpaquePointer?
        if let configurationFile {
            loaded = FcConfigCreate()
            if let loaded, FcConfigParseAndLoad(loaded, configurationFile, FcTrue) == FcFalse || FcConfigBuildFonts(loaded) == FcFalse {
                FcConfigDestroy(loaded)
                throw .noFontsAvailable("fontconfig could not load \(configurationFile)")
            }
        } else {
            // Not FcInitLoadConfigAndFonts: see the shim (its template parse can block).
            loaded = fit_fc_load_config_and_fonts()
        }
        guard let config = loaded else {
            throw .noFontsAvailable("fontconfig could not load its configuration")
        }
        self.rounding = rounding
        self.config = config
        editsCharsets = FontResolver.mayEditCharsets(config)
        state = Mutex(State(config: config))
        let budget = Budget(total: byteLimit)
        sets = ByteBoundedCache(name: "font-sets", byteLimit: budget.sets)
        fonts = ByteBoundedCache(name: "fonts", byteLimit: budget.fonts)
        faces = ByteBoundedCache(name: "font-faces", byteLimit: budget.faces)
    }

    /// The configuration, with a reference of the caller's own.
    func referencedConfiguration() -> OpaquePointer? { FcConfigReference(config) }

    /// How the resolver's budget is shared: sets (which own the fonts they loaded, see
    /// ``FontSet/byteCount``) the most, since a distinct size or family makes a new one;
    /// faces the least, since there is one per font file and files do not come from peers.
    struct Budget {
        var sets: Int
        var fonts: Int
        var faces: Int
        init(total: Int) {
            let total = max(0, total)
            faces = total / 8
            fonts = total / 4
            sets = total - faces - fonts
        }
    }

    /// Drops every set, font and face it keeps (an idle daemon gives the memory back); the
    /// fontconfig configuration stays, so the next request loads only what it uses.
    func release() {
        sets.removeAll(keepingCapacity: false)
        fonts.removeAll(keepingCapacity: false)
        faces.removeAll(keepingCapacity: false)
        state.withLock { state in
            state.faceInfos = [:]
            state.faceInfoBytes = 0
        }
    }

    var statistics: [CacheStatistics] {
        let infos = state.withLock { state in
            CacheStatistics(
                name: "face-infos", entries: state.faceInfos.count, bytes: state.faceInfoBytes, byteLimit: 0, hits: 0,
                misses: 0, evictions: 0)
        }
        return [sets.statistics, fonts.statistics, faces.statistics, infos]
    }

    /// The sorted set for a description at a pixel size. `language` (an RFC 3066 tag such as
    /// "und-zsye" for emoji) goes into the pattern as FC_LANG, which ranks fonts that support
    /// it higher, as Pango does for each item's derived language.
    /// `rendering`: the toolkit context the fonts are for (a request's `metrics`): fonts with
    /// rounded positions or hinted metrics are loaded apart (``Font/rendering``).
    func fontSet(for description: FontDescription, pixelSize: Double, language: String? = nil, rendering: GlyphRendering = .unrounded) throws(FitTextError) -> FontSet {
        let key = SetKey(description: description, pixelSize: pixelSize, language: language, rendering: rendering)
        if let set = sets.value(for: key) { return set }
        // One thread sorts a key; others that want it meanwhile wait for its result, and other
        // keys sort at the same time. Sorting under `state` had serialized every new set — on
        // two cores the warm-up of a batch (some 40 sets, 0.35-1 ms each) ran on one, while
        // the other spun in the kernel on the lock (perf: 12 % of fitctl's CPU).
        enum Turn { case cached(FontSet), wait(PendingSort), sort(PendingSort) }
        let turn = sorting.withLock { table -> Turn in
            if let set = sets.peek(key) { return .cached(set) }
            if let pending = table[key] { return .wait(pending) }
            let pending = PendingSort()
            table[key] = pending
            return .sort(pending)
        }
        switch turn {
        case .cached(let set):
            return set
        case .wait(let pending):
            return try pending.wait().get()
        case .sort(let pending):
            let result = Result { () throws(FitTextError) -> FontSet in
                try makeSet(key, description: description, pixelSize: pixelSize, language: language, rendering: rendering)
            }
            // Cached first (makeSet), then no longer pending: a later caller finds one or the other.
            sorting.withLock { $0[key] = nil }
            pending.finish(result)
            return try result.get()
        }
    }

    private func makeSet(
        _ key: SetKey, description: FontDescription, pixelSize: Double, language: String?, rendering: GlyphRendering
    ) throws(FitTextError) -> FontSet {
        // fontconfig is used from several threads at once here, as Pango does (pangofc-fontmap.c
        // sorts in a thread of its own, sort_in_thread, while others match): this resolver's
        // configuration is never reloaded (a change makes a new resolver), and the candidate set
        // is read-only once made.
        let (sorted, request) = try sortedFonts(
            description, pixelSize: pixelSize, language: language, trim: editsCharsets, preparedCharsets: editsCharsets)
        defer { FcPatternDestroy(request) }
        let set = try FontSet(
            description: description, pixelSize: pixelSize, sorted: sorted, request: request,
            describe: { [unowned self] (pattern: OpaquePointer) throws(FitTextError) -> FontFaceInfo in
                try self.face(describedBy: pattern)
            },
            loader: { [unowned self] (face: FontFaceInfo, size: Double) throws(FitTextError) -> Font in
                try self.font(for: face, pixelSize: size, rendering: rendering, variations: description.variations)
            },
            grew: { [unowned self] (set: FontSet) in
                // A set's cost rises as it loads fonts and fills coverage blocks; the entry
                // is updated only while it is still the cached one.
                if self.sets.peek(key) === set { self.sets.insert(set, for: key, bytes: set.byteCount) }
            })
        sets.insert(set, for: key, bytes: set.byteCount)
        return set
    }

    /// fontconfig's sort for a description as a set gets it, trimmed by fontconfig or not
    /// (for tests: a set's ``SortedFonts/listed`` against fontconfig's own trimming).
    func sortedFonts(for description: FontDescription, pixelSize: Double, language: String?, trim: Bool) throws(FitTextError) -> SortedFonts {
        let (sorted, request) = try sortedFonts(description, pixelSize: pixelSize, language: language, trim: trim, preparedCharsets: false)
        FcPatternDestroy(request)
        return sorted
    }

    /// The sort of the fonts Pango would use (``supportedFonts(_:)``) and its request.
    private func sortedFonts(
        _ description: FontDescription, pixelSize: Double, language: String?, trim: Bool, preparedCharsets: Bool
    ) throws(FitTextError) -> (SortedFonts, request: OpaquePointer) {
        let candidates = state.withLock { state in UInt(bitPattern: FontResolver.supportedFonts(&state)) }
        return try FontResolver.sortedFonts(
            config: config, candidates: UnsafeMutablePointer(bitPattern: candidates), description: description,
            pixelSize: pixelSize, language: language, trim: trim, preparedCharsets: preparedCharsets)
    }

    private func font(for face: FontFaceInfo, pixelSize: Double, rendering: GlyphRendering, variations: String?) throws(FitTextError) -> Font {
        let key = FontKey(
            file: face.file, index: face.index, pixelSize: pixelSize, rendering: rendering, faceVariations: face.variations,
            variations: variations)
        if let font = fonts.value(for: key) { return font }
        return try state.withLock { (state: inout State) throws(FitTextError) -> Font in
            if let font = fonts.peek(key) { return font }
            let font = try load(face, pixelSize: pixelSize, rendering: rendering, variations: variations, state: &state)
            fonts.insert(font, for: key, bytes: Font.byteCount)
            return font
        }
    }

    /// Whether any of the configuration's files names "charset" as an attribute value (an
    /// `<edit name="charset">`, or a test of it, which costs only the up-front preparing).
    /// Debian's stock configuration names none. A file that cannot be read counts as one that
    /// does (a directory is not read: its files are listed too). Read 16 KiB at a time: a buffer of a whole file raised glibc's mmap threshold
    /// (freeing a large mmapped block raises it to that block's size), after which the large
    /// texts of a burst of requests came from the heap and their pages stayed in the
    /// daemon's RSS once freed (bad_input_classes).
    static func mayEditCharsets(_ config: OpaquePointer) -> Bool {
        guard let list = FcConfigGetConfigFiles(config) else { return false }
        defer { FcStrListDone(list) }
        while let item = FcStrListNext(list) {
            let path = String(cString: UnsafeRawPointer(item).assumingMemoryBound(to: CChar.self))
            if fileNamesCharset(path) != false { return true }
        }
        return false
    }

    /// Whether the file holds `"charset"` or `'charset'`; nil when it cannot be read. A
    /// directory (fontconfig lists an included conf.d among the files, and each of its files
    /// after it) holds nothing.
    private static func fileNamesCharset(_ path: String) -> Bool? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        if status.st_mode & S_IFMT == S_IFDIR { return false }
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        let word = Array("charset".utf8)
        let keep = word.count + 1  // bytes carried over: the word and its opening quote
        let chunk = 16 << 10
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: keep + chunk) { buffer -> Bool? in
            guard let base = buffer.baseAddress else { return nil }
            var held = 0
            while true {
                let read = fread(base + held, 1, chunk, file)
                let end = held + read
                // The word between two equal quotes, " or '.
                if end >= word.count + 2 {
                    for start in 1...(end - word.count - 1) {
                        let quote = base[start - 1]
                        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"), base[start + word.count] == quote else { continue }
                        if UnsafeBufferPointer(start: base + start, count: word.count).elementsEqual(word) { return true }
                    }
                }
                if read < chunk { return ferror(file) == 0 ? false : nil }
                // The last bytes go to the front: a quoted word may start in them.
                held = min(keep, end)
                base.update(from: base + end - held, count: held)
            }
        }
    }

    /// Names that are aliases by design: fontconfig's configuration maps them to real
    /// families (CSS generic families, fontconfig's and Pango's short forms).
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji", "math", "fangsong",
        "cursive", "fantasy", "ui-sans-serif", "ui-serif", "ui-monospace",
    ]

    // MARK: fontconfig

    /// fontconfig's sorted fonts for a description, to be prepared for it one at a time
    /// (``SortedFonts``), and the request they were sorted for (the caller's to destroy).
    private static func sortedFonts(
        config: OpaquePointer, candidates: UnsafeMutablePointer<FcFontSet>?, description: FontDescription,
        pixelSize: Double, language: String?, trim: Bool, preparedCharsets: Bool
    ) throws(FitTextError) -> (SortedFonts, request: OpaquePointer) {
        let address = UInt(bitPattern: Int(bitPattern: config))
        let makeRequest: @Sendable () -> OpaquePointer? = {
            OpaquePointer(bitPattern: address).flatMap {
                requestPattern(config: $0, description: description, pixelSize: pixelSize, language: language)
            }
        }
        guard let pattern = makeRequest() else { throw .noFontsAvailable("out of memory") }
        var owned: OpaquePointer? = pattern
        defer { if let owned { FcPatternDestroy(owned) } }
        var result = FcResultMatch
        // Sorted from the fonts Pango would use, as Pango sorts (pangofc-fontmap.c
        // sort_in_thread: FcFontSetSort over filter_by_format's set), but untrimmed: the set
        // trims when it must (SortedFonts.listed), and mostly it need not. Trimmed by
        // fontconfig where every font is prepared up front (a configuration that edits
        // charsets).
        var candidates = candidates
        guard let set = FcFontSetSort(config, &candidates, 1, pattern, trim ? FcTrue : FcFalse, nil, &result) else {
            throw .noFontsAvailable("fontconfig matched no font for \"\(description)\"")
        }
        defer { FcFontSetDestroy(set) }
        guard set.pointee.nfont > 0 else {
            throw .noFontsAvailable("fontconfig matched no font for \"\(description)\"")
        }
        let sorted = SortedFonts(
            sorted: set, trimmed: trim, request: pattern, makeRequest: makeRequest, config: config, preparedCharsets: preparedCharsets)
        owned = nil
        return (sorted, pattern)
    }

    /// The request for a description as fontconfig sorts and prepares fonts for it
    /// (FcConfigSubstitute, FcDefaultSubstitute), owned by the caller; nil when out of memory.
    private static func requestPattern(
        config: OpaquePointer, description: FontDescription, pixelSize: Double, language: String?
    ) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        let families = description.families.isEmpty ? ["sans-serif"] : description.families
        for family in families {
            _ = family.withCString { FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        }
        switch description.style {
        case .normal: FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_ROMAN)
        case .italic: FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_ITALIC)
        case .oblique: FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_OBLIQUE)
        }
        FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(Double(description.weight.rawValue)))
        FcPatternAddInteger(pattern, FC_WIDTH, Int32(description.stretch.rawValue))
        // Pango asks with the pixel size, the point size and the resolution (pangofc-fontmap.c).
        FcPatternAddDouble(pattern, FC_PIXEL_SIZE, pixelSize)
        FcPatternAddDouble(pattern, FC_SIZE, pixelSize * 72.0 / 96.0)
        FcPatternAddDouble(pattern, FC_DPI, 96.0)
        // A variable face may match too, at the weight or width asked for: fontconfig then
        // names the coordinates in the prepared pattern's FC_FONT_VARIATIONS
        // (pangofc-fontmap.c, pango_fc_make_pattern). Without it FcDefaultSubstitute asks
        // for static faces only.
        FcPatternAddBool(pattern, FC_VARIABLE, FcBool(FcDontCare))
        if let variations = description.variations {
            _ = variations.withCString { FcPatternAddString(pattern, FC_FONT_VARIATIONS, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        }
        if let language {
            _ = language.withCString { FcPatternAddString(pattern, FC_LANG, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    /// The face a prepared pattern describes, shared with the sets prepared before
    /// (``State/faceInfos``).
    private func face(describedBy pattern: OpaquePointer) throws(FitTextError) -> FontFaceInfo {
        // Passed by address: the lock guards the face table, not the pattern (the caller's).
        let address = UInt(bitPattern: Int(bitPattern: pattern))
        guard let face = state.withLock({ state in
            OpaquePointer(bitPattern: address).flatMap { FontResolver.faceInfo($0, state: &state) }
        }) else {
            throw .noFontsAvailable("a font fontconfig sorted names no file")
        }
        return face
    }

    /// What a prepared pattern says of its face, shared with the sets sorted before
    /// (``State/faceInfos``); nil for a pattern without a file.
    private static func faceInfo(_ prepared: OpaquePointer, state: inout State) -> FontFaceInfo? {
        guard let file = string(prepared, FC_FILE) else { return nil }
        var index: Int32 = 0
        FcPatternGetInteger(prepared, FC_INDEX, 0, &index)
        var weight: Double = 0
        FcPatternGetDouble(prepared, FC_WEIGHT, 0, &weight)
        var charset: OpaquePointer?
        if FcPatternGetCharSet(prepared, FC_CHARSET, 0, &charset) != FcResultMatch { charset = nil }
        let key = FaceInfoKey(
            file: file, index: Int(index), family: string(prepared, FC_FAMILY) ?? "",
            style: string(prepared, FC_STYLE) ?? "", weight: FcWeightToOpenTypeDouble(weight),
            charset: UInt(bitPattern: charset.map { Int(bitPattern: $0) } ?? 0),
            variations: string(prepared, FC_FONT_VARIATIONS))
        if let known = state.faceInfos[key] { return known }
        if state.faceInfos.count >= faceInfoLimit {
            state.faceInfos.removeAll()
            state.faceInfoBytes = 0
        }
        let info = FontFaceInfo(
            file: key.file, index: key.index, family: key.family, style: key.style, weight: key.weight,
            charset: charset.map { FcCharSetCopy($0) } ?? nil, variations: key.variations)
        state.faceInfos[key] = info
        state.faceInfoBytes += info.byteCount
        return info
    }

    /// The configuration's system and application fonts that Pango 1.50 uses
    /// (pangofc-fontmap.c, filter_by_format and pango_fc_is_supported_font_format): SFNT
    /// fonts — FC_FONTFORMAT "TrueType" or "CFF" — and not .woff/.woff2 files. A Type 1 font
    /// (fonts-urw-base35's .pfb, fonts-freefont's Type 1 files) is never in a Pango fontset:
    /// before this, it could be chosen for a character only it covers (U+F8FF: Standard
    /// Symbols PS) and then failed to load, failing the whole measurement.
    private static func supportedFonts(_ state: inout State) -> UnsafeMutablePointer<FcFontSet>? {
        if let supported = state.supported { return supported }
        guard let filtered = FcFontSetCreate() else { return nil }
        for which in [FcSetSystem, FcSetApplication] {
            guard let fonts = FcConfigGetFonts(state.config, which) else { continue }
            for i in 0..<Int(fonts.pointee.nfont) {
                guard let font = fonts.pointee.fonts[i], isSupportedFormat(font) else { continue }
                FcPatternReference(font)
                if FcFontSetAdd(filtered, font) == FcFalse { FcPatternDestroy(font) }
            }
        }
        state.supported = filtered
        return filtered
    }

    /// The fonts loaded and kept, for a save that names fonts by their ``Font/identity``.
    func loadedFonts() -> [Font] { fonts.entries().map(\.value) }

    /// The files the configuration was read from (FcConfigGetConfigFiles) and the font files
    /// it lists, each once, sorted: what a persisted result depends on (CacheFingerprint).
    func sourceFiles() -> (configuration: [String], fonts: [String]) {
        state.withLock { state in
            var configuration: [String] = []
            if let list = FcConfigGetConfigFiles(state.config) {
                defer { FcStrListDone(list) }
                while let item = FcStrListNext(list) {
                    configuration.append(String(cString: UnsafeRawPointer(item).assumingMemoryBound(to: CChar.self)))
                }
            }
            var fonts = Set<String>()
            for which in [FcSetSystem, FcSetApplication] {
                guard let set = FcConfigGetFonts(state.config, which) else { continue }
                for i in 0..<Int(set.pointee.nfont) {
                    if let font = set.pointee.fonts[i], let file = Self.string(font, FC_FILE) { fonts.insert(file) }
                }
            }
            return (configuration.sorted(), fonts.sorted())
        }
    }

    static func isSupportedFormat(_ pattern: OpaquePointer) -> Bool {
        if let file = string(pattern, FC_FILE), file.hasSuffix(".woff") || file.hasSuffix(".woff2") { return false }
        guard let format = string(pattern, FC_FONTFORMAT) else { return false }
        let lowered = format.lowercased()
        return lowered == "truetype" || lowered == "cff"
    }

    private static func string(_ pattern: OpaquePointer, _ object: String) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
    }

    // MARK: loading

    private func load(
        _ face: FontFaceInfo, pixelSize: Double, rendering: GlyphRendering, variations: String?, state: inout State
    ) throws(FitTextError) -> Font {
        let faceKey = FaceKey(file: face.file, index: face.index)
        // Held to the end of this function: the cache may not keep it (a budget of 0).
        let holder: HarfBuzzFace
        if let cached = faces.value(for: faceKey) {
            holder = cached
        } else {
            guard let blob = hb_blob_create_from_file_or_fail(face.file) else {
                throw .fontLoadFailed(file: face.file, reason: "cannot read the file")
            }
            defer { hb_blob_destroy(blob) }
            guard let created = hb_face_create(blob, UInt32(face.index & 0xFFFF)) else {
                throw .fontLoadFailed(file: face.file, reason: "out of memory")
            }
            let owned = HarfBuzzFace(created)
            guard hb_face_get_glyph_count(created) > 0 else {
                throw .fontLoadFailed(file: face.file, reason: "not a font HarfBuzz can read")
            }
            faces.insert(owned, for: faceKey, bytes: HarfBuzzFace.byteCount)
            holder = owned
        }
        let hbFace = holder.face
        // hb_font_create takes its own reference to the face (hb-font.cc): the font stays
        // valid after the face cache lets go of it.
        guard let hbFont = hb_font_create(hbFace) else {
            throw .fontLoadFailed(file: face.file, reason: "out of memory")
        }
        // Pango's scale: the pixel size in Pango units, an integer (pangofc-fontmap.c
        // get_scaled_size; pangofc-font.c hb_font_set_scale). Advances then come out in Pango
        // units, rounded per glyph by HarfBuzz exactly as Pango's are.
        let scale = Int32((pixelSize * Font.unitsPerPixel).rounded())
        hb_font_set_scale(hbFont, scale, scale)
        hb_font_set_ptem(hbFont, Float(pixelSize * 72.0 / 96.0))
        // The named instance, fontconfig's variations, the description's (PANGO_RULES.md §13).
        FontVariations.apply(
            to: hbFont, face: hbFace, index: face.index, lists: [face.variations, variations].compactMap { $0 })
        hb_font_make_immutable(hbFont)

        // Logical ascent and descent: HarfBuzz's h-extents at that scale (hhea, or OS/2 typo
        // metrics with USE_TYPO_METRICS; no line gap), which is what PangoCairo reports
        // (pangocairo-font.c, _pango_cairo_font_private_glyph_extents_cache_init).
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(hbFont, &extents)
        var ascent = Double(extents.ascender) / Font.unitsPerPixel
        var descent = Double(-extents.descender) / Font.unitsPerPixel
        if rounding == .wholePixels || rendering.hintsMetrics {
            // Hinted metrics (cairo hint metrics on, GTK 3): whole pixels, rounded outwards
            // (pangocairo-font.c _pango_cairo_font_private_glyph_extents_cache_init: y FLOOR,
            // height CEIL(ascender) − FLOOR(descender)).
            ascent = ascent.rounded(.up)
            descent = descent.rounded(.up)
        }
        return Font(
            id: Self.nextFontID.wrappingAdd(1, ordering: .relaxed).newValue, face: face, pixelSize: pixelSize,
            ascent: ascent, descent: descent, hbFont: hbFont, rendering: rendering, variations: variations)
    }
}

/// A font set being sorted, for the threads that want the same set meanwhile: they sleep on
/// `gate` until the sorting thread has its result. A plain pthread mutex, locked by the sorter
/// from creation to ``finish(_:)``: glibc's default mutex sleeps in futex(2) at once, where
/// Synchronization.Mutex (a priority-inheritance futex) spins in the kernel for as long as
/// its holder runs.
private final class PendingSort: @unchecked Sendable {
    private let gate: UnsafeMutablePointer<pthread_mutex_t>
    /// Written by the sorter before it unlocks `gate`, read by waiters after they lock it.
    private var result: Result<FontSet, FitTextError>?

    /// Made by the thread that sorts, which holds the gate until ``finish(_:)``.
    init() {
        gate = .allocate(capacity: 1)
        gate.initialize(to: pthread_mutex_t())
        pthread_mutex_init(gate, nil)
        pthread_mutex_lock(gate)
    }

    deinit {
        pthread_mutex_destroy(gate)
        gate.deinitialize(count: 1)
        gate.deallocate()
    }

    /// The sorter's result; called once, on the thread that made this.
    func finish(_ result: Result<FontSet, FitTextError>) {
        self.result = result
        pthread_mutex_unlock(gate)
    }

    /// Waits for the sorter's result.
    func wait() -> Result<FontSet, FitTextError> {
        pthread_mutex_lock(gate)
        defer { pthread_mutex_unlock(gate) }
        return result ?? .failure(.noFontsAvailable("a font set's sort ended without a result"))
    }
}
