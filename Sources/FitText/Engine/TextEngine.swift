import CHarfBuzz
import Synchronization

/// The text engine: measures text the way GTK 4 (Pango 1.50) does, in pixels, or in terminal
/// cells. Safe to share between threads; every cache is shared by all callers.
///
/// Pipeline (docs/architecture.md): FontDescription → FontResolver (fontconfig) →
/// TextAnalyzer (ICU) → ParagraphShaper (itemize, HarfBuzz) → LineBreaker / Ellipsizer →
/// TextMetrics.
public final class TextEngine: Sendable {
    public struct Configuration: Sendable {
        /// Used for a description without a family, and for an empty description.
        public var defaultFamily: String = "sans-serif"
        /// Used for a description without a size.
        public var defaultSize: FontSize = .points(12)
        /// The context language (BCP 47, e.g. "en-us"); it picks fallback fonts per script as
        /// Pango does. nil: Pango's default, from LC_ALL / LC_CTYPE / LANG ("c" for C, POSIX
        /// and locales not installed). A request's `language` overrides it.
        public var language: String? = nil
        /// Pango's preferred languages, which pick the language of a script the context
        /// language does not include. nil: from PANGO_LANGUAGE or LANGUAGE, as Pango reads them.
        public var preferredLanguages: [String]? = nil
        public var verticalMetrics: VerticalMetricsRounding = .none
        /// Budgets of the byte-bounded caches.
        public var shapeCacheBytes = 32 << 20
        public var resultCacheBytes = 32 << 20
        /// Paragraphs analysed and shaped, measured again at other widths (``CachedParagraph``).
        public var paragraphCacheBytes = 8 << 20
        /// Font sets, loaded fonts and HarfBuzz faces (FontResolver.Budget splits it): a
        /// distinct size costs a set and its font, about 7 KB by mallinfo2 with the test fonts
        /// (FontCacheTests.measuredCost).
        public var fontCacheBytes = 16 << 20
        /// Resolved styles (font, scale and features of a request), each holding its base set.
        public var styleCacheBytes = 4 << 20
        /// Parsed font descriptions and feature lists, by the text peers send.
        public var descriptionCacheBytes = 1 << 20
        /// Stamp every font resolver with the identity of the fonts, configuration and
        /// libraries it measures with (``CacheFingerprint/fontSet(files:)``) when it is made:
        /// what a persisted file is stamped with. A few milliseconds per resolver with a
        /// desktop's fonts, so only for an engine whose results are saved (fitd's); without
        /// it, ``persistenceFingerprint(version:)`` stamps the fonts as they are when asked.
        public var stampsFontSet = false

        /// Shares `total` bytes out among the caches in the proportions of the defaults
        /// (results 32, shaped runs 32, paragraphs 8, fonts 16, styles 4, descriptions and
        /// features 1 — of 93).
        public mutating func divide(total: Int) {
            let total = max(0, total)
            func share(_ parts: Int) -> Int { Int((Int64(total) * Int64(parts)) / 93) }
            resultCacheBytes = share(32)
            shapeCacheBytes = share(32)
            paragraphCacheBytes = share(8)
            fontCacheBytes = share(16)
            styleCacheBytes = share(4)
            descriptionCacheBytes = share(1)
        }

        public init() {}
    }

    public let configuration: Configuration
    let language: String
    private let preferredLanguages: [String]
    /// Contexts by canonical language: the default's, and those requests name (bounded:
    /// languages come from peers).
    private let languageContexts: Mutex<[String: LanguageContext]>
    private static let maxLanguageContexts = 64
    /// The resolver measurements use, with what it was made from; replaced as a whole.
    private let fonts: Mutex<FontGeneration>
    /// `fonts.epoch`, readable without the lock: every result is cached with the epoch read
    /// before its measurement started, and only an entry of the current epoch is served.
    let fontEpoch = Atomic<UInt64>(0)

    /// A font resolver and what its results are tied to.
    struct FontGeneration {
        var resolver: FontResolver
        /// Counts resolvers: bumped when ``invalidateCaches()`` replaces one.
        var epoch: UInt64
        /// ``CacheFingerprint/fontSet(files:)`` as the resolver was made (``Configuration/stampsFontSet``).
        var fontSet: UInt64?
    }
    private let analyzer = TextAnalyzer()
    private let shapeCache: ByteBoundedCache<ShapeKey, ShapedRun>
    let resultCache: ByteBoundedCache<Prehashed<MeasureRequest>, EpochMetrics>
    /// Results a daemon measured before it restarted, read from disk (TextEngine+Persistence):
    /// consulted on a miss of `resultCache`, never written.
    let persisted = Mutex<PersistedResultTable?>(nil)
    /// Results measured (not found in a cache) so far: a save with none new since the last
    /// has nothing to write.
    let measuredResults = Atomic<UInt64>(0)
    private let paragraphCache: ByteBoundedCache<Prehashed<CachedParagraph.Key>, CachedParagraph>
    /// One-letter widths for the hyphen at a line's end (HyphenReshaper); a 32nd of the
    /// shaped-run budget, which keeps the rest.
    private let clusterWidths: ByteBoundedCache<ClusterWidthKey, Double>
    let typesetResources: PixelTypesetter.Resources
    /// Bounded like every other cache: descriptions, styles and feature lists come from peers.
    private let descriptions: ByteBoundedCache<String, FontDescription>
    let styles: ByteBoundedCache<StyleKey, ResolvedStyle>
    private let featureTable: FeatureTable
    let lastStyleID = Atomic<Int>(0)

    /// A cached result and the font epoch it was measured under.
    struct EpochMetrics: Sendable {
        var metrics: TextMetrics
        var epoch: UInt64
    }

    struct StyleKey: Hashable {
        var font: String
        var textScale: Double
        var features: [String]
        var breaksLigatures: Bool
        /// The request's language as sent (nil: the engine's).
        var language: String?
        var metrics: ToolkitProfile
    }

    public init(configuration: Configuration = Configuration()) throws(FitTextError) {
        self.configuration = configuration
        let language = configuration.language.map(LanguageTable.canonical) ?? LanguageTable.defaultLanguage()
        let preferred = configuration.preferredLanguages?.map(LanguageTable.canonical) ?? LanguageTable.preferredLanguages()
        self.language = language
        self.preferredLanguages = preferred
        languageContexts = Mutex([language: LanguageContext(language, preferred: preferred)])
        let resolver = try FontResolver(rounding: configuration.verticalMetrics, byteLimit: configuration.fontCacheBytes)
        fonts = Mutex(FontGeneration(
            resolver: resolver, epoch: 0,
            fontSet: configuration.stampsFontSet ? CacheFingerprint.fontSet(files: resolver.sourceFiles()) : nil))
        descriptions = ByteBoundedCache(name: "descriptions", byteLimit: configuration.descriptionCacheBytes / 2)
        featureTable = FeatureTable(byteLimit: configuration.descriptionCacheBytes / 2)
        styles = ByteBoundedCache(name: "styles", byteLimit: configuration.styleCacheBytes)
        let clusterWidthBytes = configuration.shapeCacheBytes / 32
        shapeCache = ByteBoundedCache(
            name: "shaped-runs", byteLimit: configuration.shapeCacheBytes - clusterWidthBytes, shardHint: { $0.shardHint })
        clusterWidths = ByteBoundedCache(name: "cluster-widths", byteLimit: clusterWidthBytes)
        resultCache = ByteBoundedCache(name: "results", byteLimit: configuration.resultCacheBytes, shardHint: { $0.storedHash })
        paragraphCache = ByteBoundedCache(name: "paragraphs", byteLimit: configuration.paragraphCacheBytes, shardHint: { $0.storedHash })
        typesetResources = PixelTypesetter.Resources(
            shapeCache: shapeCache, paragraphCache: paragraphCache, clusterWidths: clusterWidths, analyzer: analyzer)
    }

    var resolver: FontResolver { fonts.withLock { $0.resolver } }

    /// The resolver's epoch and font-set stamp, read together.
    var fontGeneration: FontGeneration { fonts.withLock { $0 } }

    /// The fontconfig configuration the engine's fonts come from, with a reference of the
    /// caller's own (FcConfigDestroy it), for reading it without loading it again
    /// (FitScale's FontconfigReader).
    public func referencedFontconfigConfiguration() -> OpaquePointer? { resolver.referencedConfiguration() }

    public var cacheStatistics: [CacheStatistics] {
        var all = [resultCache.statistics, shapeCache.statistics, paragraphCache.statistics, clusterWidths.statistics] + resolver.statistics
        all += [styles.statistics, descriptions.statistics, featureTable.statistics]
        // The files a previous daemon saved, when read (a warm start).
        let files: [PersistedResultTable?] = [persisted.withLock { $0 }, typesetResources.persistedShapes.table.withLock { $0 }]
        all += files.compactMap { $0?.statistics }
        return all
    }

    public func invalidateCaches() {
        // A new resolver re-reads the fontconfig configuration: new fonts, new rules. It gets
        // a new epoch even when it cannot be made: what the caches hold was measured under
        // fonts that changed. The epoch is published after the swap, so a measurement that
        // reads the new epoch reads the new resolver after it; one that straddles the change
        // caches its result under the old epoch, where it is never served.
        let fresh = try? FontResolver(rounding: configuration.verticalMetrics, byteLimit: configuration.fontCacheBytes)
        let fontSet = configuration.stampsFontSet ? fresh.map { CacheFingerprint.fontSet(files: $0.sourceFiles()) } : nil
        let epoch = fonts.withLock { generation in
            if let fresh { generation.resolver = fresh }
            generation.epoch += 1
            generation.fontSet = fontSet
            return generation.epoch
        }
        fontEpoch.store(epoch, ordering: .sequentiallyConsistent)
        // Measured and shaped with the fonts and rules that just changed.
        persisted.withLock { $0 = nil }
        typesetResources.persistedShapes.table.withLock { $0 = nil }
        descriptions.removeAll()
        styles.removeAll()
        shapeCache.removeAll()
        clusterWidths.removeAll()
        paragraphCache.removeAll()
        resultCache.removeAll()
    }

    /// Drops everything cached — results, shaping, styles, descriptions, fonts — and the
    /// memory of the caches' tables, keeping only the fontconfig configuration: what a daemon
    /// does once it has been idle a while (fitd's idle_release_seconds), so that its memory
    /// goes back to what it took at start. Measurements in flight keep what they hold.
    public func releaseCaches() {
        resultCache.removeAll(keepingCapacity: false)
        shapeCache.removeAll(keepingCapacity: false)
        clusterWidths.removeAll(keepingCapacity: false)
        paragraphCache.removeAll(keepingCapacity: false)
        styles.removeAll(keepingCapacity: false)
        descriptions.removeAll(keepingCapacity: false)
        featureTable.release()
        resolver.release()
    }

    /// Drops cached shaping (runs, words, paragraphs) and results but keeps fonts loaded: the
    /// state of an engine that has never seen these strings (what "uncached" means in
    /// benchmarks and in Pango, whose font caches also stay warm).
    public func removeCachedMeasurements() {
        shapeCache.removeAll()
        clusterWidths.removeAll()
        paragraphCache.removeAll()
        resultCache.removeAll()
    }

    /// Drops cached results only: shaped runs and paragraphs stay, as when known text is
    /// measured again at another width or in new combinations (what benchmarks call "warm
    /// shaping").
    public func removeCachedResults() {
        resultCache.removeAll()
    }

    // MARK: measuring

    /// The cached result of a request, or nil — never measures. For callers that must not do
    /// work where they are (the daemon answers cached requests on its bus thread).
    public func cachedMeasurement(_ request: MeasureRequest) -> TextMetrics? {
        guard (try? request.validate()) != nil else { return nil }
        let key = Prehashed(request)
        let epoch = fontEpoch.load(ordering: .sequentiallyConsistent)
        return current(resultCache.peek(key), epoch: epoch) ?? persistedMeasurement(key, epoch: epoch)
    }

    /// A cached result when it was measured under the current fonts.
    @inline(__always) func current(_ cached: EpochMetrics?, epoch: UInt64) -> TextMetrics? {
        guard let cached, cached.epoch == epoch else { return nil }
        return cached.metrics
    }

    public func measure(_ request: MeasureRequest) throws(FitTextError) -> TextMetrics {
        try request.validate()
        let key = Prehashed(request)
        // Read before anything is measured: see invalidateCaches().
        let epoch = fontEpoch.load(ordering: .sequentiallyConsistent)
        if let cached = current(resultCache.value(for: key), epoch: epoch) ?? persistedMeasurement(key, epoch: epoch) {
            return cached
        }
        let metrics: TextMetrics
        switch request.unit {
        case .px: metrics = try measurePixels(request)
        case .cells:
            var plain = request
            if request.markup {
                plain.text = try MarkupParser.parse(request.text).text
                plain.markup = false
            }
            metrics = try CellTypesetter.measure(plain, analyzer: analyzer)
        }
        resultCache.insert(EpochMetrics(metrics: metrics, epoch: epoch), for: key, bytes: Self.resultBytes(key, metrics))
        measuredResults.add(1, ordering: .relaxed)
        return metrics
    }

    static func resultBytes(_ key: Prehashed<MeasureRequest>, _ metrics: TextMetrics) -> Int {
        metrics.byteCount + key.key.text.utf8.count + 160
    }

    func description(for text: String) throws(FitTextError) -> FontDescription {
        if let cached = descriptions.value(for: text) { return cached }
        var description = try FontDescription.parse(text)
        if description.families.isEmpty { description.families = [configuration.defaultFamily] }
        if description.size == nil { description.size = configuration.defaultSize }
        let parsed = description
        descriptions.insert(parsed, for: text, bytes: Self.descriptionBytes(text, parsed))
        return parsed
    }

    private static func styleBytes(_ key: StyleKey, _ style: ResolvedStyle) -> Int {
        2 * key.font.utf8.count + key.features.reduce(0) { $0 + 32 + $1.utf8.count } + (key.language?.utf8.count ?? 0)
            + style.byteCount
    }

    /// The key's text, its entry, and the parsed families and features (strings with their
    /// 32-byte headers when they do not fit inline).
    static func descriptionBytes(_ text: String, _ description: FontDescription) -> Int {
        128 + text.utf8.count + description.families.reduce(0) { $0 + 32 + $1.utf8.count }
            + description.variant.features.reduce(0) { $0 + 32 + $1.utf8.count }
    }

    func pixelSize(of description: FontDescription, textScale: Double) throws(FitTextError) -> Double {
        let pixels = description.pixelSize(defaultSize: configuration.defaultSize, textScale: textScale)
        guard pixels.isFinite, pixels > 0 else {
            throw .invalidFontSize(pixels, reason: "the size must be a positive number")
        }
        guard pixels <= TextLimits.maxPixelSize else {
            throw .invalidFontSize(pixels, reason: "\(pixels) px is above the limit of \(Int(TextLimits.maxPixelSize)) px (TextLimits.maxPixelSize)")
        }
        // Pango keeps the pixel size as a whole number of Pango units (pangofc-fontmap.c).
        return (pixels * Font.unitsPerPixel).rounded() / Font.unitsPerPixel
    }

    /// The request measured as ``measure(_:)`` measures it, with the glyphs of every line
    /// (for pictures of the text: FitRender). Not cached; pixels only.
    public func positionedGlyphs(_ request: MeasureRequest) throws(FitTextError) -> PositionedGlyphs {
        try request.validate()
        guard request.unit == .px else {
            throw .invalidArgument(name: "unit", reason: "glyphs are laid out in px, not cells")
        }
        let sink = GlyphSink()
        let metrics = try measurePixels(request, sink: sink)
        return PositionedGlyphs(metrics: metrics, lines: sink.lines)
    }

    private func measurePixels(_ request: MeasureRequest, sink: GlyphSink? = nil) throws(FitTextError) -> TextMetrics {
        if request.markup { return try measureMarkup(request, sink: sink) }
        let style = try style(for: request)
        let variant = style.description.variant
        if variant != .normal, !request.text.isEmpty,
            try !SmallCaps.supported(variant, style: style, text: Substring(request.text).unicodeScalars, context: style.language)
        {
            // A variant the font lacks ("Sans Small-Caps 10"): emulated as for markup.
            let whole = MarkupParser.Result(text: request.text, runs: [.init(utf16: 0..<request.text.utf16.count, style: MarkupStyle())])
            return try measureMarkup(request, parsed: whole, sink: sink)
        }
        var typesetter = PixelTypesetter(request: request, style: style, resources: typesetResources)
        typesetter.glyphSink = sink
        return try typesetter.run()
    }

    /// The request's font, size and features resolved (see ``ResolvedStyle``), from the cache.
    func style(for request: MeasureRequest) throws(FitTextError) -> ResolvedStyle {
        let key = StyleKey(
            font: request.font, textScale: request.textScale, features: request.features,
            breaksLigatures: request.letterSpacing != 0, language: request.language, metrics: request.metrics)
        let resolver = self.resolver
        // A style from before invalidateCaches() replaced the resolver is stale.
        if let cached = styles.value(for: key), cached.resolver === resolver { return cached }
        let description = try self.description(for: request.font)
        let size = try pixelSize(of: description, textScale: request.textScale)
        // Letter spacing breaks ligatures apart (PANGO_RULES.md §8). Every feature that
        // changes shaping is in the key of the shaped-run cache.
        let featureKey = description.variant.features + request.features
            + (key.breaksLigatures ? ["-liga", "-clig", "-dlig"] : [])
        let features = try Shaper.parseFeatures(featureKey)
        let style = try ResolvedStyle(
            id: lastStyleID.wrappingAdd(1, ordering: .relaxed).newValue, description: description, pixelSize: size, resolver: resolver, features: features,
            featureID: featureTable.id(of: featureKey), language: languageContext(request.language),
            rendering: request.metrics.rendering,
            // Weak: the cache holds the style, which holds this closure; a strong capture made a
            // cycle that kept a dropped engine's styles, sets and HarfBuzz objects alive.
            grew: { [weak styles] (style: ResolvedStyle) in
                guard let styles else { return }
                if styles.peek(key) === style { styles.insert(style, for: key, bytes: Self.styleBytes(key, style)) }
            })
        // The style holds its base set (and the set its fonts): counted here too, since the
        // style keeps them alive after the resolver's cache let go of them.
        styles.insert(style, for: key, bytes: Self.styleBytes(key, style))
        return style
    }

    /// The default context language (Pango's canonical form) and the preferred languages,
    /// as the engine read them.
    public var contextLanguage: String { language }
    public var contextPreferredLanguages: [String] { preferredLanguages }

    /// The context of a request's language (nil: the engine's), made once per language.
    func languageContext(_ requested: String?) -> LanguageContext {
        let tag = requested.map(LanguageTable.canonical) ?? language
        if let context = languageContexts.withLock({ $0[tag] }) { return context }
        let context = LanguageContext(tag, preferred: preferredLanguages)
        languageContexts.withLock { contexts in
            if contexts.count >= Self.maxLanguageContexts {
                contexts = contexts.filter { $0.key == language }
            }
            contexts[tag] = context
        }
        return context
    }

    // MARK: fonts

    public func resolveFont(_ text: String, textScale: Double = 1) throws(FitTextError) -> ResolvedFont {
        try resolveFont(text, textScale: textScale, fallbacks: true)
    }

    /// - Parameter fallbacks: false leaves `fallbackFamilies` empty: each fallback's name
    ///   needs its face prepared by fontconfig (a set lists hundreds of faces, and measuring
    ///   prepares only those it uses), which a caller asking only whether the family matched
    ///   does not need (fitctl's substitution warning).
    public func resolveFont(_ text: String, textScale: Double = 1, fallbacks: Bool) throws(FitTextError) -> ResolvedFont {
        guard textScale.isFinite, TextLimits.textScaleRange.contains(textScale) else {
            throw .invalidArgument(name: "text_scale", reason: "\(textScale) must be within \(TextLimits.textScaleRange.lowerBound)…\(TextLimits.textScaleRange.upperBound)")
        }
        let description = try self.description(for: text)
        let size = try pixelSize(of: description, textScale: textScale)
        // Held to the end: the set prepares its faces through this resolver, which
        // invalidateCaches() may replace meanwhile.
        let resolver = self.resolver
        defer { withExtendedLifetime(resolver) {} }
        let set = try resolver.fontSet(for: description, pixelSize: size, language: language)
        let primary = try set.font(at: 0)
        var fallbackFamilies: [String] = []
        for face in try fallbacks ? set.preparedFaces().dropFirst() : []
        where face.family != primary.face.family && !fallbackFamilies.contains(face.family) {
            fallbackFamilies.append(face.family)
        }
        return ResolvedFont(
            description: description.description, family: primary.face.family, style: primary.face.style,
            weight: primary.face.weight, file: primary.face.file, index: primary.face.index,
            pixelSize: size, pointSize: size * 72.0 / 96.0, ascent: primary.ascent, descent: primary.descent,
            matchedRequestedFamily: set.matchedRequestedFamily, fallbackFamilies: fallbackFamilies)
    }
}
