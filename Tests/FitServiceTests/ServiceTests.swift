import FitBus
import FitClient
import FitLayout
import FitLayoutJSON
import FitProtocol
import FitScale
import FitService
import FitServiceTestSupport
import FitText
import Foundation
import Logging
import Testing

/// FitService through the bus, seen by FitClient in daemon mode: the daemon's answers are the
/// engine's answers, errors arrive by name, statistics and the generation move as they should,
/// and a client survives a daemon restart.
@Suite struct ServiceTests {
    static let hello = MeasureRequest(text: "Hello, world", font: "DejaVu Sans 12")

    @Test func measureEqualsTheEngineInProcess() async throws {
        try await withService { (harness, client) async throws in
            let requests = [
                Self.hello,
                MeasureRequest(
                    text: "The quick brown fox jumps over the lazy dog", font: "Noto Sans 11", maxWidth: 120,
                    maxLines: 2, ellipsize: .end, includeLines: true),
                MeasureRequest(text: "表示名: Zoë 👍🏽", font: "sans-serif 10", unit: .cells),
                MeasureRequest(text: "office 1234", font: "DejaVu Serif 14", features: ["tnum", "-liga"], letterSpacing: 0.5),
            ]
            for request in requests {
                let remote = try await client.measure(request, userTextScale: false)
                let local = try SharedEngine.engine().measure(request)
                #expect(remote.metrics == local, "\(request.text)")
                #expect(remote.generation == harness.service.currentGeneration)
            }
            // Pango's figure (Tests/oracle): the value, not only agreement.
            #expect(try await client.measure(Self.hello).metrics.width == 94.78125)
        }
    }

    @Test func batchCarriesPerEntryErrors() async throws {
        try await withService { (_, client) async throws in
            var bad = Self.hello
            bad.maxWidth = -1
            var badFont = Self.hello
            badFont.font = "DejaVu Sans -3"
            let results = try await client.measureBatch([Self.hello, bad, badFont, Self.hello])
            #expect(results.count == 4)
            #expect(try results[0].get().metrics.width == 94.78125)
            #expect(try results[3].get().metrics == SharedEngine.engine().measure(Self.hello))
            guard case .failure(.rejected(let name, let message)) = results[1] else {
                Issue.record("entry 1 should have failed: \(results[1])")
                return
            }
            #expect(name == FitErrorName.invalidArgument.rawValue)
            #expect(message.contains("max_width"))
            guard case .failure(.rejected(let fontError, _)) = results[2] else {
                Issue.record("entry 2 should have failed: \(results[2])")
                return
            }
            #expect(fontError == FitErrorName.invalidFont.rawValue)
            #expect(try await client.measureBatch([]).isEmpty)
        }
    }

    /// A batch long enough to be spread over workers comes back in request order,
    /// each entry as Measure answers it alone, errors in their places; the same with four
    /// workers (more than this machine's cores) as with one.
    @Test(arguments: [1, 4]) func aBatchSpreadOverWorkersKeepsTheRequestOrder(workers: Int) async throws {
        var limits = ServiceLimits()
        limits.workers = workers
        try await withService(limits: limits) { (_, client) async throws in
            let tag = UUID().uuidString.prefix(8)
            var requests: [MeasureRequest] = []
            for i in 0..<600 {
                var request = MeasureRequest(text: "entry \(i) \(tag) " + String(repeating: "ab ", count: i % 17), font: "DejaVu Sans \(9 + i % 5)")
                request.maxWidth = i % 3 == 0 ? 60 : nil
                if i % 97 == 5 { request.maxWidth = -1 }  // an error in its place
                requests.append(request)
            }
            let results = try await client.measureBatch(requests, userTextScale: false)
            #expect(results.count == requests.count)
            for (request, result) in zip(requests, results) {
                if request.maxWidth == -1 {
                    #expect(throws: FitClientError.self) { try result.get() }
                } else {
                    #expect(try result.get().metrics == (await client.measure(request, userTextScale: false)).metrics)
                }
            }
        }
    }

    /// By default Layout follows the user's text size, as Measure and `fitctl fit`
    /// do; `userSizeCategory: false` lays out at the options' category. Both modes agree.
    @Test func layoutFollowsTheUsersTextSizeByDefault() async throws {
        try await withService { (harness, client) async throws in
            // A text-scale state of its own (a temporary config home), at 2.0 as if set by the user.
            let home = NSTemporaryDirectory() + "/fitd-layout-scale-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: home) }
            let state = TextScaleState(environment: FitScaleEnvironment(configHome: home), desktop: nil, logger: Logger(label: "test"))
            harness.service.attach(textScaleState: state)
            _ = harness.service.apply(await state.reload())
            try await client.setTextScale(2.0)
            // Seed 002's payment row: stacked from accessibilityMedium up (2.0 is accessibilityLarge).
            let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("protocol/examples/payment-row-threshold.json")
            let document = try LayoutDocument(json: Array(try Data(contentsOf: path)))
            let proposal = ProposedSize(width: 600, height: nil)
            let user = try await client.layout(document: document, proposal: proposal)
            var large = LayoutOptions()
            large.sizeCategory = .large
            let atLarge = try await client.layout(document: document, proposal: proposal, options: large, userSizeCategory: false)
            // The snapshot in force says which category the daemon laid out at, should this fail.
            #expect(user.decisions.map(\.axis) == [.vertical],
                "\(user.decisions); in force: \(String(describing: harness.service.textScaleSnapshot)), generation \(harness.service.currentGeneration)")
            #expect(atLarge.decisions.map(\.axis) == [.horizontal], "\(atLarge.decisions)")
        }
    }

    @Test func resolveFontAgreesWithTheEngine() async throws {
        try await withService { (_, client) async throws in
            let remote = try await client.resolveFont("DejaVu Sans Bold 12")
            let local = try SharedEngine.engine().resolveFont("DejaVu Sans Bold 12", textScale: 1)
            #expect(remote.family == "DejaVu Sans")
            #expect(remote.style == "Bold")
            #expect(remote.weight == 700)
            #expect(remote.pixelSize == 16)
            #expect(remote.file.hasSuffix("DejaVuSans-Bold.ttf"))
            #expect(remote.matchedRequestedFamily)
            #expect((remote.family, remote.style, remote.file, remote.ascent, remote.descent)
                == (local.family, local.style, local.file, local.ascent, local.descent))
            #expect(remote.fallbackFamilies == local.fallbackFamilies)

            let substituted = try await client.resolveFont("No Such Family 12")
            #expect(!substituted.matchedRequestedFamily)
            #expect(substituted.family == "DejaVu Sans")
        }
    }

    @Test func statisticsMove() async throws {
        try await withService { (_, client) async throws in
            let before = try await client.statistics()
            // A text no other test measures, so the first is a miss and the second a hit.
            let request = MeasureRequest(text: "statistics \(UUID().uuidString)", font: "DejaVu Sans 10")
            _ = try await client.measure(request)
            _ = try await client.measure(request)
            _ = try await client.measureBatch([request, request, request])
            let after = try await client.statistics()
            #expect(after.requestsServed == before.requestsServed + 5)
            #expect(after.uptimeSeconds > before.uptimeSeconds)
            let cache = { (s: ServiceStatistics, name: String) in s.caches.first { $0.name == name } }
            let (was, now) = (try #require(cache(before, "results")), try #require(cache(after, "results")))
            #expect(now.misses >= was.misses + 1)
            // No count of entries: tests running beside this one share the byte-bounded cache,
            // so it may evict more than this adds; the hits below show the result was kept.
            // The repeated Measure is answered from the bytes of the call (measure-replies),
            // the batch's three from the engine's results.
            #expect(now.hits >= was.hits + 3)
            let (keptBefore, keptAfter) = (try #require(cache(before, "measure-replies")), try #require(cache(after, "measure-replies")))
            #expect(keptAfter.hits == keptBefore.hits + 1)
        }
    }

    @Test func repeatedLayoutIsAnsweredFromKeptRepliesUntilTheGenerationMoves() async throws {
        try await withService { (harness, client) async throws in
            var title = LayoutProperties()
            title.text = "Kept replies \(UUID().uuidString)"
            title.font = "DejaVu Sans 12"
            let document = LayoutDocument(nodes: [
                LayoutNode(id: "row", kind: .hstack),
                LayoutNode(id: "title", parent: .id("row"), kind: .text, properties: title),
                LayoutNode(id: "gap", parent: .id("row"), kind: .spacer),
            ])
            let proposal = ProposedSize(width: 320, height: nil)
            func counts() async throws -> (kept: CacheStatistics, layouts: CacheStatistics) {
                let caches = try await client.statistics().caches
                return (try #require(caches.first { $0.name == "layout-replies" }), try #require(caches.first { $0.name == "layouts" }))
            }
            let first = try await client.layout(document: document, proposal: proposal)
            let afterFirst = try await counts()
            // The same call again: answered from the kept reply; the layout service never sees it.
            #expect(try await client.layout(document: document, proposal: proposal) == first)
            let afterRepeat = try await counts()
            #expect(afterRepeat.kept.hits == afterFirst.kept.hits + 1)
            #expect(afterRepeat.layouts.hits + afterRepeat.layouts.misses == afterFirst.layouts.hits + afterFirst.layouts.misses)
            // Another proposal is another call.
            _ = try await client.layout(document: document, proposal: ProposedSize(width: 200, height: nil))
            #expect(try await counts().kept.misses == afterRepeat.kept.misses + 1)
            // A new generation (fonts or scale changed): nothing kept before it is served.
            _ = harness.service.bumpGeneration()
            #expect(try await client.layout(document: document, proposal: proposal) == first)
            let afterBump = try await counts()
            #expect(afterBump.kept.hits == afterRepeat.kept.hits)
            #expect(afterBump.layouts.misses == afterRepeat.layouts.misses + 2)
        }
    }

    /// A forEach document travels compact (4 nodes) and comes back as its expansion (1 + 3 × 2
    /// frames), the same as the expansion sent written out.
    @Test func forEachRowsAreExpandedByTheDaemon() async throws {
        try await withService { (_, client) async throws in
            var rows = LayoutProperties()
            rows.fields = ["label"]
            rows.data = ["One", "Two", "Three"]
            var label = LayoutProperties()
            label.text = "{label}"
            label.font = "DejaVu Sans 12"
            var padding = LayoutProperties()
            padding.length = 4
            let document = LayoutDocument(nodes: [
                LayoutNode(id: "list", kind: .vstack),
                LayoutNode(id: "rows", parent: .id("list"), kind: .forEach, properties: rows),
                LayoutNode(id: "pad", parent: .id("rows"), kind: .padding, properties: padding),
                LayoutNode(id: "label", parent: .id("pad"), kind: .text, properties: label),
            ])
            let result = try await client.layout(document: document, proposal: ProposedSize(width: 320, height: nil))
            #expect(result.nodes.map(\.id) == ["list", "pad#0", "label#0", "pad#1", "label#1", "pad#2", "label#2"])
            // The same as sending the expansion written out.
            let expanded = try PreparedLayout(document).document
            #expect(expanded.nodes.count == 7)
            let written = try await client.layout(document: expanded, proposal: ProposedSize(width: 320, height: nil))
            #expect(result.nodes == written.nodes)
            #expect((result.frame("label#2")?.y ?? 0) > (result.frame("label#1")?.y ?? 0))
        }
    }

    @Test func generationPropertyAndResults() async throws {
        try await withService { (harness, client) async throws in
            #expect(try await client.generation() == 1)
            #expect(try await client.measure(Self.hello).generation == 1)
            let next = harness.service.bumpGeneration()
            #expect(next == 2)
            #expect(try await client.generation() == 2)
            #expect(try await client.measure(Self.hello).generation == 2)
            #expect(try await client.version() == FitService.version)
        }
    }

    @Test func errorsArriveByName() async throws {
        try await withService(limits: {
            var limits = ServiceLimits()
            limits.maxBatchRequests = 2
            limits.maxTextBytes = 100
            return limits
        }()) { (_, client) async throws in
            var unknown = Self.hello
            unknown.maxWidth = .nan
            await #expect(throws: FitClientError.rejected(
                name: FitErrorName.invalidArgument.rawValue,
                message: "invalid max_width: nan is not a finite number; omit it for no wrapping")) {
                _ = try await client.measure(unknown)
            }
            let long = MeasureRequest(text: String(repeating: "x", count: 101), font: "DejaVu Sans 10")
            let error = await #expect(throws: FitClientError.self) { _ = try await client.measure(long) }
            guard case .rejected(let name, let message)? = error else { return }
            #expect(name == FitErrorName.tooLarge.rawValue)
            #expect(message.contains("100") && message.contains("max_text_bytes"))

            let batchError = await #expect(throws: FitClientError.self) {
                _ = try await client.measureBatch([Self.hello, Self.hello, Self.hello])
            }
            guard case .rejected(let batchName, let batchMessage)? = batchError else { return }
            #expect(batchName == FitErrorName.tooLarge.rawValue)
            #expect(batchMessage.contains("the limit is 2"))
            #expect(try await client.measureBatch([Self.hello, Self.hello]).count == 2)
        }
    }
}
