import FitLayout
import FitText
import Foundation
import Testing

@testable import FitLayoutText

/// The layout engine answers a text proposed at least its unwrapped width with its unwrapped
/// measurement (LayoutContext.unwrapped). That is only right if the engine agrees: here every
/// text of the oracle corpus, in its font, in px and in cells, with no line limit and with
/// limits of 1 and 2, at two scales, is measured unwrapped and then at exactly that width, a
/// hair wider and much wider — each must be the same measurement.
struct UnwrappedReuseContractTests {
    struct Entry: Decodable {
        var text: String
        var font: String?
    }

    static func corpus() throws -> [Entry] {
        let url = Fixture.tests.appendingPathComponent("oracle/corpus.jsonl")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        // Its bad-input entries (a number for a text…) are not texts: left out.
        let entries = lines.compactMap { try? JSONDecoder().decode(Entry.self, from: Data($0.utf8)) }
        #expect(entries.count > 1_600)
        return entries
    }

    @Test(arguments: [MeasureUnit.px, .cells])
    func aTextThatFitsUnwrappedMeasuresTheSameAtAnyWiderProposal(unit: MeasureUnit) throws {
        let measurer = TextEngineMeasurer(engine: try Fixture.engine(), unit: unit)
        var compared = 0
        for entry in try Self.corpus() {
            for limit in [nil, 1, 2] as [Int?] {
                for scale in [1.0, 0.7] {
                    let text = LayoutText(entry.text, font: entry.font.map(LayoutFont.description) ?? .default, lineLimit: limit)
                    // The corpus's bad-input entries: refused alike at every width.
                    guard let unwrapped = try? measurer.measure(text, proposedWidth: nil, scale: scale) else { continue }
                    // What LayoutContext keeps: nothing taken by the line limit.
                    guard !unwrapped.truncated, limit.map({ unwrapped.lineCount <= $0 }) ?? true else { continue }
                    for extra in [0, 0.0004, 0.4, 50] {
                        let wider = try measurer.measure(text, proposedWidth: unwrapped.width + extra, scale: scale)
                        #expect(wider == unwrapped, "\(entry.text.debugDescription) in \(entry.font ?? "the UI font"), limit \(String(describing: limit)), scale \(scale), +\(extra)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 10_000)
    }

    /// Where the engine does not keep the contract, the measurer says so and the layout
    /// measures again: markup letter spacing (trimmed from the reported width, not from what
    /// the breaker compares: at its own width the text breaks) and widths past the engine's
    /// limit (a proposal wider than TextLimits.maxWidth is measured at the limit).
    @Test func theMeasurerRefusesTheReuseWhereTheEngineBreaksAtTheTextsOwnWidth() throws {
        var measurer = TextEngineMeasurer(engine: try Fixture.engine())
        #expect(measurer.reusesUnwrapped(width: 120))
        #expect(!measurer.reusesUnwrapped(width: TextLimits.maxWidth * 2))
        measurer.markup = true
        let text = LayoutText(#"<span letter_spacing="3072">Save</span> changes"#)
        let unwrapped = try measurer.measure(text, proposedWidth: nil, scale: 1)
        let atItsWidth = try measurer.measure(text, proposedWidth: unwrapped.width, scale: 1)
        #expect(atItsWidth.lineCount > unwrapped.lineCount)
        #expect(!measurer.reusesUnwrapped(width: unwrapped.width))
    }
}
