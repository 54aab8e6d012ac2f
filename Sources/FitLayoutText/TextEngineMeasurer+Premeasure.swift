import FitLayout
import FitThreads

extension TextEngineMeasurer {
    /// Measurements per chunk of a premeasure: a cold text costs 5–15 µs (shaping), so 16 of
    /// them are worth a task switch, and a 150-row list still splits into dozens of chunks for
    /// two or four workers to share.
    static let premeasureChunk = 16

    /// Measures what the layout of `prepared` is sure to ask of its texts
    /// (``PreparedLayout/textProbes(sizeCategory:)``: each text unwrapped, and at width 0 in a
    /// horizontal stack) on up to `workers` tasks, so that the layout, which asks for its
    /// texts one at a time on one thread, finds them in the engine's caches (issue 14, "every
    /// core": Layout of many texts spreads its uncached work over the cores). The engine's
    /// caches are shared and thread-safe; nothing else is shared.
    ///
    /// Errors are not reported here: the layout meets the same text again and reports it with
    /// its node. With one worker, or fewer than two chunks of probes, the layout is left to
    /// measure its texts itself (the tasks would cost more than they save).
    public func premeasure(_ prepared: PreparedLayout, sizeCategory: ContentSizeCategory, workers: Int) async {
        guard workers > 1 else { return }
        let probes = prepared.textProbes(sizeCategory: sizeCategory)
        guard probes.count >= 2 * Self.premeasureChunk else { return }
        _ = await ParallelChunks.map(count: probes.count, chunk: Self.premeasureChunk, workers: workers) { [self] range in
            for index in range {
                guard !Task.isCancelled else { return }
                _ = try? measure(probes[index].text, proposedWidth: probes[index].proposedWidth, scale: 1)
            }
        }
    }
}
