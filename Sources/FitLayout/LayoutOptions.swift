import FitTypes

/// What a layout call depends on besides the document and the proposal.
public struct LayoutOptions: Hashable, Sendable, Codable {
    public enum Unit: String, Hashable, Sendable, Codable, CaseIterable {
        /// Logical pixels at 96 dpi.
        case px
        /// Terminal character cells.
        case cells
    }

    /// The category text styles are sized for and thresholds compare with.
    public var sizeCategory: SizeCategory
    public var unit: Unit
    /// Stack spacing and spacer minimum length where the document gives none; nil for 8 px or
    /// 1 cell (SwiftUI's default spacing between two texts is 8 pt).
    public var defaultSpacing: Double?
    /// The UI font as a Pango description ("Cantarell 11"): what ``LayoutFont/default`` texts
    /// are measured in and text styles are sized from. nil for the measurer's own (the
    /// engine-backed measurer uses sans-serif 11 pt, GNOME's default size). The engine itself
    /// never reads it; it is here so that it is part of the cache key.
    public var uiFont: String?
    /// Also find, per decision, the widths over which each outcome holds, and the root's
    /// min-content and max-content widths (``LayoutResult/breakpoints``); nil for none.
    public var breakpoints: BreakpointRange?
    /// Also give every shown text the size a GtkLabel showing it at its frame's width requests
    /// (``NodeLayout/labelSize``), so a toolkit compares with its allocation directly.
    public var widgetSizes = false
    /// Lay every text out at the size a GtkLabel showing it requests: its logical width and
    /// height rounded up to a whole pixel, as gtklabel.c does (PANGO_PIXELS_CEIL). A toolkit
    /// whose texts are labels then gets decisions and breakpoints its labels meet: two texts
    /// 50.5 px wide need 101 px, two labels 102. px only; cells are whole already.
    public var labelSizes = false
    /// Multiply font sizes by this instead of the user's text scale (Measure's `text_scale`):
    /// 1 for a toolkit whose texts carry the sizes it resolved already, its own scale applied.
    /// Size categories stay the user's. nil for the user's.
    public var textScale: Double? = nil
    /// The context language of every text (BCP 47 in Pango's canonical form, "bn-in"); nil
    /// for the measurer's default (the daemon's locale). Part of the cache key like the rest.
    public var language: String? = nil
    /// Whose labels the measurer reproduces (FitTypes' ToolkitProfile): nil for the GTK 4
    /// installed here, "gtk3", or a GTK 4 line ("gtk-4.8"). Like ``uiFont``, here so that it is
    /// part of the cache key.
    public var metrics: String?

    /// The toolkit ``metrics`` names (GTK 4 when none or unparsable: the measurer refuses
    /// the latter), whose UI font an unstyled text draws in.
    public var toolkit: ToolkitProfile.Toolkit {
        guard let metrics, let profile = try? ToolkitProfile(parsing: metrics) else { return .gtk4 }
        return profile.toolkit
    }
    /// Whether every text of the document is Pango markup (the Measure option `markup`).
    public var markup: Bool = false

    public init(
        sizeCategory: SizeCategory = .large, unit: Unit = .px, defaultSpacing: Double? = nil, uiFont: String? = nil,
        breakpoints: BreakpointRange? = nil
    ) {
        self.breakpoints = breakpoints
        self.sizeCategory = sizeCategory
        self.unit = unit
        self.defaultSpacing = defaultSpacing
        self.uiFont = uiFont
    }

    var spacing: Double { defaultSpacing ?? (unit == .px ? 8 : 1) }
}
