extension TextEngine {
    /// The size GtkLabel requests for `request`'s text (``LabelSize``), with its
    /// `width-chars` and `max-width-chars` (``LabelCharWidths``). Pixels only.
    public func labelSize(_ request: MeasureRequest, chars: LabelCharWidths = .unset) throws(FitTextError) -> LabelSize {
        guard request.unit == .px else {
            throw .invalidArgument(name: "unit", reason: "label sizes are in px, not cells")
        }
        guard chars.isUnset else {
            try chars.check()
            let charPixels = Double(try approximateCharPixels(for: request)) / 1024
            return try LabelSize.withCharWidths(request: request, chars: chars, charPixels: charPixels) { (width) throws(FitTextError) in
                // At width −1 Pango lays every paragraph out, whatever the line limit.
                guard let width else { return try measure(LabelSize.naturalRequest(for: request)) }
                var laidOut = LabelSize.shown(request)
                // Wider than the widest text fitd lays out is unwrapped all the same.
                laidOut.maxWidth = min(width, TextLimits.maxWidth)
                return try measure(laidOut)
            }
        }
        let natural = try measure(LabelSize.naturalRequest(for: request))
        guard let narrowestRequest = LabelSize.narrowestRequest(for: request) else {
            return LabelSize(request: request, natural: natural, narrowest: nil, allocated: nil)
        }
        let narrowest = try measure(narrowestRequest)
        let minimum = LabelSize.minimumWidth(natural: natural, narrowest: narrowest)
        let allocated = try LabelSize.allocatedRequest(for: request, minimumWidth: minimum).map { (r) throws(FitTextError) in try measure(r) }
        return LabelSize(request: request, natural: natural, narrowest: narrowest, allocated: allocated)
    }

    /// GtkLabel's `char_pixels` (gtklabel.c `get_char_pixels`, GTK 3 and 4 alike), in Pango
    /// units: the larger of the label's Pango context's approximate character and digit
    /// widths (pango_context_get_metrics with the context's font and language, Pango 1.50.12):
    ///
    /// - character width (pango-context.c `update_metrics_from_items`): the language's sample
    ///   string (``PangoSampleString``) shaped in the context's fonts, fallbacks included,
    ///   without rounding (pango_shape_full), in whole units divided by its width in
    ///   character cells (pango_utf8_strwidth: wide characters 2, zero-width ones 0);
    /// - digit width (pangofc-font.c `pango_fc_font_get_metrics`, `max_glyph_width`): the
    ///   widest glyph of "0123456789" laid out in a fresh context of the font's own, whose
    ///   glyph positions Pango rounds by default.
    ///
    /// The context's font is the label's own (its CSS font; a font set through attributes, as
    /// gtk_labels.py does, would leave the context at the UI font): here the request's font.
    public func approximateCharPixels(for request: MeasureRequest) throws(FitTextError) -> Int {
        let sample = PangoSampleString.text(for: request.language.map(LanguageTable.canonical) ?? language)
        // The context's font and language only: pango_context_get_metrics itemizes without the
        // label's attributes (features, markup), and the digits use the font's own description.
        var plain = MeasureRequest(text: sample, font: request.font, textScale: request.textScale)
        plain.language = request.language
        // Unrounded advances: any profile that does not round positions (GTK 4.16's; the
        // engine takes rendering from a profile).
        plain.metrics = ToolkitProfile(.gtk4, minor: 16)
        let sampleUnits = Int((try measure(plain).width * 1024).rounded())
        let cells = sample.unicodeScalars.reduce(0) { $0 + CellWidth.codePointColumns($1.value) }
        let charWidth = cells > 0 ? sampleUnits / cells : 0
        var digitWidth = 0
        // Rounded advances, each digit alone: the widest glyph of the ten.
        plain.metrics = .gtk3
        for digit in "0123456789" {
            plain.text = String(digit)
            digitWidth = max(digitWidth, Int((try measure(plain).width * 1024).rounded()))
        }
        return max(charWidth, digitWidth)
    }
}

/// pango_language_get_sample_string (Pango 1.50.12, pango-language.c): the sample string of
/// the best matching entry of pango-language-sample-table.h (``LanguageTable/bestMatch(_:in:tag:)``),
/// else Pango's English pangram.
enum PangoSampleString {
    static let fallback = "The quick brown fox jumps over the lazy dog."

    private static let byFirstComponent = Dictionary(grouping: PangoLanguageTable.sampleStrings) {
        LanguageTable.firstComponent($0.language)
    }

    static func text(for tag: String) -> String {
        LanguageTable.bestMatch(tag, in: byFirstComponent, tag: \.language)?.text ?? fallback
    }
}
