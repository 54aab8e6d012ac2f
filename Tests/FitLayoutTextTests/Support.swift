import FitLayout
import FitText
import Foundation
import Testing

@testable import FitLayoutText

/// The pinned fonts (Tests/fonts/fonts.conf) and the real engine, set up as FitTextTests'
/// TestEngine does: fontconfig reads FONTCONFIG_FILE when the engine loads its configuration,
/// so the variables are set before the engine exists.
enum Fixture {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let examples = tests.deletingLastPathComponent().appendingPathComponent("protocol/examples")

    private static let made: Result<TextEngine, FitTextError> = {
        setenv("FONTCONFIG_FILE", tests.appendingPathComponent("fonts/fonts.conf").path, 1)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("fitd-tests-cache")
        try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        setenv("XDG_CACHE_HOME", cache.path, 1)
        var configuration = TextEngine.Configuration()
        configuration.language = "en-us"
        return Result { () throws(FitTextError) -> TextEngine in try TextEngine(configuration: configuration) }
    }()

    static func engine() throws -> TextEngine { try made.get() }

    static func measurer(_ unit: MeasureUnit = .px) throws -> TextEngineMeasurer {
        TextEngineMeasurer(engine: try engine(), unit: unit)
    }

    /// protocol/examples/<name>.json
    static func document(_ name: String) throws -> LayoutDocument {
        try LayoutDocument(json: [UInt8](Data(contentsOf: examples.appendingPathComponent("\(name).json"))))
    }

    static func layout(
        _ name: String, width: Double?, height: Double? = nil, category: ContentSizeCategory = .large,
        unit: MeasureUnit = .px
    ) throws -> LayoutResult {
        let options = LayoutOptions(sizeCategory: category, unit: unit == .cells ? .cells : .px)
        return try document(name).layout(
            in: ProposedSize(width: width, height: height), options: options, measurer: measurer(unit))
    }

    /// A text's ideal (unwrapped) width as the engine measures it.
    static func width(
        _ string: String, font: LayoutFont = .default, category: ContentSizeCategory = .large, scale: Double = 1,
        unit: MeasureUnit = .px
    ) throws -> Double {
        try measurer(unit).measure(LayoutText(string, font: font, sizeCategory: category), proposedWidth: nil, scale: scale).width
    }
}

/// Frames are sums of measured widths, so equal up to rounding in the sums.
func same(_ a: Double?, _ b: Double?) -> Bool {
    guard let a, let b else { return false }
    return abs(a - b) < 1e-6
}
