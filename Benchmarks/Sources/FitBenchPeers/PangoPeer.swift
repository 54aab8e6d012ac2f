import CPangoCairo

/// Pango 1.50 through its C API, set up as a GTK 4 label measures and as the oracle does
/// (Tests/oracle/pango_measure.py): a PangoCairo font map of its own, 96 dpi, glyph positions
/// not rounded, hint metrics off, language en-us, logical extents. Per string: a new layout,
/// the font description, the text, the extents. Descriptions are parsed once per font string
/// and kept, as a toolkit keeps a widget's font.
public final class PangoPeer: MeasuringPeer {
    public let name = PeerName.pango.rawValue
    /// Owned: created here, unreferenced in deinit.
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer  // PangoContext *, owned
    /// Owned descriptions, one per distinct font string; `descriptionOfEntry` borrows them.
    var descriptions: [OpaquePointer] = []  // PangoFontDescription *
    var descriptionOfEntry: [OpaquePointer] = []
    /// NUL-terminated UTF-8, built once so no pass pays for a conversion.
    let texts: [[CChar]]

    public init(corpus: Corpus) throws(BenchError) {
        guard let map = pango_cairo_font_map_new() else {
            throw .peer(PeerName.pango.rawValue, reason: "pango_cairo_font_map_new() returned NULL")
        }
        fontMap = map
        guard let context = pango_font_map_create_context(map) else {
            g_object_unref(map)
            throw .peer(PeerName.pango.rawValue, reason: "pango_font_map_create_context() returned NULL")
        }
        self.context = context
        pango_cairo_context_set_resolution(context, 96)
        pango_context_set_round_glyph_positions(context, fit_bench_false())
        // GTK 4 turns hint metrics off unless gtk-hint-font-metrics is set (gtkwidget.c).
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)  // copies the options
        cairo_font_options_destroy(options)
        pango_context_set_language(context, pango_language_from_string("en-us"))

        texts = corpus.entries.map { Array($0.text.utf8CString) }
        var byFont: [String: OpaquePointer] = [:]
        for entry in corpus.entries {
            if let known = byFont[entry.font] {
                descriptionOfEntry.append(known)
                continue
            }
            // What a description leaves out comes from the default "sans-serif 12", as in
            // the oracle (a GTK widget's font merged under the label's) and in fitd.
            let merged = pango_font_description_from_string("sans-serif 12")!
            let parsed = pango_font_description_from_string(entry.font)
            pango_font_description_merge(merged, parsed, fit_bench_true())
            pango_font_description_free(parsed)
            byFont[entry.font] = merged
            descriptions.append(merged)
            descriptionOfEntry.append(merged)
        }
    }

    deinit {
        for description in descriptions { pango_font_description_free(description) }
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
    }

    public func prepareCorpusPass() {}

    public func measureCorpus() -> Double {
        var sum: Int64 = 0
        for index in texts.indices {
            sum += Int64(logicalWidth(of: index))
        }
        return Double(sum) / fit_bench_pango_units_per_pixel()
    }

    /// The logical width in Pango units (1/1024 px).
    @inline(__always)
    func logicalWidth(of index: Int) -> Int32 {
        let layout = pango_layout_new(context)
        pango_layout_set_font_description(layout, descriptionOfEntry[index])
        texts[index].withUnsafeBufferPointer { pango_layout_set_text(layout, $0.baseAddress, -1) }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        g_object_unref(UnsafeMutableRawPointer(layout))
        return logical.width
    }

    public func widths() -> [Double]? {
        texts.indices.map { Double(logicalWidth(of: $0)) / fit_bench_pango_units_per_pixel() }
    }
}
