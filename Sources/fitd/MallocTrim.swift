#if canImport(Glibc)
import Glibc
#endif

/// glibc's malloc_trim(3): gives the free memory of every arena back to the system, also from
/// the middle of a heap (glibc trims only a heap's top on its own). Looked up at run time
/// because Swift's Glibc module does not import <malloc.h>; a no-op where it is missing.
enum MallocTrim {
    private typealias Function = @convention(c) (Int) -> Int32

    static func trim() {
        guard let program = dlopen(nil, RTLD_NOW) else { return }
        defer { dlclose(program) }
        guard let symbol = dlsym(program, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Function.self)(0)
    }
}
