import ArgumentParser
import FitLayout
import FitTypes

/// What `fitctl fit` and `fitctl check` both send with every layout besides the width: one
/// declaration of the options, their help and their checks.
struct LayoutRequestOptions: ParsableArguments {
    // .unconditional: "--height -5" is refused with the range, not taken for a missing value.
    @Option(parsing: .unconditional, help: "Proposed height; omit for the ideal height.")
    var height: String?

    @Option(name: .customLong("ui-font"), help: "UI font the default font and text styles derive from, e.g. \"Cantarell 11\".")
    var uiFont: String?

    @Flag(name: .customLong("label-sizes"), help: "Lay every text out at the size the GtkLabel showing it requests, rounded up to a whole px as gtklabel.c does, so decisions and breakpoints are the ones a GTK app's labels meet (px only).")
    var labelSizes = false

    @Option(name: .customLong("text-scale"), parsing: .unconditional, help: "Take the document's font sizes at this text scale (0.25–4) instead of the user's; size categories stay the user's.")
    var textScale: Double?

    func validate() throws {
        _ = try proposedHeight()
        if let textScale, !(textScale.isFinite && TextLimits.textScaleRange.contains(textScale)) {
            throw ValidationError("--text-scale \(textScale): give \(TextLimits.textScaleRange.lowerBound) to \(TextLimits.textScaleRange.upperBound)")
        }
    }

    /// --label-sizes and --text-scale into the layout's options (the Layout call's
    /// `label_sizes` and `text_scale`).
    func apply(to options: inout LayoutOptions) {
        options.labelSizes = labelSizes
        options.textScale = textScale
    }

    func proposedHeight() throws -> Double? {
        try FitCommand.length(height, "--height")
    }
}
