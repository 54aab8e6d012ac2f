import FitTestSupport
import Foundation
import Testing

@testable import FitText

/// The one engine every font-using test shares, set up like the Pango oracle
/// (Tests/oracle/pango_measure.py): the pinned fonts of Tests/fonts/fonts.conf, context
/// language en-us. fontconfig reads FONTCONFIG_FILE when the engine loads its configuration,
/// so the variables are set before the engine exists.
enum TestEngine {
    static var fontsConf: String { PinnedEngine.fontsConf }


    /// The shared engine; a test that needs fonts throws (and so fails) if it could not be made.
    static func engine() throws -> TextEngine { try PinnedEngine.engine() }

    /// An engine of its own, on the pinned fonts, for a test that reads cache counters or
    /// needs caches no other test has filled.
    static func fresh() throws -> TextEngine {
        _ = try engine()  // pins the fonts (FONTCONFIG_FILE) before any engine loads them
        var configuration = TextEngine.Configuration()
        configuration.language = "en-us"
        configuration.preferredLanguages = []
        return try TextEngine(configuration: configuration)
    }

    /// Measures with the shared engine; `font` defaults to DejaVu Sans 10, the base font of
    /// most figures in PANGO_RULES.md.
    static func measure(
        _ text: String, font: String = "DejaVu Sans 10", maxWidth: Double? = nil, wrap: WrapMode = .word,
        maxLines: Int? = nil, ellipsize: EllipsizeMode = .none, features: [String] = [],
        letterSpacing: Double = 0, unit: MeasureUnit = .px, lines: Bool = false, textScale: Double = 1
    ) throws -> TextMetrics {
        try engine().measure(MeasureRequest(
            text: text, font: font, maxWidth: maxWidth, wrap: wrap, maxLines: maxLines, ellipsize: ellipsize,
            features: features, letterSpacing: letterSpacing, unit: unit, includeLines: lines, textScale: textScale))
    }

    /// Measures in terminal cells.
    static func cells(
        _ text: String, maxWidth: Double? = nil, wrap: WrapMode = .word, maxLines: Int? = nil,
        ellipsize: EllipsizeMode = .none
    ) throws -> TextMetrics {
        try measure(text, font: "", maxWidth: maxWidth, wrap: wrap, maxLines: maxLines, ellipsize: ellipsize, unit: .cells, lines: true)
    }

    /// The error a request fails with, or nil if it succeeds.
    static func error(of request: MeasureRequest) throws -> FitTextError? {
        let engine = try engine()
        do throws(FitTextError) {
            _ = try engine.measure(request)
            return nil
        } catch {
            return error
        }
    }
}

/// Pango's tolerance in the oracle's targets (Tests/oracle/README.md): within
/// max(0.5 px, 0.5 %), for figures that depend on rendering details (hex boxes).
func isClose(_ actual: Double, _ expected: Double) -> Bool {
    abs(actual - expected) <= max(0.5, abs(expected) * 0.005)
}
