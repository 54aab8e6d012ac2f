import FitDBusClient
import FitScale

/// What FitScale adds to the daemon's text-scale report: the in-process snapshot (embedded
/// mode) and FitScale's typed source.
extension TextScaleInfo {
    public init(_ snapshot: TextScaleSnapshot) {
        self.init(
            factor: snapshot.factor, source: snapshot.source.rawValue, category: snapshot.category.name, dpi: snapshot.dpi,
            uiFont: snapshot.uiFont.pangoDescription, monospaceFont: snapshot.monospaceFont.pangoDescription)
        uiFontSource = snapshot.uiFont.source.rawValue
        toolkit = ToolkitProfile.gtk4.name
        toolkitSettings = snapshot.gtkRendering.readByDefaultToolkit.description
    }

    public var textScaleSource: TextScaleSource? { TextScaleSource(rawValue: source) }
}
