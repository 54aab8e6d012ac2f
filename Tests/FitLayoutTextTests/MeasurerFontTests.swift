import FitLayout
import FitScale
import FitText
import Testing

@testable import FitLayoutText

/// The font a measurer asks the engine for: written once for the UI font.
@Suite struct MeasurerFontTests {
    @Test func theDefaultFontIsTheUIFontsDescriptionAtItsScale() throws {
        let engine = try Fixture.engine()
        let measurer = TextEngineMeasurer(
            engine: engine, uiFont: UIFont(family: "DejaVu Sans", pointSize: 10.5, source: .explicit), textScale: 1.25)
        #expect(try measurer.font(.default, sizeCategory: .large, scale: 1) == ("DejaVu Sans 10.5", 1.25))
        #expect(try measurer.font(.default, sizeCategory: .large, scale: 0.5) == ("DejaVu Sans 5.25", 1.25))
        #expect(try TextEngineMeasurer(engine: engine).font(.default, sizeCategory: .large, scale: 1) == ("Sans 10", 1))
        #expect(try measurer.font(.style(.headline), sizeCategory: .large, scale: 1) == ("DejaVu Sans Semi-Bold 10.5", 1))
    }
}
