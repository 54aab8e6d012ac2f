#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing

@testable import FitThreads

@Suite struct PosixThreadTests {
    @Test func joinWaitsForTheBody() throws {
        let done = Atomic<Bool>(false)
        let thread = try PosixThread(name: "test join") {
            usleep(50_000)
            done.store(true, ordering: .releasing)
        }
        thread.join()
        let finished = done.load(ordering: .acquiring)
        #expect(finished)
    }

    @Test func theThreadCarriesItsNameTruncatedTo15Bytes() throws {
        let seen = Mutex<String>("")
        let thread = try PosixThread(name: "a name longer than fifteen bytes") {
            let fd = open("/proc/thread-self/comm", O_RDONLY)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            let name = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
            seen.withLock { $0 = name }
        }
        thread.join()
        let name = seen.withLock { $0 }
        #expect(name == "a name longer t\n")
    }

    @Test func aDroppedThreadRunsOnDetached() throws {
        let done = Atomic<Bool>(false)
        _ = try PosixThread(name: "test detach") { done.store(true, ordering: .releasing) }
        var waited = 0
        while !done.load(ordering: .acquiring), waited < 2_000 {
            usleep(1_000)
            waited += 1
        }
        let finished = done.load(ordering: .acquiring)
        #expect(finished)
    }

    @Test func anErrorSaysWhatFailed() {
        let error = PosixThreadError(name: "loop", code: EAGAIN)
        #expect(error.description == "cannot start the thread \"loop\": Resource temporarily unavailable (pthread_create returned 11)")
    }
}
