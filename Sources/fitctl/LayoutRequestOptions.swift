import ArgumentParser
import FitLayout
import FitTypes

/// What `fitctl fit` and `fitctl check` both send with every layout besides the width: one
/// declaration of the options, their help and their checks.
struct LayoutRequestOptions: ParsableArguments {
    // .unconditional: "--height -5" is refused with the range, not taken for a missing value.
    @Option(parsing: .unconditional, help: "Proposed height; omit for the ideal height.")
    var height: String?

    @Option(name: .customLong("ui-font"), help: ArgumentHelp(LayoutOptionTable.uiFont.help))
    var uiFont: String?

    @Flag(name: .customLong("label-sizes"), help: ArgumentHelp(LayoutOptionTable.labelSizes.help))
    var labelSizes = false

    @Option(name: .customLong("text-scale"), parsing: .unconditional, help: ArgumentHelp(LayoutOptionTable.textScale.help))
    var textScale: Double?

    func validate() throws {
        _ = try proposedHeight()
        var options = LayoutOptions()
        try apply(to: &options)
    }

    /// --ui-font, --label-sizes and --text-scale into the layout's options (the Layout call's
    /// `ui_font`, `label_sizes` and `text_scale`), each through its row of LayoutOptionTable.
    func apply(to options: inout LayoutOptions) throws {
        if let uiFont { try Self.take(LayoutOptionTable.uiFont, .string(uiFont), into: &options, flag: "--ui-font", given: uiFont) }
        if labelSizes { try Self.take(LayoutOptionTable.labelSizes, .bool(true), into: &options, flag: "--label-sizes", given: "") }
        if let textScale {
            try Self.take(LayoutOptionTable.textScale, .number(textScale), into: &options, flag: "--text-scale", given: "\(textScale)")
        }
    }

    /// A flag's value taken through its option's row, as the daemon takes the Layout option:
    /// one check and one wording, the refusal naming the flag as given ("--text-scale 9.0: …").
    static func take(
        _ option: LayoutOptionTable.Option, _ value: OptionValue, into options: inout LayoutOptions, flag: String, given: String
    ) throws {
        do throws(FitTextError) {
            try option.apply(&options, value)
        } catch {
            let named = given.isEmpty ? flag : "\(flag) \(given)"
            guard case .invalidArgument(_, let reason) = error else { throw ValidationError("\(named): \(error.description)") }
            throw ValidationError("\(named): \(reason)")
        }
    }

    func proposedHeight() throws -> Double? {
        try FitCommand.length(height, "--height")
    }
}
