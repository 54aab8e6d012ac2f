/// Hashes of the Measure requests the engine has answered in one generation, bounded. The
/// Measure fast path (FitService+Immediate) runs on the bus loop thread only for requests
/// found here, so the engine almost always answers from its result cache there. A hash
/// collision or an entry the engine evicted since costs one short measurement on the loop
/// thread (texts are capped for that reason), never a wrong answer.
struct KnownRequests: Sendable {
    /// 64 Ki hashes: 512 KiB of set storage at most; then the set starts over.
    static let capacity = 65_536

    private var generation: UInt64 = 0
    private var hashes: Set<Int> = []

    mutating func insert(_ hash: Int, generation: UInt64) {
        if generation != self.generation || hashes.count >= Self.capacity {
            hashes.removeAll(keepingCapacity: generation == self.generation)
            self.generation = generation
        }
        hashes.insert(hash)
    }

    func contains(_ hash: Int, generation: UInt64) -> Bool {
        generation == self.generation && hashes.contains(hash)
    }
}
