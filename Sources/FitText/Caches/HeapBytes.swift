/// What Swift's storage takes on the heap on 64-bit Linux with glibc: the model the byte-bounded
/// caches count an entry's strings and arrays with. A native string longer than 15 UTF-8 bytes
/// and every non-empty array are a block of a 32-byte header and their contents; glibc's malloc
/// adds 8 bytes to a block and rounds it up to 16, 32 at least (malloc(3)). Checked against
/// mallinfo2 by FontCacheTests' and LayoutCacheCostTests' measured costs.
package enum HeapBytes {
    /// A native string: nothing up to 15 UTF-8 bytes (kept inline), else a block of a header,
    /// the bytes and a terminating NUL.
    package static func string(_ text: String) -> Int {
        let count = text.utf8.count
        return count <= 15 ? 0 : malloc(32 + count + 1)
    }

    /// An array's block of `count` elements of `stride` bytes: nothing when it is empty (the
    /// shared empty storage).
    package static func array(count: Int, stride: Int) -> Int {
        count == 0 ? 0 : malloc(32 + count * stride)
    }

    /// An array of strings: its block and each string's.
    package static func strings(_ list: [String]) -> Int {
        array(count: list.count, stride: MemoryLayout<String>.stride) + list.reduce(0) { $0 + string($1) }
    }

    /// What malloc takes for a request of `bytes`.
    package static func malloc(_ bytes: Int) -> Int { max(32, (bytes + 8 + 15) & ~15) }
}
