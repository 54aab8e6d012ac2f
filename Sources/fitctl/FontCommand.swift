import ArgumentParser
import FitClient
import FitText

struct FontCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "font",
        abstract: "Show what a font description resolves to: family, style, file, size and fallbacks.",
        discussion: """
            Examples:
              fitctl font "Sans Bold 12"
              fitctl font "monospace 14px" --json
              fitctl font "No Such Family 11"     # says what fontconfig used instead
            """)

    @OptionGroup var common: CommonOptions

    @Argument(help: "A Pango font description.")
    var description: String

    func run() async throws {
        let client = try await ClientFactory.make(common)
        let font: ResolvedFont
        do {
            font = try await client.resolveFont(description)
        } catch {
            throw CommandFailure(error.description)
        }
        if !font.matchedRequestedFamily { FontSubstitution.warning(description, used: font.family) }
        if common.json {
            print(JSONOutput.string([
                "substituted": !font.matchedRequestedFamily,
                "description": font.description, "family": font.family, "style": font.style, "weight": font.weight,
                "file": font.file, "index": font.index, "pixel_size": font.pixelSize, "point_size": font.pointSize,
                "ascent": font.ascent, "descent": font.descent, "matched_requested_family": font.matchedRequestedFamily,
                "fallback_families": font.fallbackFamilies,
            ]))
            return
        }
        var out = """
            description  \(font.description)
            family       \(font.family)\(font.matchedRequestedFamily ? "" : "  (the requested family is not installed; fontconfig substituted it)")
            style        \(font.style) (weight \(MetricsText.format(font.weight)))
            file         \(font.file)\(font.index != 0 ? " #\(font.index)" : "")
            size         \(MetricsText.format(font.pixelSize)) px (\(MetricsText.format(font.pointSize)) pt)
            ascent       \(MetricsText.format(font.ascent)) px, descent \(MetricsText.format(font.descent)) px
            """
        let shown = font.fallbackFamilies.prefix(12)
        out += "\nfallbacks    \(shown.joined(separator: ", "))"
        if font.fallbackFamilies.count > shown.count { out += ", … (\(font.fallbackFamilies.count - shown.count) more)" }
        print(out)
    }
}
