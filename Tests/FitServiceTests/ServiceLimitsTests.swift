import FitScale
import FitService
import FitText
import FitThreads
import Testing

/// The [limits] section of fitd.conf: good values are taken, a bad value or an unknown key
/// is an error that names it (the daemon logs it and keeps the defaults), other sections are
/// someone else's business.
@Suite struct ServiceLimitsTests {
    func limits(_ text: String) throws -> ServiceLimits {
        try ServiceLimits(config: ConfigFile(parsing: text, path: "fitd.conf"))
    }

    @Test func defaults() throws {
        let defaults = ServiceLimits()
        #expect(defaults.maxTextBytes == TextLimits.maxTextBytes)
        #expect(defaults.maxBatchRequests == 10_000)
        #expect(defaults.cacheBytes == 96 << 20)
        #expect(defaults.idleReleaseSeconds == 60)
        #expect(defaults.workers == ParallelChunks.availableCores)
        #expect(defaults.persistResults)
        #expect(try limits("") == defaults)
        #expect(try limits("[text]\nscale = 1.25\n") == defaults)
    }

    @Test func goodValues() throws {
        let parsed = try limits("""
            # fitd's settings
            [text]
            scale = 1.5
            [limits]
            max_text_bytes = 4096
            max_batch = 3
            cache_bytes = 0
            idle_release_seconds = 0
            workers = 1
            persist_results = false
            """)
        #expect(parsed.workers == 1)
        #expect(!parsed.persistResults)
        #expect(try limits("[limits]\npersist_results = yes").persistResults)
        #expect(parsed.idleReleaseSeconds == 0)
        #expect(parsed.maxTextBytes == 4096)
        #expect(parsed.maxBatchRequests == 3)
        #expect(parsed.cacheBytes == 0)
    }

    @Test(arguments: [
        ("max_batch = 0", "max_batch"), ("max_batch = lots", "max_batch"), ("max_batch = 2000000", "max_batch"),
        ("max_text_bytes = -1", "max_text_bytes"), ("idle_release_seconds = -5", "idle_release_seconds"),
        ("idle_release_seconds = 100000", "idle_release_seconds"), ("max_text_bytes = 99999999999", "max_text_bytes"),
        ("cache_bytes = 1.5", "cache_bytes"), ("workers = 0", "workers"), ("workers = 1000", "workers"), ("max_batch =", "max_batch"),
    ])
    func badValueNamesTheKeyAndRange(line: String, key: String) throws {
        let error = #expect(throws: ServiceConfigError.self) { try limits("[limits]\n\(line)\n") }
        #expect(error?.message.contains("[limits] \(key)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("must be a whole number in") == true)
    }

    @Test func persistResultsIsTrueOrFalse() throws {
        let error = #expect(throws: ServiceConfigError.self) { try limits("[limits]\npersist_results = maybe\n") }
        #expect(error?.message == "[limits] persist_results = maybe must be true or false")
    }

    @Test func unknownKeyIsAnErrorListingTheKnownOnes() throws {
        let error = #expect(throws: ServiceConfigError.self) { try limits("[limits]\nmax_bach = 3\n") }
        #expect(error?.message == "[limits] max_bach is not a known setting; known: cache_bytes, idle_release_seconds, max_batch, max_text_bytes, persist_results, workers")
    }
}
