import CFitShims
import FitBus
import FitLayout
import FitProtocol
import FitTestSupport
import Foundation
import Testing

@testable import FitService

/// What a cached layout really costs, against what the caches count for it (the `layouts`
/// cache's LayoutService.estimatedBytes, and the engine's for texts laid out at a new width):
/// malloc's bytes in use (mallinfo2) around many entries, each another proposal of the same
/// document. Other tests allocate in the same process, so this
/// runs only when asked: `FIT_MEASURE_MEMORY=1 swift test --filter LayoutCacheCostTests`.
@Suite struct LayoutCacheCostTests {
    /// `picks` firstFits of two images each, then `fillers` images: the shape of the hostile
    /// layouts in Tests/Reliability/bad_input_classes.py.
    static func flips(picks: Int, fillers: Int) -> LayoutDocument {
        var nodes = [LayoutNode(id: "root", kind: .vstack)]
        func image(_ id: String, _ parent: String, width: Double) -> LayoutNode {
            var size = LayoutProperties()
            size.width = width
            size.height = 1
            return LayoutNode(id: id, parent: .id(parent), kind: .image, properties: size)
        }
        for k in 0..<picks {
            nodes.append(LayoutNode(id: "pick\(k)", parent: .id("root"), kind: .firstFit))
            nodes.append(image("wide\(k)", "pick\(k)", width: 100 + 20 * Double(k)))
            nodes.append(image("narrow\(k)", "pick\(k)", width: 1))
        }
        for k in 0..<fillers { nodes.append(image("f\(k)", "root", width: 1)) }
        return LayoutDocument(nodes: nodes)
    }

    static func texts(_ count: Int) -> LayoutDocument {
        var nodes = [LayoutNode(id: "root", kind: .vstack)]
        for k in 0..<count {
            var label = LayoutProperties()
            label.text = "Label number \(k) of the settings list"
            label.font = "DejaVu Sans 11"
            nodes.append(LayoutNode(id: "t\(k)", parent: .id("root"), kind: .text, properties: label))
        }
        return LayoutDocument(nodes: nodes)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["FIT_MEASURE_MEMORY"] == "1"))
    func measuredCost() async throws {
        let engine = try PinnedEngine.freshEngine()
        let service = LayoutService(engine: engine, cacheBytes: 1 << 30)
        // Every cache: a text laid out at another width is another result in the engine's.
        func accounted() -> Int { service.statistics.bytes + engine.cacheStatistics.reduce(0) { $0 + $1.bytes } }
        var options = LayoutOptions()
        options.breakpoints = BreakpointRange(from: 0, to: 2000)
        for (label, document, count) in [
            ("3,000 nodes, 40 firstFits, breakpoints", Self.flips(picks: 40, fillers: 3000 - 121), 20),
            ("50 texts, breakpoints", Self.texts(50), 200),
        ] {
            let encoded = try LayoutCodec.encode(document)
            func call(_ width: Double) async throws {
                _ = try await service.layout(
                    [encoded, LayoutCodec.encode(ProposedSize(width: width, height: nil)), LayoutCodec.options(of: options, sendSizeCategory: true)],
                    textScale: 1, generation: 1)
            }
            try await call(1)  // the texts measured and the fonts loaded: the engine's, not the entry's
            let before = fit_malloc_bytes_in_use()
            let accountedBefore = accounted()
            for i in 0..<count { try await call(100 + Double(i)) }
            let real = (Int(fit_malloc_bytes_in_use()) - Int(before)) / count
            let counted = (accounted() - accountedBefore) / count
            print("\(label): malloc \(real) bytes per entry, accounted \(counted)")
            #expect(counted >= real * 8 / 10, "\(label)")
        }
    }
}
