import FitService

/// Gives memory back once the daemon goes quiet. FitService trims after large requests
/// (FitService.onLargeRequest); many small ones — single Measure calls whose results evict
/// older ones — leave freed blocks in every arena too, and glibc returns only a heap's top by
/// itself (malloc_trim(3)). Checked every `period`: requests were served during the last
/// period but none since, and nothing was trimmed since the last of them. After
/// `idleReleaseSeconds` without a request the caches are emptied too, so that a daemon that
/// served a burst of work goes back to the memory it took at start (its results saved first,
/// when persist_results is on: WarmStart, whose files' contents are let go too and read again
/// once requests come back).
enum IdleTrim {
    static let period: Duration = .seconds(5)

    static func run(service: FitService, idleReleaseSeconds: Int, warmStart: WarmStart?) async {
        var last = service.requestsServedCount
        var trimmedAt = last
        var releasedAt = last
        var quiet: Duration = .zero
        var warmReleased = false
        while !Task.isCancelled {
            do { try await Task.sleep(for: period) } catch { return }
            let now = service.requestsServedCount
            // A long batch or layout serves nothing new while it runs, but is not idleness.
            let working = service.requestsInFlight > 0
            quiet = now == last && !working ? quiet + period : .zero
            if warmReleased, now != last || working {
                warmReleased = false
                await warmStart?.reload()
            }
            if now == last, !working, now != trimmedAt {
                MallocTrim.trim()
                trimmedAt = now
            }
            if idleReleaseSeconds > 0, quiet >= .seconds(idleReleaseSeconds), now != releasedAt {
                // What the caches hold is saved before they are emptied: a daemon stopped
                // later (logout, reboot) has nothing left to save.
                await warmStart?.save()
                service.releaseIdleMemory()
                if let warmStart {
                    warmStart.release()
                    warmReleased = true
                }
                MallocTrim.trim()
                releasedAt = now
            }
            last = now
        }
    }
}
