import FitTypes

/// What a measurement request takes from the user's settings before the engine sees it: one
/// set of rules for the daemon (FitService) and for FitClient measuring in-process, so that
/// both backends answer alike.
///
/// 1. The text scale: the user's unless the caller sends its own, clamped to what the engine
///    takes (``TextLimits/textScaleRange``). The `TextScale` property keeps the value the user
///    asked for, (0, 4]; below 0.25 text is unreadable anyway.
/// 2. The UI font an empty font and the text styles resolve against: the request's `ui_font`,
///    else the user's for the request's toolkit (GTK 3 and GTK 4 may differ).
/// 3. A text style as the font ("headline", "caption ax2") becomes its Pango description at the
///    size category of the scale, measured at scale 1 (``TextStyleFont/engineFont(_:uiFont:textScale:)``).
/// 4. The toolkit profile with the user's GtkSettings (settings.ini).
public struct UserRequestRules: Sendable {
    /// The user's text scale, clamped.
    public let textScale: Double
    public let uiFonts: ToolkitUIFonts
    /// The user's GtkSettings that change how GTK 4 measures.
    public let gtkRendering: GTKFontRenderingSettings

    public init(textScale: Double, uiFonts: ToolkitUIFonts, gtkRendering: GTKFontRenderingSettings) {
        self.textScale = Self.clamped(textScale)
        self.uiFonts = uiFonts
        self.gtkRendering = gtkRendering
    }

    /// The rules of a snapshot of the user's settings.
    public init(_ snapshot: TextScaleSnapshot) {
        self.init(textScale: snapshot.factor, uiFonts: ToolkitUIFonts(snapshot), gtkRendering: snapshot.gtkRendering)
    }

    /// A text scale as the engine measures with it.
    public static func clamped(_ factor: Double) -> Double {
        min(max(factor, TextLimits.textScaleRange.lowerBound), TextLimits.textScaleRange.upperBound)
    }

    /// Why a request's fonts cannot be resolved: both backends report it as `InvalidFont`.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The `ui_font` option is no Pango description with a family.
        case uiFont(TextStyleFont.UIFontOptionError)
        /// The font starts with a text style's name but is no valid style request.
        case textStyle(font: String, FitScaleError)

        public var description: String {
            switch self {
            case .uiFont(let problem):
                return problem.description
            case .textStyle(let font, let error):
                return "\"\(font)\" starts with a text style name: \(error) (a font family of that name needs a comma: \"\(font.split(separator: " ").first ?? ""), …\")"
            }
        }
    }

    /// The request the engine measures (rules 1 to 4). `userTextScale`: replace the request's
    /// scale with the user's; false keeps the one it carries (the caller's own, or the one a
    /// decoder already defaulted to the user's).
    public func engineRequest(_ request: MeasureRequest, userTextScale: Bool) throws(Failure) -> MeasureRequest {
        var resolved = request
        if userTextScale { resolved.textScale = textScale }
        let uiFont: UIFont
        switch TextStyleFont.uiFont(requested: request.uiFont, user: uiFonts.font(for: request.metrics.toolkit)) {
        case .success(let font): uiFont = font
        case .failure(let problem): throw .uiFont(problem)
        }
        (resolved.font, resolved.textScale) = try engineFont(resolved.font, textScale: resolved.textScale, uiFont: uiFont)
        resolved.uiFont = nil
        resolved.metrics = resolved.metrics.with(gtkRendering)
        return resolved
    }

    /// The font string and scale the engine gets for `font` (rule 3); a Pango description is
    /// kept as it is, at `textScale`.
    public func engineFont(_ font: String, textScale: Double, uiFont: UIFont? = nil) throws(Failure) -> (font: String, textScale: Double) {
        do throws(FitScaleError) {
            return try TextStyleFont.engineFont(font, uiFont: uiFont ?? uiFonts.gtk4, textScale: textScale) ?? (font, textScale)
        } catch {
            throw .textStyle(font: font, error)
        }
    }
}
