import ArgumentParser
import FitClient
import FitLayout
import FitLayoutText
import FitRender
import FitText
import Foundation

/// `fitctl fit --output`, `--categories` and the engine's lines for `--render`.
extension FitCommand {
    /// A category by any name the daemon reads (SizeCategory(name:): case-insensitive, ax1…5,
    /// accessibility1…5), else a usage error naming them with the nearest.
    static func sizeCategory(_ text: String, option: String) throws -> SizeCategory {
        let word = text.trimmingCharacters(in: .whitespaces)
        if let found = SizeCategory(name: word) { return found }
        let names = SizeCategory.allCases.map(\.name)
        throw ValidationError(
            Suggestion.appended(
                to: "\(option): \"\(text)\" is not a size category; use one of \(SizeCategory.nameList) (or ax1…5)",
                word: word, among: names + SizeCategory.aliases.map(\.name)))
    }

    /// --categories: "all" (the 12, smallest first) or a list; nil without the option.
    func parsedCategories() throws -> [SizeCategory]? {
        try categories.map { try Self.categoryList($0) }
    }

    /// `--categories`: "all" (the 12, smallest first) or a comma-separated list.
    static func categoryList(_ categories: String) throws -> [SizeCategory] {
        if categories.trimmingCharacters(in: .whitespaces) == "all" { return SizeCategory.allCases }
        let parts = categories.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= SizeCategory.allCases.count else {
            throw ValidationError("--categories takes \"all\" or 1 to 12 categories")
        }
        return try parts.map { try sizeCategory(String($0), option: "--categories") }
    }

    /// The user's text scale, category and UI font, as the daemon (or, in-process, fitctl) has them.
    static func userText(_ client: FitClient) async throws -> TextScaleInfo {
        do {
            return try await client.textScale()
        } catch {
            throw CommandFailure(error.description)
        }
    }

    /// Each shown text's lines as the engine lays them out for the layout's frame (with "…"
    /// where it ellipsized): what `--render` writes in the terminal.
    static func textLines(
        _ prepared: PreparedLayout, _ result: LayoutResult, measurer: TextEngineMeasurer, category: SizeCategory
    ) -> [Int: [String]] {
        var lines: [Int: [String]] = [:]
        for index in result.nodes.indices {
            guard var request = try? measurer.redrawRequest(node: index, of: prepared, in: result, sizeCategory: category) else {
                continue
            }
            request.includeLines = true
            guard let metrics = try? measurer.engine.measure(request) else { continue }
            lines[index] = metrics.lines.map(\.text)
        }
        return lines
    }

    /// Draws the sheets (a row per category, a column per width) and writes the file.
    static func draw(_ rows: [[LayoutSheet]], to path: String, theme: RenderOptions.Theme) throws {
        let format = try PictureFormat(path: path)
        do {
            let picture = try LayoutPicture(rows: rows, options: RenderOptions(theme: theme))
            for note in picture.notes.prefix(20) {
                FileHandle.standardError.write(Data("fitctl: note: \(note)\n".utf8))
            }
            switch format {
            case .svg:
                try PictureFile.write(Array(picture.svg().utf8), to: path)
            case .png:
                try picture.writePNG(to: path)
            }
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
