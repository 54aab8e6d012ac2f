#if canImport(Glibc)
import Glibc
#endif

/// `FITCTL_TIMINGS=1 fitctl measure --batch`: the time spent in each stage, printed on
/// standard error at the end (Benchmarks' FitBenchProcess reads it): read (reading and
/// parsing the request lines, including any wait for input), engine (measuring, and asking
/// whether each font was substituted), write (JSON text and write(2)). Off, it reads no clock.
struct StageClock {
    enum Stage: Int { case read, engine, write }
    let enabled: Bool
    var nanoseconds: [UInt64] = [0, 0, 0]
    var lines = 0

    static var requested: Bool { getenv("FITCTL_TIMINGS").map { String(cString: $0) == "1" } ?? false }

    func now() -> UInt64 {
        guard enabled else { return 0 }
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    mutating func add(_ stage: Stage, since start: UInt64) {
        guard enabled else { return }
        nanoseconds[stage.rawValue] += now() - start
    }

    func report() {
        guard enabled else { return }
        func ms(_ stage: Stage) -> String { String(Double(nanoseconds[stage.rawValue] / 1000) / 1000) }
        let line = "fitctl timings: lines \(lines) read_ms \(ms(.read)) engine_ms \(ms(.engine)) write_ms \(ms(.write))\n"
        var bytes = Array(line.utf8)
        _ = write(2, &bytes, bytes.count)
    }
}
