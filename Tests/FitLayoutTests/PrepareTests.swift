import Synchronization
import Testing

@testable import FitLayout

/// A measurer that records what the layout hands it ahead (LayoutTextMeasurer.prepare) and
/// otherwise measures as FixedAdvanceMeasurer does.
private final class RecordingMeasurer: LayoutTextMeasurer {
    let inner = FixedAdvanceMeasurer()
    let prepared = Mutex<[[String]]>([])
    func measure(_ text: LayoutText, proposedWidth: Double?, scale: Double) throws(LayoutError) -> MeasuredText {
        try inner.measure(text, proposedWidth: proposedWidth, scale: scale)
    }
    func lineHeight(of font: LayoutFont, sizeCategory: ContentSizeCategory) throws(LayoutError) -> Double {
        try inner.lineHeight(of: font, sizeCategory: sizeCategory)
    }
    func prepare(_ texts: [LayoutText]) {
        prepared.withLock { $0.append(texts.map(\.string)) }
    }
}

@Suite struct PrepareTests {
    /// Issue 14: a layout of many texts gives the measurer all of them at once before it
    /// asks for any, so a measurer with caches can measure them on every core; the layout is
    /// the same as without.
    @Test func aLayoutOfManyTextsHandsThemAllToTheMeasurerFirst() throws {
        var nodes = [node("list", nil, .vstack)]
        for i in 0..<12 { nodes.append(text("t\(i)", "list", "row \(i)")) }
        let measurer = RecordingMeasurer()
        let document = try LayoutDocument(nodes: nodes)
        let result = try document.layout(in: ProposedSize(width: 200, height: nil), measurer: measurer)
        #expect(measurer.prepared.withLock { $0 } == [(0..<12).map { "row \($0)" }])
        #expect(result == (try document.layout(in: ProposedSize(width: 200, height: nil), measurer: FixedAdvanceMeasurer())))
    }

    @Test func aFewTextsAreMeasuredAsTheLayoutGoes() throws {
        let measurer = RecordingMeasurer()
        _ = try LayoutDocument(nodes: [node("row", nil, .hstack), text("a", "row", "OK"), text("b", "row", "Cancel")])
            .layout(in: ProposedSize(width: 200, height: nil), measurer: measurer)
        #expect(measurer.prepared.withLock { $0 }.isEmpty)
    }
}
