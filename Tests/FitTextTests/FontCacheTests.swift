import CFitShims
import Foundation
import Synchronization
import Testing

@testable import FitText

/// The resolver's caches are bounded in bytes, evict the least recently used, and what they
/// evict stays valid for whoever still holds it (docs/reliability.md, "Memory is bounded").
@Suite struct FontCacheTests {
    private func engine(fontBytes: Int, styleBytes: Int = 4 << 20) throws -> TextEngine {
        _ = try TestEngine.engine()  // pins the fonts first
        var configuration = TextEngine.Configuration()
        configuration.language = "en-us"
        configuration.preferredLanguages = []
        configuration.fontCacheBytes = fontBytes
        configuration.styleCacheBytes = styleBytes
        return try TextEngine(configuration: configuration)
    }

    private func statistics(_ engine: TextEngine, _ name: String) throws -> CacheStatistics {
        try #require(engine.cacheStatistics.first { $0.name == name })
    }

    /// Sets are sorted outside the resolver's lock: threads asking for one set at once get the
    /// one object (one sorts, the others wait for it), threads asking for others sort theirs at
    /// the same time, and each set is the one a lone thread gets.
    @Test func threadsAskingForSetsAtOnceShareEachSet() throws {
        _ = try TestEngine.engine()  // the pinned fonts
        let resolver = try FontResolver(rounding: .none)
        let alone = try FontResolver(rounding: .none)
        let descriptions = try ["Noto Sans 12", "DejaVu Serif 10", "DejaVu Sans Mono 11", "Noto Sans Bold 14"].map { try FontDescription.parse($0) }
        let languages: [String?] = [nil, "ar", "he", "hi", "zh-cn", "ja"]
        let keys = descriptions.flatMap { description in languages.map { (description, $0) } }
        let threads = 8
        let found = Mutex<[[ObjectIdentifier?]]>(Array(repeating: [], count: threads))
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            // Every thread walks every key, from a different start: most keys are asked for by
            // several threads while the first is still sorting them.
            // By key index, whatever the order asked in (nil: the call failed, reported below).
            var ids = [ObjectIdentifier?](repeating: nil, count: keys.count)
            for k in 0..<keys.count {
                let index = (k + thread * 3) % keys.count
                let (description, language) = keys[index]
                do {
                    ids[index] = ObjectIdentifier(try resolver.fontSet(for: description, pixelSize: 16, language: language))
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            found.withLock { $0[thread] = ids }
        }
        #expect(errors.withLock { $0 }.isEmpty)
        let all = found.withLock { $0 }
        for thread in 1..<threads {
            #expect(all[thread] == all[0], "thread \(thread) got other set objects")
        }
        #expect(Set(all[0].compactMap { $0 }).count == keys.count)
        for (k, (description, language)) in keys.enumerated() {
            let shared = try resolver.fontSet(for: description, pixelSize: 16, language: language)
            #expect(ObjectIdentifier(shared) == all[0][k])
            let lone = try alone.fontSet(for: description, pixelSize: 16, language: language)
            #expect(try shared.preparedFaces().map { "\($0.file)#\($0.index)" } == lone.preparedFaces().map { "\($0.file)#\($0.index)" })
        }
    }

    @Test func distinctSizesStayWithinTheFontBudget() throws {
        let engine = try engine(fontBytes: 1 << 20, styleBytes: 256 << 10)
        for i in 0..<400 {
            _ = try engine.measure(MeasureRequest(text: "Hello", font: "DejaVu Sans \(8 + Double(i) / 16)"))
        }
        for name in ["font-sets", "fonts", "font-faces", "styles"] {
            let cache = try statistics(engine, name)
            #expect(cache.bytes <= cache.byteLimit, "\(name): \(cache.bytes) of \(cache.byteLimit)")
        }
        let sets = try statistics(engine, "font-sets")
        #expect(sets.evictions > 0)
        #expect(sets.entries < 400)
        #expect(try statistics(engine, "styles").evictions > 0)
    }

    @Test func fontCachesReportTheirBytes() throws {
        let engine = try engine(fontBytes: 16 << 20)
        _ = try engine.measure(MeasureRequest(text: "Hello", font: "DejaVu Sans 11"))
        let sets = try statistics(engine, "font-sets")
        let fonts = try statistics(engine, "fonts")
        #expect(sets.entries >= 1)
        // At least the coverage table and one loaded font.
        #expect(sets.bytes >= sets.entries * (2048 + Font.byteCount))
        #expect(fonts.bytes >= fonts.entries * Font.byteCount)
        #expect(try statistics(engine, "font-faces").bytes >= HarfBuzzFace.byteCount)
        #expect(try statistics(engine, "descriptions").entries == 1)
    }

    @Test func releasingTheCachesEmptiesEveryOneAndMeasuresTheSameAfter() throws {
        let engine = try engine(fontBytes: 16 << 20)
        let first = try engine.measure(MeasureRequest(text: "Hello wörld 你好", font: "DejaVu Sans 10", maxWidth: 40))
        #expect(engine.cacheStatistics.contains { $0.entries > 0 })
        engine.releaseCaches()
        for cache in engine.cacheStatistics {
            #expect(cache.entries == 0 && cache.bytes == 0, "\(cache.name): \(cache.entries) entries, \(cache.bytes) bytes")
        }
        let again = try engine.measure(MeasureRequest(text: "Hello wörld 你好", font: "DejaVu Sans 10", maxWidth: 40))
        #expect(again == first)
    }

    @Test func anEvictedSetStillMeasures() throws {
        // A budget that keeps about one set: each new size evicts the one before, while the
        // style (its own cache) still holds it and measures with it.
        let engine = try engine(fontBytes: 256 << 10)
        let first = try engine.measure(MeasureRequest(text: "Hello", font: "DejaVu Sans 10"))
        for size in 11...30 { _ = try engine.measure(MeasureRequest(text: "x", font: "DejaVu Sans \(size)")) }
        #expect(try statistics(engine, "font-sets").evictions > 0)
        engine.removeCachedMeasurements()
        let again = try engine.measure(MeasureRequest(text: "Hello", font: "DejaVu Sans 10"))
        #expect(again == first)
    }

    @Test func aZeroBudgetKeepsNothingButStillMeasures() throws {
        let engine = try engine(fontBytes: 0, styleBytes: 0)
        let metrics = try engine.measure(MeasureRequest(text: "Hello", font: "DejaVu Sans 10"))
        #expect(metrics.width > 0)
        #expect(try statistics(engine, "font-sets").entries == 0)
        #expect(try statistics(engine, "fonts").entries == 0)
        #expect(try statistics(engine, "font-faces").entries == 0)
    }

    @Test func distinctFamiliesAreBoundedToo() throws {
        let engine = try engine(fontBytes: 512 << 10, styleBytes: 128 << 10)
        for i in 0..<300 { _ = try engine.measure(MeasureRequest(text: "a", font: "NoSuchFamily\(i) 10")) }
        for name in ["font-sets", "styles", "descriptions"] {
            let cache = try statistics(engine, name)
            #expect(cache.bytes <= cache.byteLimit, "\(name)")
        }
        #expect(try statistics(engine, "font-sets").evictions > 0)
    }

    /// A style keeps the set of each script it met; its entry in the styles cache grows with
    /// them, so a text of many scripts at many sizes cannot hold sets beyond the budget.
    @Test func aStyleCountsTheScriptSetsItHolds() throws {
        let engine = try engine(fontBytes: 16 << 20)
        _ = try engine.measure(MeasureRequest(text: "Hello", font: "DejaVu Sans 13"))
        let before = try statistics(engine, "styles").bytes
        _ = try engine.measure(MeasureRequest(text: "Hello Привет שלום مرحبا 你好 こんにちは 안녕 😀", font: "DejaVu Sans 13"))
        let after = try statistics(engine, "styles")
        #expect(after.entries == 1)
        // At least one more set (a coverage table of 2 KiB and its faces).
        #expect(after.bytes >= before + 2048 + Font.byteCount, "\(before) → \(after.bytes)")
    }

    @Test func featureListsAreBounded() throws {
        let table = FeatureTable(byteLimit: 4096)
        var ids = Set<Int32>()
        for i in 0..<200 { ids.insert(table.id(of: ["ss\(i % 20)", "kern=\(i)"])) }
        #expect(ids.count == 200)  // never reused
        #expect(table.statistics.bytes <= 4096)
        #expect(table.id(of: ["ss19", "kern=199"]) == table.id(of: ["ss19", "kern=199"]))
    }

    /// What a cached set and its fonts really cost, for the figures in FontSet and Font:
    /// malloc's bytes in use (mallinfo2) around 1,000 distinct sizes. Other tests allocate in
    /// the same process, so this one runs only when asked:
    /// `FIT_MEASURE_MEMORY=1 swift test --filter FontCacheTests/measuredCost`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FIT_MEASURE_MEMORY"] == "1"))
    func measuredCost() throws {
        let engine = try engine(fontBytes: 1 << 30, styleBytes: 1 << 30)
        _ = try engine.measure(MeasureRequest(text: "warm", font: "DejaVu Sans 7"))
        func accounted() -> Int { engine.cacheStatistics.filter { $0.name != "results" && $0.name != "shaped-runs" && $0.name != "paragraphs" }.reduce(0) { $0 + $1.bytes } }
        let count = 1000
        for (label, font) in [("sizes", { (i: Int) in "DejaVu Sans \(20 + Double(i) / 64)" }), ("families", { (i: Int) in "Family\(i) 10" })] {
            let before = fit_malloc_bytes_in_use()
            let accountedBefore = accounted()
            for i in 0..<count { _ = try engine.resolveFont(font(i)) }
            let after = fit_malloc_bytes_in_use()
            let real = (Int(after) - Int(before)) / count
            let counted = (accounted() - accountedBefore) / count
            let sets = try statistics(engine, "font-sets")
            print("\(label): malloc \(real) bytes per entry, accounted \(counted); sets \(sets.entries), \(sets.bytes) bytes; fonts \(try statistics(engine, "fonts").entries)")
            #expect(counted >= real * 8 / 10)
        }
        // Text: distinct sentences, wrapped, fill results, shaped runs and paragraphs.
        func all() -> Int { engine.cacheStatistics.reduce(0) { $0 + $1.bytes } }
        let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
        let before = fit_malloc_bytes_in_use()
        let accountedBefore = all()
        for i in 0..<count {
            let text = (0..<12).map { words[($0 * 7 + i) % 10] + String(i % 97 + $0) }.joined(separator: " ")
            _ = try engine.measure(MeasureRequest(text: text, font: "DejaVu Sans 11", maxWidth: 150, includeLines: i % 2 == 0))
        }
        let real = (Int(fit_malloc_bytes_in_use()) - Int(before)) / count
        let counted = (all() - accountedBefore) / count
        print("texts: malloc \(real) bytes per entry, accounted \(counted)")
        for name in ["results", "shaped-runs", "paragraphs"] { print("  \(name): \(try statistics(engine, name))") }
        #expect(counted >= real * 8 / 10)
    }
}
