import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Work over many items spread across the machine's cores: the
/// daemon's MeasureBatch and the in-process client's batches. The items are cut into chunks;
/// each of up to `workers` child tasks takes the next chunk when it is done with one, so a
/// slow chunk (a long text) holds up no other worker, and the results come back in item
/// order whatever order the chunks finished in.
///
/// The workers are tasks of Swift's cooperative pool, which has one thread per core: a batch
/// cannot take more than the machine has, and other requests' tasks are still scheduled
/// between chunks (a chunk's body yields where it wants to).
public enum ParallelChunks {
    /// Cores online (sysconf; the cooperative pool sizes itself the same way), at least 1.
    public static let availableCores: Int = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// Entries per chunk of a measurement batch (the daemon's MeasureBatch, FitClient's
    /// in-process batches): 64 uncached entries are about a millisecond of work, so a chunk is
    /// worth a task switch, and a 1,000-entry batch still splits into 16 for two or four
    /// workers to share evenly.
    public static let batchChunk = 64

    /// The workers a batch of `count` entries is spread over: `available` from two chunks
    /// up, else one (a batch of one chunk runs inline, with no task to start).
    public static func batchWorkers(count: Int, available: Int) -> Int {
        count >= 2 * batchChunk ? available : 1
    }

    /// `body` over 0..<count in chunks of `chunk` items, on up to `workers` child tasks; the
    /// chunks' results in order. With one worker, or one chunk, it runs inline.
    public static func map<T: Sendable>(
        count: Int, chunk: Int, workers: Int, _ body: @escaping @Sendable (Range<Int>) async -> T
    ) async -> [T] {
        let chunk = max(1, chunk)
        let chunks = (count + chunk - 1) / chunk
        func range(_ index: Int) -> Range<Int> { index * chunk..<min(count, (index + 1) * chunk) }
        let workers = min(max(1, workers), chunks)
        if workers <= 1 {
            var results: [T] = []
            results.reserveCapacity(chunks)
            for index in 0..<chunks { results.append(await body(range(index))) }
            return results
        }
        let next = ChunkCounter()
        return await withTaskGroup(of: [(Int, T)].self) { group in
            for _ in 0..<workers {
                group.addTask {
                    var done: [(Int, T)] = []
                    while true {
                        let index = next.take()
                        guard index < chunks else { break }
                        done.append((index, await body(range(index))))
                    }
                    return done
                }
            }
            // Every chunk index below `chunks` was taken by exactly one worker.
            var finished: [(Int, T)] = []
            finished.reserveCapacity(chunks)
            for await done in group { finished += done }
            finished.sort { $0.0 < $1.0 }
            return finished.map(\.1)
        }
    }
}

/// The next chunk to take, shared by the workers of one ``ParallelChunks/map``.
private final class ChunkCounter: Sendable {
    private let value = Atomic<Int>(0)
    func take() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}
