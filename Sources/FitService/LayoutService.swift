import FitBus
import FitLayout
import FitLayoutText
import FitProtocol
import FitScale
import FitText

/// Layout for the daemon: decodes a Layout call, lays the document out with the shared text
/// engine, and caches the encoded reply by document, proposal, options, text scale and
/// generation.
public final class LayoutService: Sendable {
    /// Key of one cached reply, within a generation (GenerationScopedCache). LayoutCacheKey
    /// covers document, proposal and options (UI font included); the text scale applies to
    /// description fonts.
    struct CacheKey: Hashable, Sendable {
        var layout: LayoutCacheKey
        var textScale: Double
    }

    /// 8 MiB holds some 10,000 replies of a 50-node document (about 700 bytes each).
    public static let defaultCacheBytes = 8 << 20

    let engine: TextEngine
    /// Replies by document. An exact repeat of a call is answered before it gets here, by the
    /// bytes of the call (FitService.layoutReplies); this catches the same document sent
    /// differently (options in another order, another proposal rounding to the same).
    let cache: GenerationScopedCache<CacheKey, [DBusValue]>

    /// Tasks a document's texts are measured on before it is laid out (fitd.conf's
    /// `[limits] workers`; TextEngineMeasurer.premeasure).
    let workers: Int

    public init(engine: TextEngine, cacheBytes: Int = LayoutService.defaultCacheBytes, workers: Int = 1) {
        self.engine = engine
        self.workers = workers
        self.cache = GenerationScopedCache(name: "layouts", byteLimit: cacheBytes)
    }

    public var statistics: CacheStatistics { cache.statistics }

    /// Layout's handler body: (nodes, proposal, options) → (size, frames, decisions, truncated,
    /// generation). `textScale` and `generation` are the service's at the time of the call.
    func layout(
        _ arguments: [DBusValue], textScale: Double, generation: UInt64,
        defaultCategory: SizeCategory? = nil, uiFonts: ToolkitUIFonts? = nil,
        gtkRendering: GTKFontRenderingSettings = .unset
    ) async throws(DBusError) -> [DBusValue] {
        guard arguments.count == 3 else {
            throw DBusError(.invalidArgs, "Layout takes (\(LayoutCodec.documentSignature) nodes, \(LayoutCodec.proposalSignature) proposal, a{sv} options)")
        }
        let proposal = try LayoutCodec.proposal(arguments[1])
        var options = try LayoutCodec.options(
            arguments[2], defaultCategory: defaultCategory ?? SizeCategory(textScale: textScale))
        if options.uiFont == nil { options.uiFont = uiFonts?.font(for: options.toolkit).pangoDescription }
        let document: LayoutDocument
        do throws(LayoutError) {
            document = try LayoutCodec.document(arguments[0])
        } catch {
            throw DBusError(error)
        }
        let key = CacheKey(layout: LayoutCacheKey(document: document, proposal: proposal, options: options), textScale: textScale)
        if let cached = cache.value(for: key, generation: generation) { return cached }
        let prepared: PreparedLayout
        let measurer: TextEngineMeasurer
        do throws(LayoutError) {
            prepared = try PreparedLayout(document)
            measurer = try TextEngineMeasurer(engine: engine, options: options, textScale: textScale, gtkRendering: gtkRendering)
        } catch {
            throw DBusError(error)
        }
        // The texts' shaping spread over the cores first; the layout itself is one thread's.
        if let probes = measurer.premeasurePlan(prepared, sizeCategory: options.sizeCategory, workers: workers) {
            await measurer.premeasure(probes, workers: workers)
        }
        let reply: [DBusValue]
        do throws(LayoutError) {
            let result = try measurer.layout(prepared, in: proposal, options: options)
            reply = LayoutCodec.encode(result, generation: generation)
            cache.insert(reply, for: key, generation: generation, bytes: Self.estimatedBytes(document, reply: reply))
        } catch {
            throw DBusError(error)
        }
        return reply
    }

    /// What an entry holds: the key's document (its nodes inline in one array, their strings'
    /// storage) and the reply's value tree (``DBusValue/heapBytes``), from Swift's layouts.
    /// Checked against malloc's figures by LayoutCacheCostTests (a 3,000-node document with its
    /// breakpoints: about 1.1 KB a node, ten times what a count of its ids and frames gives).
    static func estimatedBytes(_ document: LayoutDocument, reply: [DBusValue]) -> Int {
        var bytes = 256 + DBusValue.heapBytes(reply) + HeapBytes.array(count: document.nodes.count, stride: MemoryLayout<LayoutNode>.stride)
        for node in document.nodes {
            let properties = node.properties
            bytes += HeapBytes.string(node.id) + (properties.text.map(HeapBytes.string) ?? 0) + (properties.font.map(HeapBytes.string) ?? 0)
            bytes += (properties.templates.map(HeapBytes.strings) ?? 0) + (properties.fields.map(HeapBytes.strings) ?? 0)
                + (properties.data.map(HeapBytes.strings) ?? 0)
        }
        return bytes
    }
}
