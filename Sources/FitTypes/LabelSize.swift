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
    public static func shown(_ request: MeasureRequest) -> MeasureRequest {
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

/// GtkLabel's `width-chars` and `max-width-chars`: a width in characters the label asks for at
/// least (`width-chars`) and at most (`max-width-chars`, for a label that wraps or ellipsizes).
/// Nil is GTK's default, −1: the text alone decides. A character is `char_pixels`
/// (gtklabel.c `get_char_pixels`): the larger of Pango's approximate character and digit
/// widths for the label's font and language (``TextEngine/approximateCharPixels(for:)``).
public struct LabelCharWidths: Hashable, Sendable {
    public var widthChars: Int?
    public var maxWidthChars: Int?

    /// −1, GtkLabel's own "unset", is taken as nil.
    public init(widthChars: Int? = nil, maxWidthChars: Int? = nil) {
        self.widthChars = widthChars == -1 ? nil : widthChars
        self.maxWidthChars = maxWidthChars == -1 ? nil : maxWidthChars
    }

    public static let unset = LabelCharWidths()
    public var isUnset: Bool { widthChars == nil && maxWidthChars == nil }

    /// GtkLabel takes −1 … G_MAXINT (gtklabel.c's pspecs); more characters than this is no
    /// label anyone draws, and the products below stay far from overflow.
    public static let range = 0...10_000

    /// Each count within ``range``, else `invalidArgument` naming the option.
    public func check() throws(FitTextError) {
        for (name, value) in [(Self.widthCharsName, widthChars), (Self.maxWidthCharsName, maxWidthChars)] {
            if let value, !Self.range.contains(value) {
                throw .invalidArgument(name: name, reason: "\(value) is not a number of characters from \(Self.range.lowerBound) to \(Self.range.upperBound) (or -1, unset)")
            }
        }
    }

    /// The option names, as MeasureLabel and fitctl's batch lines spell them.
    public static let widthCharsName = "width_chars"
    public static let maxWidthCharsName = "max_width_chars"
}

extension LabelSize {
    /// The size request of a label with `width-chars` / `max-width-chars` set, from
    /// `charPixels` (px) and a `measure` of the label's text laid out as shown at a width (nil:
    /// Pango's −1, every paragraph unwrapped), as the request's toolkit computes it:
    ///
    /// - GTK 4 (4.8.3's gtklabel.c `get_default_widths`, `get_static_size`,
    ///   `get_width_for_height`): minimum default `char_pixels × width-chars`, natural default
    ///   `char_pixels × MAX (width-chars, max-width-chars)`. A plain label is its text's width,
    ///   at least the minimum default. An ellipsizing one is laid out at the natural default:
    ///   its natural width; the minimum is the layout at 0 (at most the natural), at least the
    ///   minimum default. A wrapping one's minimum is the layout at the minimum default (0 when
    ///   unset), at least that; its natural width the layout at the natural default, at least
    ///   the minimum.
    /// - GTK 3 (3.24's `gtk_label_get_preferred_layout_size`): the widest is the unwrapped
    ///   text, at least `char_pixels × width-chars`; for a label that wraps or ellipsizes the
    ///   smallest is the layout at that width (0 when unset), and when `max-width-chars` is set
    ///   and the widest is wider than it, the widest is the layout at MAX (smallest,
    ///   `char_pixels × max-width-chars`); the smallest is never wider than the widest.
    ///
    /// The height is the layout's at the allocated width raised to the minimum width for a
    /// wrapping label, else at the natural width's layout, as ``init(request:natural:narrowest:allocated:)``.
    public static func withCharWidths(
        request: MeasureRequest, chars: LabelCharWidths, charPixels: Double,
        measure: (_ width: Double?) throws(FitTextError) -> TextMetrics
    ) throws(FitTextError) -> LabelSize {
        let wraps = request.maxWidth != nil && (request.ellipsize == .none || request.maxLines != nil)
        let ellipsizes = request.ellipsize != .none && request.maxWidth != nil
        let minimumDefault = chars.widthChars.map { charPixels * Double($0) }
        var natural: TextMetrics
        var minimum: Double
        var naturalWidth: Double
        switch request.metrics.toolkit {
        case .gtk4:
            let naturalDefault = chars.maxWidthChars.map { charPixels * Double(max(chars.widthChars ?? -1, $0)) }
            if wraps {
                minimum = try measure(minimumDefault ?? 0).width
                if let minimumDefault { minimum = max(minimum, minimumDefault) }
                natural = try measure(naturalDefault)
                naturalWidth = max(natural.width, minimum)
            } else if ellipsizes {
                natural = try measure(naturalDefault)
                minimum = min(try measure(0).width, natural.width)
                if let minimumDefault { minimum = max(minimum, minimumDefault) }
                naturalWidth = max(minimum, natural.width)
            } else {
                natural = try measure(nil)
                minimum = max(natural.width, minimumDefault ?? 0)
                naturalWidth = minimum
            }
        case .gtk3:
            natural = try measure(nil)
            naturalWidth = max(natural.width, minimumDefault ?? 0)
            if wraps || ellipsizes {
                minimum = max(try measure(minimumDefault ?? 0).width, minimumDefault ?? 0)
                if let maxWidthChars = chars.maxWidthChars, naturalWidth > charPixels * Double(maxWidthChars) {
                    // GTK 3 asks the height at the widest width (get_size_for_allocation): this
                    // layout's, ellipsized or wrapped there.
                    natural = try measure(max(minimum, charPixels * Double(maxWidthChars)))
                    naturalWidth = max(natural.width, minimumDefault ?? 0)
                }
                minimum = min(minimum, naturalWidth)
            } else {
                minimum = naturalWidth
            }
        }
        let minimumWidth = ceilPixels(minimum)
        let shown: TextMetrics
        if let width = request.maxWidth, wraps {
            shown = try measure(max(width, Double(minimumWidth)))
        } else {
            shown = natural
        }
        let height = ceilPixels(shown.height)
        let baseline = request.metrics.toolkit == .gtk3 ? floorPixels(shown.baseline) : ceilPixels(shown.baseline)
        return LabelSize(
            minimumWidth: minimumWidth, naturalWidth: max(ceilPixels(naturalWidth), minimumWidth), minimumHeight: height,
            naturalHeight: height, baseline: baseline)
    }
}
