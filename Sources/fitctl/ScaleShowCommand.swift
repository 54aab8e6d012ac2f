import ArgumentParser
import FitClient
import FitProtocol

struct ScaleShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the text scale, its source, the size category, the UI font and every text style.",
        discussion: """
            Examples:
              fitctl scale
              fitctl scale show --json
            """)

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await ClientFactory.make(common)
        let info: TextScaleInfo
        let styles: [TextStyleRow]
        do {
            info = try await client.textScale()
            styles = try await client.textStyles(category: nil)
        } catch {
            throw CommandFailure(error.description)
        }
        if common.json {
            print(JSONOutput.string(ScaleJSON.object(info, styles: styles)))
            return
        }
        print("""
            text scale   \(MetricsText.format(info.factor)) (\(info.source)), \(MetricsText.format(info.dpi)) dpi
            category     \(info.category)\(info.sizeCategory?.isAccessibilityCategory == true ? " (accessibility size)" : "")
            UI font      \(info.uiFont)
            monospace    \(info.monospaceFont)

            style        size pt  line px  font
            """)
        for style in styles {
            print(style.style.padding(13) + MetricsText.format(style.pointSize).leftPadding(7) + MetricsText.format(style.lineHeight).leftPadding(9) + "  " + style.font)
        }
    }
}

/// The JSON objects `fitctl scale --json` and `fitctl watch --json` print.
enum ScaleJSON {
    /// The one-line answer of `scale set` and `scale reset`: what is in force now.
    static func printSummary(_ info: TextScaleInfo, json: Bool) {
        if json {
            print(JSONOutput.string(object(info)))
        } else {
            print("text scale \(MetricsText.format(info.factor)) (\(info.source)), category \(info.category)")
        }
    }

    static func object(_ info: TextScaleInfo, styles: [TextStyleRow]? = nil) -> [String: Any] {
        var object: [String: Any] = [
            "factor": info.factor, "source": info.source, "category": info.category, "dpi": info.dpi,
            "ui_font": info.uiFont, "monospace_font": info.monospaceFont,
            "accessibility_category": info.sizeCategory?.isAccessibilityCategory ?? false,
        ]
        if let styles { object["styles"] = styles.map(style) }
        return object
    }

    static func style(_ row: TextStyleRow) -> [String: Any] {
        ["style": row.style, "font": row.font, "point_size": row.pointSize, "line_height": row.lineHeight]
    }
}
