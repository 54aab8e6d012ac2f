import FitService

/// Gives freed heap back once the daemon goes quiet. FitService trims after large requests
/// (FitService.onLargeRequest); many small ones — single Measure calls whose results evict
/// older ones — leave freed blocks in every arena too, and glibc returns only a heap's top by
/// itself (malloc_trim(3)). Checked every `period`: requests were served during the last
/// period but none since, and nothing was trimmed since the last of them.
enum IdleTrim {
    static let period: Duration = .seconds(5)

    static func run(service: FitService) async {
        var last = service.statistics.requestsServed
        var trimmedAt = last
        while !Task.isCancelled {
            do { try await Task.sleep(for: period) } catch { return }
            let now = service.statistics.requestsServed
            if now == last, now != trimmedAt {
                MallocTrim.trim()
                trimmedAt = now
            }
            last = now
        }
    }
}
