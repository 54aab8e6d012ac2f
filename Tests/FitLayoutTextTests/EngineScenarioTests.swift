import FitLayout
import FitScale
import FitText
import Testing

@testable import FitLayoutText

/// The scenarios of protocol/examples through the real TextEngine and the pinned fonts.
/// Expected frames are derived from what the engine measures, never typed in.
@Suite struct EngineScenarioTests {
    @Test func cardIsARowWhileTheLabelFitsBesideTheIconThenAColumn() throws {
        let measurer = try Fixture.measurer()
        let icon = try measurer.lineHeight(of: .style(.body), sizeCategory: .large)
        let label = try Fixture.width("Screen time this week", font: .style(.body))
        let rowWidth = icon + 8 + label

        let fits = try Fixture.layout("first-fit-card", width: rowWidth)
        #expect(fits.decision("card")?.candidateID == "row")
        #expect(same(fits.frame("rowLabel")?.width, label))
        #expect(same(fits.frame("rowIcon")?.width, icon) && same(fits.frame("rowIcon")?.height, icon))
        #expect(same(fits.size.width, rowWidth))

        let short = try Fixture.layout("first-fit-card", width: rowWidth - 1)
        #expect(short.decision("card")?.candidateID == "column")
        #expect(short.node("rowLabel")?.visible == false && short.node("columnLabel")?.visible == true)

        // The same width, with the text grown by the size category: no longer a row.
        let grown = try Fixture.width("Screen time this week", font: .style(.body), category: .xxxLarge)
        #expect(grown > label)
        #expect(try Fixture.layout("first-fit-card", width: rowWidth, category: .xxxLarge).decision("card")?.candidateID == "column")
    }

    @Test func oneLongItemSwitchesTheWholeList() throws {
        let books = try Fixture.width("Books"), games = try Fixture.width("Games"), long = try Fixture.width("Productivity")
        let widest = 20 + 8 + long
        let rows = try Fixture.layout("uniform-list", width: widest)
        #expect(rows.decision("list")?.candidate == 0)
        #expect(rows.node("rowLabel2")?.visible == true)
        #expect(same(rows.frame("rowLabel2")?.width, long))

        // Books and Games would fit as rows; Productivity would not, so none is a row.
        let narrow = widest - 1
        #expect(20 + 8 + max(books, games) <= narrow)
        let columns = try Fixture.layout("uniform-list", width: narrow)
        #expect(columns.decision("list")?.candidate == 1)
        for item in 0..<3 {
            #expect(columns.node("row\(item)")?.visible == false)
            #expect(columns.node("col\(item)")?.visible == true)
            #expect(columns.decision("item\(item)")?.candidate == 1)
        }
    }

    @Test func paymentRowStacksAtAccessibilityMediumAndLosesItsSpacer() throws {
        let row = try Fixture.layout("payment-row-threshold", width: 400, category: .xxxLarge)
        #expect(row.decision("payment")?.axis == .horizontal)
        #expect(row.node("gap")?.visible == true)
        // The spacer takes the rest: the amount ends at the proposed width.
        #expect(same(row.frame("amount")?.maxX, 400))
        #expect(same(row.frame("amount")?.width, try Fixture.width("$2.34", font: .style(.body), category: .xxxLarge)))

        let stacked = try Fixture.layout("payment-row-threshold", width: 400, category: .accessibilityMedium)
        #expect(stacked.decision("payment")?.axis == .vertical)
        #expect(stacked.node("gap")?.visible == false)
        let icon = try #require(stacked.frame("icon"))
        #expect(same(stacked.frame("merchant")?.y, icon.maxY + 8))
        #expect(stacked.frame("amount")?.x == 0)
    }

    @Test func fittingColumnIsAsWideAsItsLongestLabelAndNoWider() throws {
        let long = try Fixture.width("Some Much Longer Text")
        #expect(long > (try Fixture.width("Some Text")))
        let result = try Fixture.layout("fitting-column", width: 600)
        #expect(same(result.decision("column")?.length, long))
        #expect(same(result.frame("row1")?.width, long))
        #expect(same(result.frame("row2")?.width, long))
        #expect(same(result.size.width, long))
    }

    @Test func allSevenHeartRateCellsTakeTheWidthOf190() throws {
        let reserved = try Fixture.width("190")
        let result = try Fixture.layout("heart-rate-template", width: 600)
        for day in 0..<7 {
            #expect(same(result.frame("slot\(day)")?.width, reserved))
            #expect(same(result.frame("cell\(day)")?.width, reserved + 8))
            if day > 0 {
                #expect(same(result.frame("cell\(day)")?.x, (result.frame("cell\(day - 1)")?.maxX ?? 0) + 4))
            }
        }
        // The values are narrower (or as wide) and sit inside their reserved slot.
        #expect((result.frame("rate6")?.width ?? .infinity) < reserved)
        #expect(same(result.frame("rate1")?.width, reserved))
    }

    @Test func heartRateCellsInTerminalCells() throws {
        // 7 × (3 + 2 × 4) + 6 × 4 = 101 columns hold the row unwrapped.
        let result = try Fixture.layout("heart-rate-template", width: 101, unit: .cells)
        for day in 0..<7 { #expect(result.frame("slot\(day)")?.width == 3) }
        #expect(result.size.height == 1 + 8)
    }

    @Test func exposureLabelsShrinkTogetherToTheLargestFactorThatFits() throws {
        let texts = ["1/1000s", "ISO 3200", "f/2.8"]
        func natural(_ scale: Double) throws -> Double {
            try texts.reduce(20) { $0 + (try Fixture.width($1, scale: scale)) }
        }
        let full = try natural(1)
        #expect(try Fixture.layout("exposure-scale-group", width: full).decision("exposure")?.scale == 1)

        let width = (full - 20) * 0.75 + 20
        let result = try Fixture.layout("exposure-scale-group", width: width)
        let scale = try #require(result.decision("exposure")?.scale)
        #expect(scale > 0.5 && scale < 1)
        for id in ["shutter", "iso", "aperture"] { #expect(result.node(id)?.text?.scale == scale) }
        #expect(result.node("shutterSlot")?.text?.scale == scale)
        // The largest on a grid finer than 1/100: a step of 1/100 more no longer fits.
        #expect(try natural(scale) <= width + 1e-9)
        #expect(try natural(scale + 0.01) > width)
        #expect(!result.truncated)

        // Too narrow even at the minimum: the factor stops at 0.5 and the labels truncate.
        let cramped = try Fixture.layout("exposure-scale-group", width: (try natural(0.5)) * 0.6)
        #expect(cramped.decision("exposure")?.scale == 0.5)
        #expect(cramped.truncated)
    }

    @Test func iconFollowsTheBodyStyle() throws {
        func bodyLine(_ category: SizeCategory) -> Double {
            TextStyleFont.resolve(.body, uiFont: TextEngineMeasurer.defaultUIFont, category: category).lineHeightPixels
        }
        let large = try Fixture.layout("icon-body-style", width: nil)
        #expect(same(large.frame("icon")?.height, bodyLine(.large)))
        #expect(same(large.frame("icon")?.width, bodyLine(.large)))
        let bigger = try Fixture.layout("icon-body-style", width: nil, category: .accessibilityLarge)
        #expect(same(bigger.frame("icon")?.height, bodyLine(.accessibilityLarge)))
        #expect((bigger.frame("icon")?.height ?? 0) > (large.frame("icon")?.height ?? .infinity))
        // The label beside it grew too.
        #expect((bigger.frame("label")?.width ?? 0) > (large.frame("label")?.width ?? .infinity))
    }
}

@Suite struct TextEngineMeasurerTests {
    @Test func aScaleFactorShrinksTheFontNotTheTextScale() throws {
        let measurer = try Fixture.measurer()
        let text = LayoutText("Exposure", font: .description("DejaVu Sans 20"))
        let full = try measurer.measure(text, proposedWidth: nil, scale: 1).width
        // 0.1 is below TextLimits.textScaleRange: the size is rewritten instead.
        let tenth = try measurer.measure(text, proposedWidth: nil, scale: 0.1).width
        #expect(abs(tenth - full / 10) < full * 0.05)
    }

    @Test func aLineLimitTruncatesAtTheTruncationMode() throws {
        let measurer = try Fixture.measurer()
        let text = LayoutText("A rather long label", lineLimit: 1, truncation: .middle)
        let measured = try measurer.measure(text, proposedWidth: 40, scale: 1)
        #expect(measured.truncated && measured.lineCount == 1 && measured.width <= 40)
        let wrapped = try measurer.measure(LayoutText("A rather long label"), proposedWidth: 40, scale: 1)
        #expect(!wrapped.truncated && wrapped.lineCount > 1 && wrapped.width <= 40)
    }

    @Test func aBadFontIsAMeasurementErrorNamingTheNode() throws {
        let document = LayoutDocument(nodes: [
            LayoutNode(id: "stack", kind: .vstack),
            LayoutNode(id: "label", parent: "stack", kind: .text, properties: .init(text: "x", font: "Sans 99999")),
        ])
        let measurer = try Fixture.measurer()
        var failure: LayoutError?
        do throws(LayoutError) {
            _ = try document.layout(in: .unspecified, measurer: measurer)
        } catch {
            failure = error
        }
        guard case .measurementFailed(let node, _)? = failure else {
            Issue.record("expected measurementFailed, got \(String(describing: failure))")
            return
        }
        #expect(node == NodeLocation(index: 1, id: "label"))
    }

    @Test func uiFontComesFromTheOptions() throws {
        let engine = try Fixture.engine()
        let measurer = try TextEngineMeasurer(engine: engine, options: LayoutOptions(uiFont: "DejaVu Sans 22"))
        #expect(measurer.uiFont.family == "DejaVu Sans" && measurer.uiFont.pointSize == 22)
        let big = try measurer.measure(LayoutText("Hello"), proposedWidth: nil, scale: 1).width
        let normal = try Fixture.width("Hello")
        #expect(big > normal * 1.8)
        #expect(throws: LayoutError.self) { try TextEngineMeasurer(engine: engine, options: LayoutOptions(uiFont: "12")) }
    }

    @Test func theLastBaselineIsTheEnginesLastLineNotAnEqualLinesEstimate() throws {
        // A large last line (markup size): the lines differ in height, so the last baseline is
        // the engine's own, not height − (height / lines − first baseline).
        let engine = try Fixture.engine()
        var options = LayoutOptions(uiFont: "DejaVu Sans 10")
        options.markup = true
        let measurer = try TextEngineMeasurer(engine: engine, options: options)
        let text = "small\n<span size='xx-large'>BIG</span>"
        let measured = try measurer.measure(LayoutText(text), proposedWidth: nil, scale: 1)
        var request = MeasureRequest(text: text, font: "DejaVu Sans 10", wrap: .wordChar, includeLines: true)
        request.markup = true
        let lines = try engine.measure(request).lines
        #expect(measured.lineCount == 2 && lines.count == 2)
        let last = try #require(lines.last?.baseline)
        #expect(abs(measured.lastBaseline - last) < 1e-9)
        let estimate = measured.height - (measured.height / 2 - measured.baseline)
        #expect(abs(estimate - last) > 1)
    }

    @Test func markupOptionMeasuresTextsAsMarkup() throws {
        let engine = try Fixture.engine()
        var options = LayoutOptions(uiFont: "DejaVu Sans 10")
        let plain = try TextEngineMeasurer(engine: engine, options: options)
        options.markup = true
        let marked = try TextEngineMeasurer(engine: engine, options: options)
        // Pango: "<b>Save</b> changes" in DejaVu Sans 10 is 96.58 px; as text, the tags show.
        let width = try marked.measure(LayoutText("<b>Save</b> changes"), proposedWidth: nil, scale: 1).width
        #expect(abs(width - 96.58) < 0.01)
        #expect(try plain.measure(LayoutText("<b>Save</b> changes"), proposedWidth: nil, scale: 1).width > 150)
        #expect(LayoutCacheKey(document: LayoutDocument(nodes: []), proposal: ProposedSize(width: 1, height: 1), options: options).digest
            != LayoutCacheKey(document: LayoutDocument(nodes: []), proposal: ProposedSize(width: 1, height: 1), options: LayoutOptions(uiFont: "DejaVu Sans 10")).digest)
    }
}
