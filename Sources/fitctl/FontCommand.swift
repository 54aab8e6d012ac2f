import ArgumentParser
import FitClient
import FitJSON
import FitText

struct FontCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "font",
        abstract: "Show what a font description resolves to: family, style, file, size and fallbacks.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl font "Sans Bold 12"
              fitctl font "monospace 14px" --json
              fitctl font "No Such Family 11"     # says what fontconfig used instead
            """))

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
        // Which GTK measurements reproduce by default (an older daemon does not say).
        let scale = try? await client.textScale()
        let toolkit = scale?.toolkit
        if common.json {
            // Order: description, family, style, weight, file, index, pixel_size, point_size,
            // ascent, descent, matched_requested_family, substituted, fallback_families.
            JSONOutput.print { w in
                w.beginObject()
                w.member("description", font.description)
                w.member("family", font.family)
                w.member("style", font.style)
                w.member("weight", font.weight)
                w.member("file", font.file)
                w.member("index", font.index)
                w.member("pixel_size", font.pixelSize)
                w.member("point_size", font.pointSize)
                w.member("ascent", font.ascent)
                w.member("descent", font.descent)
                w.member("matched_requested_family", font.matchedRequestedFamily)
                w.member("substituted", !font.matchedRequestedFamily)
                w.member("fallback_families", font.fallbackFamilies)
                if let toolkit { w.member("toolkit", toolkit) }
                if let settings = scale?.toolkitSettings { w.member("toolkit_settings", settings) }
                w.endObject()
            }
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
        if let toolkit { out += "\ntoolkit      \(ToolkitText.describe(toolkit, settings: scale?.toolkitSettings))" }
        print(out)
    }
}
