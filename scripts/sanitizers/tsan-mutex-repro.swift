// Proof for scripts/sanitizers/tsan.supp: a correct program (every access under one
// Synchronization.Mutex) that ThreadSanitizer reports as racing on Linux, Swift 6.3.1.
// swiftc -sanitize=thread -O tsan-mutex-repro.swift -o m && ./m   → "data race" reports.
// Why: a contended lock is taken and released in the kernel (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI
// in _lockSlow / _unlockSlow, stdlib/public/Synchronization/Mutex/LinuxImpl.swift), in the
// uninstrumented stdlib, so TSan sees no acquire / release.
import Synchronization
import Glibc

final class Box: @unchecked Sendable { let m = Mutex<[Int]>([]) }
let box = Box()
var threads: [pthread_t] = []
for _ in 0..<4 {
    var t = pthread_t()
    pthread_create(&t, nil, { _ in
        for i in 0..<20000 { box.m.withLock { $0.append(i); if $0.count > 100 { $0.removeAll() } } }
        return nil
    }, nil)
    threads.append(t)
}
for t in threads { pthread_join(t, nil) }
print("done", box.m.withLock { $0.count })
