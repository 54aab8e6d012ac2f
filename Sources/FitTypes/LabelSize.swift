/// A GtkLabel's size request as `gtk_widget_measure` reports it (GTK 3:
/// `gtk_widget_get_preferred_width` / `_height_for_width`), in whole pixels, so an app
/// compares it with its allocation directly.
///
/// The label is set up as the measure request says: a `max_width` without an ellipsize mode
/// is a wrapping label allocated that width; with one, an ellipsizing label (`max_lines`:
/// `gtk_label_set_lines`); no width, a plain label. `width-chars` and `max-width-chars` are
/// at their default, −1. The rules are gtklabel.c's (`gtk_label_get_preferred_layout_size`,
/// `get_height_for_width`; GTK 4.8.3 and 3.24.38, PANGO_RULES.md "Label sizes"): each size is
/// the logical extent rounded up to a whole pixel (PANGO_PIXELS_CEIL); the minimum width is
/// the layout at width 0 — the widest word of a wrapping label, "…" of an ellipsizing one;
/// the natural width is the unwrapped text's. A wrapping label's height is the layout's at the
/// allocated width raised to the minimum width (gtksizerequest.c clamps it so); an ellipsizing
/// label that does not wrap reports the unwrapped text's height whatever its width (GTK 4.8.3:
/// a label whose fallback glyphs make it 27.24 px high is 28 px high at every width, though
/// its ellipsized layout is 24 px).
///
/// It takes up to three measurements: ``naturalRequest(for:)``, ``narrowestRequest(for:)``
/// and ``allocatedRequest(for:minimumWidth:)``, then ``init(request:natural:narrowest:allocated:)``.
public struct LabelSize: Hashable, Sendable, Codable {
    public var minimumWidth: Int
    public var naturalWidth: Int
    /// For the request's width (height-for-width) when it has one, else for no width.
    public var minimumHeight: Int
    public var naturalHeight: Int
    /// The first line's baseline from the top (GTK 4 rounds it up, GTK 3 down).
    public var baseline: Int

    public init(minimumWidth: Int, naturalWidth: Int, minimumHeight: Int, naturalHeight: Int, baseline: Int) {
        self.minimumWidth = minimumWidth
        self.naturalWidth = naturalWidth
        self.minimumHeight = minimumHeight
        self.naturalHeight = naturalHeight
        self.baseline = baseline
    }

    /// The request as a label shows it: GtkLabel's `lines` limits only an ellipsizing label
    /// (gtk_label_set_lines), so without an ellipsize mode every line is shown.
    static func shown(_ request: MeasureRequest) -> MeasureRequest {
        var shown = request
        if request.ellipsize == .none { shown.maxLines = nil }
        shown.includeLines = false
        return shown
    }

    /// The text unwrapped: the natural width.
    public static func naturalRequest(for request: MeasureRequest) -> MeasureRequest {
        var unwrapped = request
        unwrapped.maxWidth = nil
        unwrapped.maxLines = nil
        unwrapped.includeLines = false
        return unwrapped
    }

    /// The layout at width 0: the minimum width. Nil for a label with no width.
    public static func narrowestRequest(for request: MeasureRequest) -> MeasureRequest? {
        guard request.maxWidth != nil else { return nil }
        var narrowest = shown(request)
        narrowest.maxWidth = 0
        return narrowest
    }

    /// The layout at the allocated width, raised to the minimum width. Nil for a label whose
    /// height does not depend on its width: one with no width, or one that ellipsizes without
    /// wrapping.
    public static func allocatedRequest(for request: MeasureRequest, minimumWidth: Int) -> MeasureRequest? {
        guard let width = request.maxWidth, !ellipsizesOneLine(request) else { return nil }
        var allocated = shown(request)
        allocated.maxWidth = max(width, Double(minimumWidth))
        return allocated
    }

    /// An ellipsizing label that does not wrap (no `max_lines`): GtkLabel measures its height
    /// at its natural width.
    static func ellipsizesOneLine(_ request: MeasureRequest) -> Bool {
        request.ellipsize != .none && request.maxLines == nil
    }

    /// The minimum width from the narrowest layout's metrics, at most the natural width.
    public static func minimumWidth(natural: TextMetrics, narrowest: TextMetrics) -> Int {
        min(ceilPixels(narrowest.width), ceilPixels(natural.width))
    }

    /// The size from the measurements of the three requests above (the last two nil for a
    /// label with no width).
    public init(request: MeasureRequest, natural: TextMetrics, narrowest: TextMetrics?, allocated: TextMetrics?) {
        let naturalWidth = Self.ceilPixels(natural.width)
        let shown = allocated ?? natural
        let minimumWidth = narrowest.map { Self.minimumWidth(natural: natural, narrowest: $0) } ?? naturalWidth
        let height = Self.ceilPixels(shown.height)
        // GTK 4 rounds the baseline up (PANGO_PIXELS_CEIL), GTK 3 truncates it
        // (`pango_layout_get_baseline () / PANGO_SCALE`).
        let baseline = request.metrics.toolkit == .gtk3 ? Self.floorPixels(shown.baseline) : Self.ceilPixels(shown.baseline)
        self.init(
            minimumWidth: minimumWidth, naturalWidth: max(naturalWidth, minimumWidth), minimumHeight: height,
            naturalHeight: height, baseline: baseline)
    }

    /// A length truncated to whole pixels (`pango_layout_get_baseline () / PANGO_SCALE`).
    static func floorPixels(_ pixels: Double) -> Int {
        guard pixels.isFinite, pixels > 0 else { return 0 }
        return Int(min(pixels, Double(Int32.max)).rounded(.down))
    }

    /// PANGO_PIXELS_CEIL of a length fitd keeps in px: lengths are whole Pango units
    /// (1/1024 px), so rounding the px value up is exact.
    public static func ceilPixels(_ pixels: Double) -> Int {
        guard pixels.isFinite, pixels > 0 else { return 0 }
        return Int(min(pixels, Double(Int32.max)).rounded(.up))
    }
}
