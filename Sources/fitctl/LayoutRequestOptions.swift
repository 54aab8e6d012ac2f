import ArgumentParser

/// What `fitctl fit` and `fitctl check` both send with every layout besides the width: one
/// declaration of the options, their help and their checks.
struct LayoutRequestOptions: ParsableArguments {
    // .unconditional: "--height -5" is refused with the range, not taken for a missing value.
    @Option(parsing: .unconditional, help: "Proposed height; omit for the ideal height.")
    var height: String?

    @Option(name: .customLong("ui-font"), help: "UI font the default font and text styles derive from, e.g. \"Cantarell 11\".")
    var uiFont: String?

    func validate() throws {
        _ = try proposedHeight()
    }

    func proposedHeight() throws -> Double? {
        try FitCommand.length(height, "--height")
    }
}
