import FitLayout
import FitLayoutJSON
import FitText
import FitTestSupport
import Foundation
import Testing

@testable import FitLayoutText

/// The pinned fonts and the real engine (FitTestSupport.PinnedEngine), and the example
/// documents of protocol/examples.
enum Fixture {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let examples = tests.deletingLastPathComponent().appendingPathComponent("protocol/examples")


    static func engine() throws -> TextEngine { try PinnedEngine.engine() }

    static func measurer(_ unit: MeasureUnit = .px) throws -> TextEngineMeasurer {
        TextEngineMeasurer(engine: try engine(), unit: unit)
    }

    /// protocol/examples/<name>.json
    static func document(_ name: String) throws -> LayoutDocument {
        try LayoutDocument(json: [UInt8](Data(contentsOf: examples.appendingPathComponent("\(name).json"))))
    }

    static func layout(
        _ name: String, width: Double?, height: Double? = nil, category: SizeCategory = .large,
        unit: MeasureUnit = .px
    ) throws -> LayoutResult {
        let options = LayoutOptions(sizeCategory: category, unit: unit == .cells ? .cells : .px)
        return try document(name).layout(
            in: ProposedSize(width: width, height: height), options: options, measurer: measurer(unit))
    }

    /// A text's ideal (unwrapped) width as the engine measures it.
    static func width(
        _ string: String, font: LayoutFont = .default, category: SizeCategory = .large, scale: Double = 1,
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
