import FitLayout
import FitThreads

/// Layout of many texts over every core: the layout asks for its texts one at a
/// time on one thread, so before it runs, its texts are measured on several tasks
/// (``PreparedLayout/textProbes(sizeCategory:)``: each unwrapped, and at width 0 in a
/// horizontal stack), and the layout finds them — or at least their shaped words — in the
/// engine's caches, which are shared and thread-safe. Callers (the daemon's LayoutService,
/// FitClient's embedded layout):
///
///     if let probes = measurer.premeasurePlan(prepared, sizeCategory: category, workers: n) {
///         await measurer.premeasure(probes, workers: n)
///     }
///
/// The plan is synchronous so that a layout with nothing to premeasure does not leave its
/// thread: from the main actor an `async` call that returned at once still cost a hop to the
/// pool and back, 57–63 µs (FitBenchLayout).
extension TextEngineMeasurer {
    /// Measurements per chunk: a cold one costs 3–15 µs (the 150-row list's 600 took 2.3 ms
    /// on one thread), so 16 of them are worth a task switch, and that list still splits
    /// into dozens of chunks for two or four workers to share.
    static let premeasureChunk = 16
    /// Texts a plan asks the engine's caches about, spread over the document.
    static let premeasureSample = 8
    /// Fewer probes are left to the layout. Through the daemon (FitBenchDaemon, fresh fitds
    /// with `workers = 1` and with two, lists of new texts, 80 calls each) every core against
    /// one was 0.96 × at 40 probes, 1.02 × at 80, 0.99 × at 160, 1.00 × at 320 and 1.09 × at
    /// 600: the tasks' start and the second worker's wake-up cost what they save until a
    /// document has hundreds of texts. In-process from the main actor the small ones lost
    /// more (0.50 × at 43 probes: FitBenchLayout's 50-node screen, 186 µs alone, 369 µs).
    public static let premeasureMinimumProbes = 256
    /// How long a worker measures before it lets other tasks of the pool run (a Layout whose
    /// call was small may still expand to thousands of texts, and the cooperative pool also
    /// runs every other client's small calls): MeasureBatch's slice (FitService.batchSlice).
    static let premeasureSlice: Duration = .microseconds(500)

    /// The probes worth measuring ahead of the layout of `prepared` on `workers` tasks, or nil
    /// to leave the layout to measure its texts itself: with one worker; with fewer than
    /// `minimumProbes` (``premeasureMinimumProbes``: below, the tasks cost what they save);
    /// and unless a quarter of a sample of its text nodes is new to the caches — a window
    /// resized lays its document out again and again with every text known, and going over
    /// them all first made that 1.85 times slower (FitBenchLayout's 150-row list, warm: 416 µs
    /// alone, 769 µs premeasured). The text nodes decide: a document whose probes are mostly
    /// template strings is left to the layout.
    public func premeasurePlan(
        _ prepared: PreparedLayout, sizeCategory: SizeCategory, workers: Int,
        minimumProbes: Int = premeasureMinimumProbes
    ) -> [PreparedLayout.TextProbe]? {
        guard workers > 1 else { return nil }
        // A text node makes at most two probes: fewer than half the minimum make too few.
        let (sample, texts) = prepared.sampleTextProbes(Self.premeasureSample, sizeCategory: sizeCategory)
        guard 2 * texts >= minimumProbes, aQuarterIsNew(sample) else { return nil }
        let probes = prepared.textProbes(sizeCategory: sizeCategory)
        return probes.count >= max(minimumProbes, 2 * Self.premeasureChunk) ? probes : nil
    }

    /// Measures `probes` at scale 1 on up to `workers` tasks (of the caller's executor when it
    /// prefers one, as the daemon's heavy calls do; else of the cooperative pool). Each yields
    /// every fourth chunk, and within a chunk after ``premeasureSlice``, so that other calls
    /// run between; and stops once the task is cancelled (the caller left). Errors
    /// are not reported here: the layout meets the same text again and reports it with its node.
    public func premeasure(_ probes: [PreparedLayout.TextProbe], workers: Int) async {
        _ = await ParallelChunks.map(count: probes.count, chunk: Self.premeasureChunk, workers: workers) { [self] range in
            // Every fourth chunk (64 cold measurements, 0.2–1 ms) yields at its start; a chunk
            // of long texts yields within, by the clock.
            if range.lowerBound > 0, range.lowerBound % (4 * Self.premeasureChunk) == 0 { await Task.yield() }
            var sliceStart = ContinuousClock.now
            for index in range {
                guard !Task.isCancelled else { return }
                if ContinuousClock.now - sliceStart >= Self.premeasureSlice {
                    await Task.yield()
                    sliceStart = .now
                }
                _ = try? measure(probes[index].text, proposedWidth: probes[index].proposedWidth, scale: 1)
            }
        }
    }

    /// Whether at least a quarter of `sample` is not cached: a handful of cache lookups
    /// against the whole premeasure. (A cached one counts as a hit in the result cache's
    /// statistics, as any lookup that finds its result.)
    func aQuarterIsNew(_ sample: [PreparedLayout.TextProbe]) -> Bool {
        var uncached = 0
        for probe in sample {
            guard let request = try? request(probe.text, proposedWidth: probe.proposedWidth, scale: 1) else { continue }
            if engine.cachedMeasurement(request) == nil { uncached += 1 }
        }
        return !sample.isEmpty && uncached * 4 >= sample.count
    }
}
