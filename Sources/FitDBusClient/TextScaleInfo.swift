import FitLayout

/// The user's text scale as fitd reports it (the scale properties of org.fitd.Fit1).
/// Source and category are kept as the daemon spells them, so a newer daemon with a new
/// source still decodes; ``sizeCategory`` gives the typed category.
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
    /// Where ``uiFont`` came from (xsettings, settings.ini, gnome, gsettings, kde, default);
    /// nil from a fitd that does not say.
    public var uiFontSource: String?
    /// The toolkit measurements reproduce when they name none ("gtk-4.8"); nil from a fitd
    /// that does not say.
    public var toolkit: String?
    /// The user's GtkSettings that change how ``toolkit`` measures
    /// ("gtk-hint-font-metrics=true"); empty when none applies, nil from a fitd that does not say.
    public var toolkitSettings: String?

    public init(factor: Double, source: String, category: String, dpi: Double, uiFont: String, monospaceFont: String) {
        self.factor = factor
        self.source = source
        self.category = category
        self.dpi = dpi
        self.uiFont = uiFont
        self.monospaceFont = monospaceFont
    }

    /// The typed category (nil for a name this version does not know).
    public var sizeCategory: SizeCategory? { SizeCategory(name: category) }
}
