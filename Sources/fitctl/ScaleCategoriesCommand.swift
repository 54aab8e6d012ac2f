import ArgumentParser
import FitClient
import FitJSON
import FitProtocol
import FitScale

struct ScaleCategoriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories",
        abstract: "Show what every text style becomes in each of the 12 size categories (the user's UI font).",
        discussion: HelpText.discussion("""
            Examples:
              fitctl scale categories          # point sizes, one row per category
              fitctl scale categories --json   # {"categories": [{"category", "styles": […]}]}

            Each style in --json: style, font, point_size, line_height.
            """))

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await ClientFactory.make(common)
        var table: [(SizeCategory, [TextStyleRow])] = []
        let current: String
        do {
            current = try await client.textScale().category
            for category in SizeCategory.allCases {
                table.append((category, try await client.textStyles(category: category)))
            }
        } catch {
            throw CommandFailure(error.description)
        }
        if common.json {
            // Order: current, categories (each: category, accessibility, styles).
            JSONOutput.print { w in
                w.beginObject()
                w.member("current", current)
                w.key("categories")
                w.beginArray()
                for (category, rows) in table {
                    w.beginObject()
                    w.member("category", category.name)
                    w.member("accessibility", category.isAccessibilityCategory)
                    w.key("styles")
                    w.beginArray()
                    for row in rows { ScaleJSON.write(row, to: &w) }
                    w.endArray()
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            return
        }
        let styles = TextStyle.allCases
        print("point sizes in the UI font; * marks the current category\n")
        print("category".padding(34) + styles.map { $0.name.leftPadding(12) }.joined())
        for (category, rows) in table {
            let mark = category.name == current ? "* " : "  "
            print((mark + category.name).padding(34) + rows.map { MetricsText.format($0.pointSize).leftPadding(12) }.joined())
        }
        if let weights = table.first?.1.filter({ $0.font.contains("Semi-Bold") }).map(\.style), !weights.isEmpty {
            print("\n\(weights.joined(separator: ", ")) in semibold; the rest regular")
        }
    }
}
