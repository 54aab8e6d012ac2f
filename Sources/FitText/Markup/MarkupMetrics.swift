import CFitShims
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

    /// The font of an item of spaces alone (itemize.c itemize_state_process_run: get_font
    /// for U+0020 in the current fontset): the style's set for the spaces' script, which is
    /// the text's before them in the paragraph, else after (Pango's script iterator resolves
    /// Common so): `<tt> <sup>مرحبا</sup></tt>` takes DejaVu Sans Mono, first in Arabic's
    /// "monospace", not Noto Sans Mono. Looks at most 64 units each way.
    static func spaceFont(_ resolved: ResolvedStyle, near k: Int, units: [UInt16]) -> Font? {
        func paragraphEnd(_ u: UInt16) -> Bool { u == 0x0A || u == 0x0D || u == 0x2029 }
        func script(at j: Int) -> Int32? {
            var scalar = UInt32(units[j])
            if (0xDC00...0xDFFF).contains(units[j]), j > 0, (0xD800...0xDBFF).contains(units[j - 1]) {
                scalar = 0x10000 + ((UInt32(units[j - 1]) - 0xD800) << 10) + (scalar - 0xDC00)
            }
            if (0xD800...0xDBFF).contains(units[j]) { return nil }
            let code = fit_script(scalar)
            return code > 1 ? code : nil  // USCRIPT_COMMON 0, USCRIPT_INHERITED 1
        }
        var found: Int32? = nil
        var j = k - 1
        while found == nil && j >= 0 && j >= k - 64 && !paragraphEnd(units[j]) {
            found = script(at: j)
            j -= 1
        }
        j = k + 1
        while found == nil && j < units.count && j <= k + 64 && !paragraphEnd(units[j]) {
            found = script(at: j)
            j += 1
        }
        guard let found, let set = try? resolved.fontSet(forScript: found) else { return resolved.primary }
        return (try? set.font(at: set.faceIndex(covering: UInt32(0x20)))) ?? resolved.primary
    }

    /// The baseline_shift attribute's value: PANGO_BASELINE_SHIFT_NONE 0, SUPERSCRIPT 1,
    /// SUBSCRIPT 2, or a length in Pango units (beyond ±1024).
    static func attributeValue(_ shift: MarkupStyle.BaselineShift) -> Int {
        switch shift {
        case .none: return 0
        case .superscript: return 1
        case .subscript: return 2
        case .units(let n): return n
        }
    }

    /// The font of the item before `offset`: nil at a paragraph's start; else the font that
    /// draws the character before it — the first of its style's set covering it, or for a
    /// space the font of the text before it in the same style (Pango keeps a run's font for
    /// its spaces), its style's primary when the space starts the style. `levels`: the
    /// text's bidi levels (nil: all left to right), asked only after spaces.
    static func previousFont(
        before offset: Int, units: [UInt16], styleOf: [Int32], styles: [ResolvedStyle], itemOf: [Int32],
        itemBreaks: [Bool], levels: () -> [UInt8]?
    ) -> Font? {
        func paragraphEnd(_ u: UInt16) -> Bool { u == 0x0A || u == 0x0D || u == 0x2029 }
        func space(_ u: UInt16) -> Bool { u == 0x20 || u == 0x09 }
        guard offset > 0, offset <= units.count, !paragraphEnd(units[offset - 1]) else { return nil }
        var k = offset - 1
        let style = styleOf[k]
        // Bounded by the stretch: each step moves back over one space of the same item kind
        // (styles that differ only in font_features are one item).
        while k > 0 && space(units[k]) && itemOf[Int(styleOf[k - 1])] == itemOf[Int(style)] && !paragraphEnd(units[k - 1])
            && !(itemBreaks.isEmpty ? false : itemBreaks[k])
        {
            k -= 1
        }
        let resolved = styles[Int(style)]
        if space(units[k]) { return spaceFont(resolved, near: k, units: units) }
        // Spaces of another bidi level than the text before them are an item of their own,
        // in the style's primary font (itemize.c: a level change ends the item): after
        // right-to-left text in a left-to-right paragraph before Latin, say; in a
        // right-to-left paragraph (its first strong character) they stay in its item.
        if k < offset - 1, let levels = levels(), levels[offset - 1] != levels[k] {
            return spaceFont(resolved, near: offset - 1, units: units)
        }
        var scalar = UInt32(units[k])
        if (0xDC00...0xDFFF).contains(units[k]), k > 0, (0xD800...0xDBFF).contains(units[k - 1]) {
            scalar = 0x10000 + ((UInt32(units[k - 1]) - 0xD800) << 10) + (scalar - 0xDC00)
        }
        // An emoji is drawn from the style's emoji set (itemize.c: the "emoji" family for
        // an emoji run), so its font is the previous one: `👍<sup>a</sup>` takes Noto Color
        // Emoji's OS/2 superscript size and offset. A selector, keycap or skin tone ends
        // an emoji sequence.
        let ender = scalar == 0xFE0F || scalar == 0x20E3 || (0x1F3FB...0x1F3FF).contains(scalar)
        if ender || UnicodeProperties.isEmojiPresentation(CollectionOfOne(scalar)) {
            // Spaces after it are not emoji: an item of their own (EMOJI_CHANGED) in the style's font.
            if k < offset - 1 { return resolved.primary }
            if let emoji = try? resolved.emojiSet() {
                return (try? emoji.font(at: ender ? 0 : emoji.faceIndex(covering: scalar))) ?? resolved.primary
            }
        }
        let set = resolved.baseSet
        return (try? set.font(at: set.faceIndex(covering: scalar))) ?? resolved.primary
    }
}

/// A markup text's bidi levels per UTF-16 unit, each paragraph's direction from its first
/// strong character (Pango's auto-dir), worked out once when first asked; nil when the text
/// has nothing right to left (or ICU fails: then every level is taken as 0).
final class MarkupBidiLevels {
    private let units: [UInt16]
    private var computed: [UInt8]?? = .none

    init(units: [UInt16]) { self.units = units }

    func levels() -> [UInt8]? {
        if case .some(let known) = computed { return known }
        let result: [UInt8]? = units.withUnsafeBufferPointer { text -> [UInt8]? in
            guard let base = text.baseAddress, TextAnalyzer.mayBeRightToLeft(text), text.count <= Int(Int32.max) else { return nil }
            var levels = [UInt8](repeating: 0, count: text.count)
            var status: Int32 = 0
            let level = levels.withUnsafeMutableBufferPointer { fit_bidi_levels(base, Int32(text.count), 2, $0.baseAddress, &status) }
            return level >= 0 ? levels : nil
        }
        computed = .some(result)
        return result
    }
}
