#if canImport(Glibc)
import Glibc
#endif

/// glibc's malloc_trim(3): gives the free memory of every arena back to the system, also from
/// the middle of a heap (glibc trims only a heap's top on its own). Looked up at run time
/// because Swift's Glibc module does not import <malloc.h>; a no-op where it is missing.
enum MallocTrim {
    private typealias Function = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32

    /// mallopt(M_MMAP_THRESHOLD, 4 MiB): blocks from 4 MiB up are mapped and unmapped on their
    /// own. glibc otherwise raises the threshold to the largest block ever freed, so after one
    /// 8 MB message copy every later one came from an arena, whose freed pages the process kept
    /// (bad_input.sh: 26 MB idle, 38-68 MB after two refused batches). Setting it also turns the
    /// dynamic adjustment off (mallopt(3), M_MMAP_THRESHOLD).
    /// Not lower: at 256 KiB every 1 MB message libdbus read was a fresh mapping — its pages
    /// faulted in and zeroed, then unmapped — which kept the loop thread 69 % in the kernel
    /// under isolation.sh's flood (perf) and let the bus queue other clients' calls behind the
    /// flood's: their p99 was 25-155 ms in 6 runs, 7.6-31 ms in 7 runs at 4 MiB. Blocks under 4 MiB
    /// are reused from the arenas; the trims after large requests and when idle give them back.
    static let mappedBlockBytes: Int32 = 4 << 20

    static func mapLargeBlocks() {
        guard let program = dlopen(nil, RTLD_NOW) else { return }
        defer { dlclose(program) }
        guard let symbol = dlsym(program, "mallopt") else { return }
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD, <malloc.h>
        _ = unsafeBitCast(symbol, to: Option.self)(mmapThreshold, mappedBlockBytes)
    }

    static func trim() {
        guard let program = dlopen(nil, RTLD_NOW) else { return }
        defer { dlclose(program) }
        guard let symbol = dlsym(program, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Function.self)(0)
    }
}
