/// The text-scale part of the org.fitd.Fit1 contract (protocol/org.fitd.Fit1.xml): property
/// and method names. The reasons GenerationChanged carries are ``GenerationReason``,
/// GetTextStyles' rows ``TextStyleRow``.
public enum TextScaleNames {
    public static let textScale = "TextScale"
    public static let textScaleSource = "TextScaleSource"
    public static let sizeCategory = "SizeCategory"
    public static let dpi = "Dpi"
    public static let uiFont = "UIFont"
    public static let monospaceFont = "MonospaceFont"
    /// Where UIFont came from (a TextScaleSource: xsettings, settings.ini, gnome, …, default).
    public static let uiFontSource = "UIFontSource"
    /// The toolkit a measurement reproduces when it names none ("gtk-4.8": the GTK 4
    /// installed where fitd runs).
    public static let toolkit = "Toolkit"
    /// The user's GtkSettings that the toolkit of ``toolkit`` reads and that change its
    /// measurements ("gtk-hint-font-metrics=true"); empty when none is set.
    public static let toolkitSettings = "ToolkitSettings"
    public static let generation = "Generation"
    public static let resetTextScale = "ResetTextScale"
    public static let getTextStyles = "GetTextStyles"

    /// The properties a text-scale change can touch, in the order PropertiesChanged lists them.
    public static let properties = [textScale, textScaleSource, sizeCategory, dpi, uiFont, uiFontSource, monospaceFont, toolkitSettings]
}
