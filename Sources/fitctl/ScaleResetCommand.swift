import ArgumentParser
import FitClient

struct ScaleResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Remove the explicit text scale: fontconfig, the desktop or 1.0 decide again.",
        discussion: HelpText.discussion("""
            Examples:
              fitctl scale reset
            """))

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await ClientFactory.make(common)
        let info: TextScaleInfo
        do {
            try await client.resetTextScale()
            info = try await client.textScale()
        } catch {
            throw CommandFailure(error.description)
        }
        ScaleJSON.printSummary(info, json: common.json)
    }
}
