import ArgumentParser
import FitClient
import FitJSON
import FitProtocol
import FitText

struct ScaleShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the text scale, its source, the size category, the UI font and every text style.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl scale
              fitctl scale show --json
            """))

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
            JSONOutput.print { ScaleJSON.write(info, styles: styles, to: &$0) }
            return
        }
        print("""
            text scale   \(MetricsText.format(info.factor)) (\(info.source)), \(MetricsText.format(info.dpi)) dpi
            category     \(info.category)\(info.sizeCategory?.isAccessibilityCategory == true ? " (accessibility size)" : "")
            UI font      \(info.uiFont)\(info.uiFontSource.map { " (\($0))" } ?? "")
            monospace    \(info.monospaceFont)
            toolkit      \(info.toolkit.map { ToolkitText.describe($0, settings: info.toolkitSettings) } ?? "unknown (an older fitd)")

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
            JSONOutput.print { write(info, to: &$0) }
        } else {
            print("text scale \(MetricsText.format(info.factor)) (\(info.source)), category \(info.category)")
        }
    }

    /// Order: factor, source, category, accessibility_category, dpi, ui_font, monospace_font,
    /// styles (`scale show` only).
    static func write(_ info: TextScaleInfo, styles: [TextStyleRow]? = nil, to w: inout JSONWriter) {
        w.beginObject()
        w.member("factor", info.factor)
        w.member("source", info.source)
        w.member("category", info.category)
        w.member("accessibility_category", info.sizeCategory?.isAccessibilityCategory ?? false)
        w.member("dpi", info.dpi)
        w.member("ui_font", info.uiFont)
        if let source = info.uiFontSource { w.member("ui_font_source", source) }
        if let toolkit = info.toolkit { w.member("toolkit", toolkit) }
        if let settings = info.toolkitSettings { w.member("toolkit_settings", settings) }
        w.member("monospace_font", info.monospaceFont)
        if let styles {
            w.key("styles")
            w.beginArray()
            for row in styles { write(row, to: &w) }
            w.endArray()
        }
        w.endObject()
    }

    /// Order: style, font, point_size, line_height.
    static func write(_ row: TextStyleRow, to w: inout JSONWriter) {
        w.beginObject()
        w.member("style", row.style)
        w.member("font", row.font)
        w.member("point_size", row.pointSize)
        w.member("line_height", row.lineHeight)
        w.endObject()
    }
}

/// A toolkit profile's name with what it rounds, for people: "gtk-4.8 (glyph advances in
/// whole px, line heights unrounded)"; with the user's GtkSettings that change it, "gtk-4.8,
/// gtk-hint-font-metrics=true (glyph advances in whole px, line heights in whole px)".
enum ToolkitText {
    static func describe(_ name: String, settings: String? = nil) -> String {
        guard var profile = try? ToolkitProfile(parsing: name) else { return name }
        if let settings, let parsed = GTKFontRenderingSettings(description: settings) { profile = profile.with(parsed) }
        let rendering = profile.rendering
        let advances = rendering.roundsPositions ? "glyph advances in whole px" : "glyph advances unrounded"
        let heights = rendering.hintsMetrics ? "line heights in whole px" : "line heights unrounded"
        return "\(profile.description) (\(advances), \(heights))"
    }
}
