// Proof for scripts/sanitizers/tsan.supp: a value written on a POSIX thread and handed to a
// task through CheckedContinuation.resume, read after the await: correct, and reported by
// ThreadSanitizer as a data race on Linux, Swift 6.3.1 (the concurrency runtime's hand-over
// is not visible to TSan here). FitBus hands every reply from its loop thread this way.
// swiftc -parse-as-library -sanitize=thread tsan-continuation-repro.swift -o c && ./c
import Glibc
final class Cell: @unchecked Sendable { var value = 0 }
final class Ctx: @unchecked Sendable { var cont: CheckedContinuation<Cell, Never>? }
@main struct M {
    static func main() async {
        var total = 0
        for i in 0..<200 {
            let cell: Cell = await withCheckedContinuation { c in
                let ctx = Ctx(); ctx.cont = c
                let raw = Unmanaged.passRetained(ctx).toOpaque()
                var t = pthread_t()
                pthread_create(&t, nil, { p in
                    let ctx = Unmanaged<Ctx>.fromOpaque(p!).takeRetainedValue()
                    let cell = Cell(); cell.value = 42
                    ctx.cont!.resume(returning: cell)
                    return nil
                }, raw)
                pthread_detach(t)
            }
            total += cell.value + i
        }
        print("done", total)
    }
}
