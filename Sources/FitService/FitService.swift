import FitBus
import FitProtocol
import FitScale
import FitText
import FitThreads
import Logging
import Synchronization

/// The daemon's logic: the org.fitd.Fit1 object and its handlers, over one shared engine and
/// its caches. It owns no process concerns (bus connection, name, signals: see fitd), so the
/// tests run it in-process on a private bus.
public final class FitService: Sendable {
    public static let version = FitVersion.release

    public let engine: TextEngine
    public let limits: ServiceLimits
    /// Layout calls and their cache (FitService+Layout.swift).
    public let layouts: LayoutService
    let logger: Logger
    private let generations = GenerationCounter()
    /// Layout and Measure replies by the exact bytes of the call, answered on the bus thread
    /// (DBusReplyCache): what clients repeat most, each redraw.
    public let layoutReplies: GenerationReplyCache
    public let measureReplies: GenerationReplyCache
    /// 4 MiB (the default share, ServiceLimits.CacheBudget) keeps some 8,000 Measure replies
    /// (call and reply about 500 bytes together).
    let requestsServed = RequestCounter()
    private let started = ContinuousClock.now
    /// The user's text-scale factor, applied to every request that does not override it.
    private let textScale = Mutex<Double>(1.0)
    /// The text-scale snapshot, state and connection behind the scale properties (FitService+Scale).
    let scaleBinding = TextScaleBinding()

    /// How long a batch measures before it yields to other callers, checked every
    /// `batchCheckEvery` entries: an uncached entry costs a few microseconds, a cached one
    /// about one, so a single request from another client waits at most about this long, a
    /// few milliseconds at the most. Yielding by count (every 64 entries) would yield 15 times
    /// per cached batch of 1,000 — each a trip through the executor — for no one's benefit.
    static let batchSlice: Duration = .microseconds(500)
    static let batchCheckEvery = 16

    public init(engine: TextEngine, limits: ServiceLimits, logger: Logger) {
        self.engine = engine
        self.limits = limits
        self.logger = logger
        let budget = limits.cacheBudget
        self.layouts = LayoutService(engine: engine, cacheBytes: budget.layouts, workers: limits.workers)
        self.layoutReplies = GenerationReplyCache(name: "layout-replies", byteLimit: budget.layoutReplies, generations: generations, served: requestsServed)
        self.measureReplies = GenerationReplyCache(name: "measure-replies", byteLimit: budget.measureReplies, generations: generations, served: requestsServed)
    }

    /// A batch this long (accepted or refused) leaves many small blocks freed at once — its
    /// decoded arguments and results — which glibc keeps rather than gives back: measured,
    /// a refused 100,000-entry batch took the daemon from 32 to 83 MiB for good, a second
    /// one to 144 MiB (another thread's arena). The hook (fitd: malloc_trim) gives them back.
    static let largeRequestEntries = 1_000
    private let afterLargeRequest = Mutex<(@Sendable () -> Void)?>(nil)
    /// Large requests handled so far, and whether a trim task is running.
    private let largeRequests = Atomic<UInt64>(0)
    private let trimming = Atomic<Bool>(false)

    /// `body` runs shortly after a large request was answered (on one background task at a
    /// time, again after every large request that arrived while it waited), to release the
    /// memory the request used.
    public func onLargeRequest(_ body: @escaping @Sendable () -> Void) {
        afterLargeRequest.withLock { $0 = body }
    }

    private func largeRequestHandled() {
        guard let body = afterLargeRequest.withLock({ $0 }) else { return }
        largeRequests.add(1, ordering: .relaxed)
        guard trimming.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Task.detached(priority: .background) { [self] in
            while true {
                let seen = largeRequests.load(ordering: .relaxed)
                // Once the reply is sent and the dispatcher has dropped the request.
                try? await Task.sleep(for: .milliseconds(200))
                body()
                // A second refused batch right after the first finds this trim pending, and a
                // trim that ran before its memory was free would leave it (68 MB in bad_input.sh).
                if largeRequests.load(ordering: .relaxed) != seen { continue }
                trimming.store(false, ordering: .releasing)
                // One that arrived between the check and the store left the trim to this task.
                guard largeRequests.load(ordering: .relaxed) != seen,
                    trimming.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
                else { return }
            }
        }
    }

    /// Empties every cache of the daemon — the engine's, the kept replies, the laid-out
    /// documents — and their tables' memory: the daemon has been idle (ServiceLimits.idleReleaseSeconds).
    public func releaseIdleMemory() {
        engine.releaseCaches()
        measureReplies.release()
        layoutReplies.release()
        layouts.cache.release()
    }

    public var currentGeneration: UInt64 { generations.current }
    /// Requests served so far (cheaper than ``statistics``, which reads every cache).
    public var requestsServedCount: UInt64 { requestsServed.current }
    /// Batches and layouts under way: a long one serves no new request for a while but is no
    /// reason to think the daemon idle (IdleTrim).
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }
    let inFlight = Atomic<Int>(0)
    public var currentTextScale: Double { textScale.withLock { $0 } }

    /// Records a change that makes cached results stale and returns the new generation.
    public func bumpGeneration() -> UInt64 {
        generations.bump()
    }

    public func setTextScale(_ factor: Double) { textScale.withLock { $0 = factor } }

    public var statistics: ServiceStatistics {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return ServiceStatistics(
            caches: engine.cacheStatistics + [measureReplies.statistics, layouts.statistics, layoutReplies.statistics], requestsServed: requestsServed.current, uptimeSeconds: seconds)
    }

    // MARK: handlers

    /// Measure(s text, s font, a{sv} options) → Metrics, its reply written straight into the
    /// body (MeasureCodec.replyBody).
    /// - Parameter prepared: the call as Measure's fast path decoded it, when it did; the
    ///   arguments are then not read again.
    func measure(
        _ arguments: DBusArguments, limit: MeasureCodec.ReplyLimit = .array, prepared: PreparedMeasure? = nil
    ) throws(DBusError) -> DBusReplyBody {
        requestsServed.add(1)
        let call: PreparedMeasure
        if let prepared {
            call = prepared
        } else {
            let (text, font, options) = try arguments.read { (reader) throws(DBusError) in try MeasureCodec.readCall(&reader) }
            call = try prepareMeasure(text: text, font: font, options: options)
        }
        let measured = try measure(call, limit: limit)
        return try MeasureCodec.replyBody(measured.metrics, generation: measured.generation)
    }

    /// A Measure call resolved against the user's state as it is now.
    func prepareMeasure(text: String, font: String, options: OptionDictionary) throws(DBusError) -> PreparedMeasure {
        let context = requestContext
        return PreparedMeasure(
            text: text, options: options, request: try engineRequest(text: text, font: font, options: options, in: context),
            generation: context.generation)
    }

    /// Measures a prepared call, refusing one whose reply would pass `limit`.
    func measure(_ call: PreparedMeasure, limit: MeasureCodec.ReplyLimit = .array) throws(DBusError) -> (metrics: TextMetrics, generation: UInt64) {
        // Refused before measuring when even the fewest lines it can have would not fit.
        let least = MeasureCodec.minimumResultBytes(text: call.text, options: call.options)
        guard least <= limit.bytes else { throw MeasureCodec.replyTooLarge(least, entries: 1, limit: limit) }
        let measured: (metrics: TextMetrics, generation: UInt64)
        do throws(FitTextError) {
            measured = (try engine.measure(call.request), call.generation)
        } catch {
            throw DBusError(error)
        }
        // One text's lines at width 0 come near the array limit (1 MiB of text, a line each).
        let bytes = MeasureCodec.metricsBytes(measured.metrics)
        guard bytes <= limit.bytes else { throw MeasureCodec.replyTooLarge(bytes, entries: 1, limit: limit) }
        return measured
    }

    /// MeasureLabel(s text, s font, a{sv} options) → (iiiiit): the label's size request
    /// (LabelSize), from up to three measurements of the engine, each cached.
    func measureLabel(_ arguments: [DBusValue]) throws(DBusError) -> [DBusValue] {
        guard arguments.count == 3, case .string(let text) = arguments[0], case .string(let font) = arguments[1] else {
            throw DBusError(.invalidArgs, "MeasureLabel takes (s text, s font, a{sv} options)")
        }
        requestsServed.add(1)
        let context = requestContext
        var options = try OptionDictionary(arguments[2])
        let chars = try LabelCodec.charWidths(from: &options)
        let request = try engineRequest(text: text, font: font, options: options, in: context)
        do throws(FitTextError) {
            return [LabelCodec.encode(try engine.labelSize(request, chars: chars), generation: context.generation)]
        } catch {
            throw DBusError(error)
        }
    }

    /// What every request of one call shares: the generation its results are labelled with,
    /// the user's text scale and UI font, read once per call (or batch slice) rather than
    /// once per entry (each is a lock and a copy).
    struct RequestContext {
        var generation: UInt64
        /// The user's settings as a request takes them (UserRequestRules, shared with
        /// FitClient's in-process backend).
        var rules: UserRequestRules

        var textScale: Double { rules.textScale }
    }

    /// The generation is read FIRST: a change applies the new scale and then bumps the
    /// generation (publish), so a result is never labelled with a generation newer than the
    /// scale it was measured at. At worst it carries the older one, and the client, told of
    /// the new generation, asks again; the other order could cache an old-scale result
    /// under the new generation for good.
    var requestContext: RequestContext {
        let generation = currentGeneration
        let snapshot = scaleBinding.snapshot
        return RequestContext(
            generation: generation,
            rules: UserRequestRules(
                textScale: currentTextScale, uiFonts: ToolkitUIFonts(snapshot), gtkRendering: snapshot?.gtkRendering ?? .unset))
    }

    private func measureOne(
        text: String, font: String, options: OptionDictionary, in context: RequestContext? = nil
    ) throws(DBusError) -> (metrics: TextMetrics, generation: UInt64) {
        let context = context ?? requestContext
        let request = try engineRequest(text: text, font: font, options: options, in: context)
        do throws(FitTextError) {
            return (try engine.measure(request), context.generation)
        } catch {
            throw DBusError(error)
        }
    }

    /// A batch entry's font and its own `ui_font`, if any: what costs a fontconfig sort.
    private static func fontKey(_ entry: MeasureCodec.BatchEntry) -> String {
        guard case .success(let options) = entry.options, case .string(let uiFont)? = options.entries["ui_font"] else { return entry.font }
        return entry.font + "\u{0}" + uiFont
    }

    /// The engine's request for a call's text, font and options: within the text limit,
    /// options decoded, then the user's settings applied as UserRequestRules says (text scale,
    /// UI font, text style or no font to a Pango description, GtkSettings). Every path to the engine builds its request here, the cache-only
    /// one too (``measureImmediately(_:)``), so they look up the same keys.
    func engineRequest(
        text: String, font: String, options: OptionDictionary, in context: RequestContext
    ) throws(DBusError) -> MeasureRequest {
        guard text.utf8.count <= limits.maxTextBytes else {
            throw .tooLarge("text is \(text.utf8.count) bytes of UTF-8; this daemon's limit is \(limits.maxTextBytes) (max_text_bytes in fitd.conf)")
        }
        let request = try MeasureCodec.request(text: text, font: font, options: options, textScale: context.textScale)
        // The decoder already put the user's scale where the call sent none.
        do throws(UserRequestRules.Failure) {
            return try context.rules.engineRequest(request, userTextScale: false)
        } catch {
            throw DBusError(FitErrorName.invalidFont, error.description)
        }
    }

    /// MeasureBatch, streaming (DBusStreamingHandler): requests are read and results written
    /// value by value; each entry that fails gets its own error and the batch goes on.
    func measureBatch(_ arguments: DBusArguments, limit: MeasureCodec.ReplyLimit = .array) async throws(DBusError) -> DBusReplyBody {
        let entries: [MeasureCodec.BatchEntry]
        do throws(DBusError) {
            entries = try arguments.read { (reader) throws(DBusError) in
                try MeasureCodec.readBatch(&reader, limit: limits.maxBatchRequests)
            }
        } catch {
            // A refused huge batch left its message's buffers behind too.
            if error.name == FitErrorName.tooLarge { largeRequestHandled() }
            throw error
        }
        defer { if entries.count >= FitService.largeRequestEntries { largeRequestHandled() } }
        // Each new font is a fontconfig sort: a batch naming thousands would hold a worker for
        // seconds (TextLimits.maxFontsPerRequest). Refused before anything is measured.
        // A UI font of the entry's own is one more font to sort: counted with the font.
        var fonts = Set<String>()
        for entry in entries
        where fonts.insert(Self.fontKey(entry)).inserted && fonts.count > TextLimits.maxFontsPerRequest {
            throw .tooLarge("the batch names more than \(TextLimits.maxFontsPerRequest) distinct fonts; the limit is "
                + "\(TextLimits.maxFontsPerRequest) per call (TextLimits.maxFontsPerRequest): split it by font")
        }
        requestsServed.add(UInt64(entries.count))
        inFlight.add(1, ordering: .relaxed)
        defer { inFlight.subtract(1, ordering: .relaxed) }
        // Refuse a reply that cannot be sent before measuring any of it (MeasureCodec+Size).
        var replyBytes = 0
        for entry in entries {
            // An entry over the text limit gets its own error, not a measurement: it adds no lines.
            guard entry.text.utf8.count <= limits.maxTextBytes else { continue }
            replyBytes += MeasureCodec.minimumResultBytes(text: entry.text, options: try? entry.options.get())
        }
        guard replyBytes <= limit.bytes else { throw MeasureCodec.replyTooLarge(replyBytes, entries: entries.count, limit: limit) }
        // Spread over the cores: chunks of entries on up to `limits.workers` tasks,
        // results in request order. Each worker yields every `batchSlice` so other callers'
        // requests are served between its chunks, re-reads the scale then, and stops when the
        // caller left or the reply has grown past what can be sent.
        let progress = BatchProgress()
        let chunks = await ParallelChunks.map(
            count: entries.count, chunk: ParallelChunks.batchChunk,
            workers: ParallelChunks.batchWorkers(count: entries.count, available: limits.workers)
        ) { [self] range -> [MeasureCodec.BatchResult] in
            var results: [MeasureCodec.BatchResult] = []
            results.reserveCapacity(range.count)
            var context = requestContext
            var sliceStart = ContinuousClock.now
            for index in range {
                // The caller left the bus (CallScheduling): nobody will read the rest. Checked
                // per entry: one entry may take a good part of a second (a 1 MiB text).
                guard !Task.isCancelled, !progress.overLimit else { break }
                if index % FitService.batchCheckEvery == 0, ContinuousClock.now - sliceStart >= FitService.batchSlice {
                    await Task.yield()
                    sliceStart = .now
                    context = requestContext  // a scale change while the batch waited applies from here
                }
                let entry = entries[index]
                let result = Result { () throws(DBusError) in
                    try measureOne(text: entry.text, font: entry.font, options: try entry.options.get(), in: context)
                }
                // Wrapped lines can make more than the estimate: stop the moment it is over.
                progress.add(bytes: MeasureCodec.resultBytes(result), limit: limit.bytes)
                results.append(result)
            }
            return results
        }
        if Task.isCancelled {
            throw DBusError(.cancelled, "MeasureBatch cancelled: the caller disconnected")
        }
        let results = chunks.flatMap { $0 }
        if progress.overLimit {
            throw MeasureCodec.replyTooLarge(progress.bytes + (entries.count - results.count) * 96, entries: entries.count, limit: limit)
        }
        return try DBusReplyBody(signature: MeasureCodec.batchResultSignature) { [results] (writer) throws(DBusError) in
            // The results' sizes were added up as they were measured: the buffer is sized once.
            writer.reserveCapacity(progress.bytes)
            try MeasureCodec.writeBatchResults(results, to: &writer)
        }
    }

    func resolveFont(_ arguments: [DBusValue]) throws(DBusError) -> [DBusValue] {
        guard arguments.count == 1, case .string(let font) = arguments[0] else {
            throw DBusError(.invalidArgs, "ResolveFont takes (s font)")
        }
        requestsServed.add(1)
        let (description, scale) = try engineFont(font, rules: requestContext.rules)
        do throws(FitTextError) {
            return [FontCodec.encode(try engine.resolveFont(description, textScale: scale))]
        } catch {
            throw DBusError(error)
        }
    }
}

/// How far one MeasureBatch's reply has grown, shared by its workers.
final class BatchProgress: Sendable {
    private let total = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)

    var bytes: Int { total.load(ordering: .relaxed) }
    var overLimit: Bool { stopped.load(ordering: .relaxed) }

    func add(bytes: Int, limit: Int) {
        let now = total.wrappingAdd(bytes, ordering: .relaxed).newValue
        if now > limit { stopped.store(true, ordering: .relaxed) }
    }
}
