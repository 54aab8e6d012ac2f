import FitScale

/// The user's text scale as fitd reports it (the scale properties of org.fitd.Fit1).
/// Source and category are kept as the daemon spells them, so a newer daemon with a new
/// source still decodes; ``textScaleSource`` and ``sizeCategory`` give the typed values.
public struct TextScaleInfo: Sendable, Hashable, Codable {
    /// The factor in (0, 4]: font sizes are multiplied by it.
    public var factor: Double
    /// explicit, fontconfig, gnome, gsettings, kde, xresources or default.
    public var source: String
    /// xSmall … accessibilityExtraExtraExtraLarge.
    public var category: String
    /// 96 × factor.
    public var dpi: Double
    /// Pango descriptions of the UI and monospace fonts.
    public var uiFont: String
    public var monospaceFont: String

    public init(factor: Double, source: String, category: String, dpi: Double, uiFont: String, monospaceFont: String) {
        self.factor = factor
        self.source = source
        self.category = category
        self.dpi = dpi
        self.uiFont = uiFont
        self.monospaceFont = monospaceFont
    }

    public init(_ snapshot: TextScaleSnapshot) {
        self.init(
            factor: snapshot.factor, source: snapshot.source.rawValue, category: snapshot.category.rawValue, dpi: snapshot.dpi,
            uiFont: snapshot.uiFont.pangoDescription, monospaceFont: snapshot.monospaceFont.pangoDescription)
    }

    public var textScaleSource: TextScaleSource? { TextScaleSource(rawValue: source) }
    public var sizeCategory: SizeCategory? { SizeCategory(name: category) }
}

/// One GenerationChanged signal: the new generation and why (fonts, fontconfig, text-scale,
/// config, desktop).
public struct GenerationChange: Sendable, Hashable {
    public var generation: UInt64
    public var reasons: [String]

    public init(generation: UInt64, reasons: [String]) {
        self.generation = generation
        self.reasons = reasons
    }
}
