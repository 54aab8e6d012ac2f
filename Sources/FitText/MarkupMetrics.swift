import CHarfBuzz

/// Sizes and offsets of sub/sup, font_scale and baseline_shift, which Pango takes from the
/// OS/2 table of the font of the text before the tag (the previous item's).
enum MarkupMetrics {
    private static func position(_ font: Font, _ tag: hb_ot_metrics_tag_t) -> (found: Bool, value: Int32) {
        var value: hb_position_t = 0
        let found = hb_ot_metrics_get_position(font.hbFont, tag, &value) != 0
        return (found, value)
    }

    /// The product of the font scales in force (itemize.c collect_font_scale): superscript
    /// and subscript are the previous font's OS/2 y size over its y scale, or 1/1.2 without
    /// one (or at the start of the text); small-caps is x-height over cap-height of the item's
    /// own font, or 0.8.
    static func scale(_ scales: [MarkupStyle.Anchored<MarkupStyle.FontScale>], previous: (Int) -> Font?, own: Font) -> Double {
        var product = 1.0
        for entry in scales {
            switch entry.value {
            case .none: break
            case .superscript, .subscript:
                let tag: hb_ot_metrics_tag_t =
                    entry.value == .superscript ? HB_OT_METRICS_TAG_SUPERSCRIPT_EM_Y_SIZE : HB_OT_METRICS_TAG_SUBSCRIPT_EM_Y_SIZE
                if let font = previous(entry.offset), case let (true, size) = position(font, tag) {
                    var xScale: Int32 = 0
                    var yScale: Int32 = 0
                    hb_font_get_scale(font.hbFont, &xScale, &yScale)
                    product *= yScale != 0 ? Double(size) / Double(yScale) : 1 / 1.2
                } else {
                    product *= 1 / 1.2
                }
            case .smallCaps:
                let cap = position(own, HB_OT_METRICS_TAG_CAP_HEIGHT)
                let x = position(own, HB_OT_METRICS_TAG_X_HEIGHT)
                product *= cap.found && x.found && cap.value != 0 ? Double(x.value) / Double(cap.value) : 0.8
            }
        }
        return product
    }

    /// The text's raise in Pango units (pango-layout.c collect_baseline_shift): the rise,
    /// plus each baseline shift in force — a length as given, or the previous font's OS/2
    /// superscript / subscript y offset (5000 when it is 0 or there is no previous text).
    static func shift(_ entry: MarkupStyle.Anchored<MarkupStyle.BaselineShift>, previous: Font?) -> Int {
        switch entry.value {
        case .none: return 0
        case .units(let n): return n
        case .superscript, .subscript:
            let tag: hb_ot_metrics_tag_t =
                entry.value == .superscript ? HB_OT_METRICS_TAG_SUPERSCRIPT_EM_Y_OFFSET : HB_OT_METRICS_TAG_SUBSCRIPT_EM_Y_OFFSET
            var value = previous.map { Int(position($0, tag).value) } ?? 0
            if value == 0 { value = 5000 }
            return entry.value == .superscript ? value : -value
        }
    }

    /// The font of the item before `offset`: nil at a paragraph's start; else the font that
    /// draws the character before it — the first of its style's set covering it, or for a
    /// space the font of the text before it in the same style (Pango keeps a run's font for
    /// its spaces), its style's primary when the space starts the style.
    static func previousFont(before offset: Int, units: [UInt16], styleOf: [Int32], styles: [ResolvedStyle]) -> Font? {
        func paragraphEnd(_ u: UInt16) -> Bool { u == 0x0A || u == 0x0D || u == 0x2029 }
        func space(_ u: UInt16) -> Bool { u == 0x20 || u == 0x09 }
        guard offset > 0, offset <= units.count, !paragraphEnd(units[offset - 1]) else { return nil }
        var k = offset - 1
        let style = styleOf[k]
        // Bounded by the stretch: each step moves back over one space of the same style.
        while k > 0 && space(units[k]) && styleOf[k - 1] == style && !paragraphEnd(units[k - 1]) { k -= 1 }
        let resolved = styles[Int(style)]
        if space(units[k]) { return resolved.primary }
        // Spaces after right-to-left text are an item of their own (another bidi level, in
        // the style's primary font) when left-to-right text follows; before digits or more
        // right-to-left text they resolve to its level and stay in its item (UAX #9 N1).
        if k < offset - 1 && (0x0590...0x08FF).contains(units[k]) {
            var next = offset
            while next < units.count && next < offset + 64 && units[next] < 0x80
                && !(units[next] >= 0x30 && units[next] <= 0x39) && !(units[next] | 0x20 >= 0x61 && units[next] | 0x20 <= 0x7A)
                && !paragraphEnd(units[next])
            {
                next += 1
            }
            let rightToLeftOrDigit = next < units.count
                && ((units[next] >= 0x30 && units[next] <= 0x39) || (0x0590...0x08FF).contains(units[next]))
            if !rightToLeftOrDigit { return resolved.primary }
        }
        var scalar = UInt32(units[k])
        if (0xDC00...0xDFFF).contains(units[k]), k > 0, (0xD800...0xDBFF).contains(units[k - 1]) {
            scalar = 0x10000 + ((UInt32(units[k - 1]) - 0xD800) << 10) + (scalar - 0xDC00)
        }
        let set = resolved.baseSet
        return (try? set.font(at: set.faceIndex(covering: scalar))) ?? resolved.primary
    }
}
