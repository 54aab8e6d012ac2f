import CFitShims
import CHarfBuzz

/// Small and petite capitals and unicase where the font lacks their OpenType features: Pango
/// 1.50 splits the item into lowercase and uppercase stretches, draws the lowercase ones
/// uppercased at the small-caps font scale (x-height over cap-height), and for the "all"
/// variants and unicase scales the uppercase ones too (itemize.c handle_variants_for_item,
/// split_item_for_variant; shape.c pango_hb_shape's text transform).
enum SmallCaps {
    /// itemize.c variant_supported / all_features_supported: every feature of the variant is
    /// in the GSUB language system HarfBuzz selects for the item's script and its derived
    /// language (Latin in a zh-cn context is "en", not Chinese).
    /// The font is the item's: the one of the script's set that has the first character that
    /// is no space (Noto Sans Mono for Latin where "monospace" in zh-cn starts with a CJK font).
    static func supported(
        _ variant: FontVariant, style: ResolvedStyle, text: Substring.UnicodeScalarView, context: LanguageContext
    ) throws(FitTextError) -> Bool {
        if variant == .normal || variant == .titleCaps { return true }
        // The item's script: its first character of a real script, else Common (ICU's 0).
        var icuScript: Int32 = 0
        for scalar in text {
            let script = fit_script(scalar.value)
            if script > 1 && script != 103 {  // not Common, Inherited, Unknown
                icuScript = script
                break
            }
        }
        let set = try style.fontSet(forScript: icuScript)
        let first = text.first(where: { !considerAsSpace($0) })
        let font = try set.font(at: first.map { set.faceIndex(covering: $0.value) } ?? 0)
        let script = fit_script_short_name(icuScript).map { hb_script_from_string($0, -1) } ?? HB_SCRIPT_COMMON
        let language = context.derivedLanguage(script: icuScript)
        let face = hb_font_get_face(font.hbFont)
        var scriptCount = UInt32(HB_OT_MAX_TAGS_PER_SCRIPT)
        var scriptTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_SCRIPT))
        var languageCount = UInt32(HB_OT_MAX_TAGS_PER_LANGUAGE)
        var languageTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_LANGUAGE))
        let hbLanguage = hb_language_from_string(language, -1)
        hb_ot_tags_from_script_and_language(script, hbLanguage, &scriptCount, &scriptTags, &languageCount, &languageTags)
        let gsub = hb_tag_t(0x4753_5542)  // 'GSUB'
        var scriptIndex: UInt32 = 0
        var chosen: hb_tag_t = 0
        hb_ot_layout_table_select_script(face, gsub, scriptCount, &scriptTags, &scriptIndex, &chosen)
        var languageIndex: UInt32 = 0
        hb_ot_layout_script_select_language(face, gsub, scriptIndex, languageCount, &languageTags, &languageIndex)
        for feature in variant.features {
            let bytes = Array(feature.utf8)
            guard bytes.count == 4 else { return false }
            let tag = bytes.reduce(hb_tag_t(0)) { $0 << 8 | hb_tag_t($1) }
            var index: UInt32 = 0
            if hb_ot_layout_language_find_feature(face, gsub, scriptIndex, languageIndex, tag, &index) == 0 { return false }
        }
        return true
    }

    /// itemize.c consider_as_space: characters that stay in the stretch before them.
    static func considerAsSpace(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .control, .surrogate, .lineSeparator, .paragraphSeparator: return true
        case .format: return !((0x600...0x6FF).contains(v) || v == 0x70F || v == 0x8E2)
        case .spaceSeparator: return v != 0x1680
        default: return (0xFE00...0xFE0F).contains(v) || (0xE0100...0xE01EF).contains(v)
        }
    }

    /// The markup's text and runs with each run whose variant `emulated` says the font lacks
    /// split as split_item_for_variant does: lowercase stretches (with the spaces after them)
    /// uppercased — shape.c: g_utf8_strup of each letter or digit — with a small-caps font
    /// scale; uppercase stretches scaled too for all-small-caps, all-petite-caps and unicase
    /// (which keeps its lowercase as it is). The text grows at most threefold (the longest
    /// full uppercase mapping is three characters).
    static func emulate(
        _ parsed: MarkupParser.Result, base: FontDescription,
        emulated: (MarkupStyle, FontVariant, Substring) throws(FitTextError) -> Bool
    ) throws(FitTextError) -> MarkupParser.Result {
        guard parsed.runs.contains(where: { ($0.style.variant ?? base.variant) != .normal && ($0.style.variant ?? base.variant) != .titleCaps })
        else { return parsed }
        var changed = false
        var text = ""
        var runs: [MarkupParser.Run] = []
        var count = 0
        let units = parsed.text.utf16
        func append(_ piece: Substring, _ style: MarkupStyle) {
            let length = piece.utf16.count
            guard length > 0 else { return }
            text += piece
            if let last = runs.last, last.style == style, last.utf16.upperBound == count {
                runs[runs.count - 1].utf16 = last.utf16.lowerBound..<(count + length)
            } else {
                runs.append(MarkupParser.Run(utf16: count..<(count + length), style: style))
            }
            count += length
        }
        // The runs are in order and cover the text: one walk over it, not a walk per run.
        let total = units.count
        var position = units.startIndex
        var offset = 0
        for run in parsed.runs {
            guard run.utf16.lowerBound >= offset, run.utf16.upperBound <= total else { return parsed }
            let start = units.index(position, offsetBy: run.utf16.lowerBound - offset)
            if start != position, let lo = position.samePosition(in: parsed.text), let hi = start.samePosition(in: parsed.text) {
                append(parsed.text[lo..<hi], MarkupStyle())
            }
            let end = units.index(start, offsetBy: run.utf16.count)
            position = end
            offset = run.utf16.upperBound
            guard let lo = start.samePosition(in: parsed.text), let hi = end.samePosition(in: parsed.text) else {
                append(parsed.text[start..<end], run.style)
                continue
            }
            let piece = parsed.text[lo..<hi]
            let variant = run.style.variant ?? base.variant
            guard variant != .normal, variant != .titleCaps, try emulated(run.style, variant, piece) else {
                append(piece, run.style)
                continue
            }
            changed = true
            let uppercaseLower = variant != .unicase
            let scaleUpper = variant == .allSmallCaps || variant == .allPetiteCaps || variant == .unicase
            // The small-caps scale is the item's own font's (collect_font_scale), so its
            // anchor does not matter: one for all, so the stretches share one style.
            var scaled = run.style
            scaled.fontScales.append(.init(value: .smallCaps, offset: 0))
            let lowerStyle = uppercaseLower ? scaled : run.style
            let upperStyle = scaleUpper ? scaled : run.style
            var lower = true
            var segment = ""
            func flush() {
                append(Substring(segment), lower ? lowerStyle : upperStyle)
                segment = ""
            }
            for scalar in piece.unicodeScalars {
                if !considerAsSpace(scalar) {
                    let isLower = scalar.properties.generalCategory == .lowercaseLetter
                    if isLower != lower {
                        flush()
                        lower = isLower
                    }
                }
                if lower && uppercaseLower && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil) {
                    segment += String(scalar).uppercased()
                } else {
                    segment.unicodeScalars.append(scalar)
                }
            }
            flush()
        }
        if offset < total, let lo = position.samePosition(in: parsed.text) { append(parsed.text[lo...], MarkupStyle()) }
        return changed ? MarkupParser.Result(text: text, runs: runs) : parsed
    }
}
