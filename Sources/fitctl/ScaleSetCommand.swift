import ArgumentParser
import FitClient

struct ScaleSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set the text scale explicitly (wins over fontconfig and the desktop; persisted).",
        discussion: """
            Examples:
              fitctl scale set 1.25
              fitctl scale set 0.9 --json
            """)

    @OptionGroup var common: CommonOptions

    @Argument(help: "The factor, greater than 0 and at most 4 (1 is the default size).")
    var factor: Double

    func validate() throws {
        guard factor.isFinite, factor > 0, factor <= 4 else {
            throw ValidationError("the text scale must be greater than 0 and at most 4 (the range is (0, 4]); got \(factor)")
        }
    }

    func run() async throws {
        let client = try await ClientFactory.make(common)
        let info: TextScaleInfo
        do {
            try await client.setTextScale(factor)
            info = try await client.textScale()
        } catch {
            throw CommandFailure(error.description)
        }
        ScaleJSON.printSummary(info, json: common.json)
    }
}
