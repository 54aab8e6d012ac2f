import CHarfBuzz
import Synchronization

/// Pango 1.50 aligns the runs of a line on the dominant baseline of the line's first run
/// (pango-layout.c, apply_baseline_shift, called from pango_layout_line_postprocess before
/// ellipsizing): the first run's script picks the baseline
/// (hb_ot_layout_get_horizontal_baseline_tag_for_script: hanging for Devanagari, Bengali…,
/// ideographic face bottom for Han, kana, Hangul, roman otherwise); each run is raised by
/// `first run's baseline − its own` (hb_ot_layout_get_baseline_with_fallback, in its font,
/// for its script and language), and its logical rectangle moves with it
/// (pango_layout_run_get_extents: `logical.y -= y_offset`). So a line's ascent is the
/// largest `ascent + shift` and its descent the largest `descent − shift`.
/// `通ಳು` in Noto Sans 10: the Kannada run (Noto Serif Kannada, no BASE table) is aligned on
/// Noto Sans CJK's ideographic baseline, and the line is 22.29 px high, not 24.93.
struct BaselineShift {
    let tag: hb_ot_layout_baseline_tag_t
    /// The first run's baseline (HarfBuzz units = Pango units).
    let base: Int32
    let language: LanguageContext
    let firstFont: Font
    let firstScript: Int32

    /// The shift for a line (`line`: its clusters before ellipsizing) with more than one run, or nil when nothing moves: the roman baseline is 0 in
    /// every font without a BASE table (HarfBuzz's fallback), the common case, told
    /// without a HarfBuzz call.
    init?(line: Range<Int>, breaker: LineBreaker, style: ResolvedStyle) {
        guard let first = line.first else { return nil }
        firstFont = breaker.fonts[Int(breaker.clusters[first].font)]
        firstScript = breaker.clusters[first].script
        tag = BaselineShift.tags[Int(firstScript)]
        // (Any font of the paragraph, a handful: computing shifts that come out 0 is only slower.)
        if tag == HB_OT_LAYOUT_BASELINE_TAG_ROMAN && !breaker.fonts.contains(where: { $0.hasBaseTable }) { return nil }
        language = style.language
        base = firstFont.baselines.value(tag, script: firstScript, language: language)
    }

    /// The dominant baseline of each script (ICU code; Pango's cluster script fits in a byte),
    /// worked out once rather than per line.
    static let tags: [hb_ot_layout_baseline_tag_t] = (0..<256).map {
        hb_ot_layout_get_horizontal_baseline_tag_for_script(Shaper.hbScript(Int32($0)))
    }

    /// How far (px) a run of `script` in `font` is raised: its logical rectangle moves up by
    /// as much (pango_layout_run_get_extents).
    func raise(_ font: Font, script: Int32) -> Double {
        if font === firstFont && script == firstScript { return 0 }
        return Double(base - font.baselines.value(tag, script: script, language: language)) / Font.unitsPerPixel
    }
}

/// A font's baselines (HarfBuzz units = Pango units), asked of HarfBuzz once per baseline,
/// script and language: a handful per font.
final class FontBaselines: Sendable {
    nonisolated(unsafe) private let hbFont: OpaquePointer
    /// Whether the font has a BASE table (else every roman baseline is 0).
    let hasTable: Bool
    private struct Entry {
        var tag: UInt32
        var script: Int32
        var language: UInt
        var value: Int32
    }
    /// A few entries (baselines × the scripts the font is used for), scanned: no hashing,
    /// since this is asked per run of every line that mixes fonts.
    private let values = Mutex<[Entry]>([])
    /// The font's hex box (ascent, descent), once worked out (``ResolvedStyle/hexBoxExtents``).
    let hexBox = Mutex<(Double, Double)?>(nil)

    init(hbFont: OpaquePointer) {
        self.hbFont = hbFont
        let blob = hb_face_reference_table(hb_font_get_face(hbFont), FontBaselines.baseTag)
        hasTable = hb_blob_get_length(blob) > 0
        hb_blob_destroy(blob)
    }

    static let baseTag: hb_tag_t = 0x4241_5345  // 'BASE'

    /// `tag` of this font for a run of `script` (ICU code) in its derived language, as
    /// apply_baseline_shift asks it: the last OpenType script and language tags HarfBuzz
    /// gives for them, horizontal direction.
    func value(_ tag: hb_ot_layout_baseline_tag_t, script: Int32, language: LanguageContext) -> Int32 {
        let hbLanguage = language.hbLanguage(script: script)
        let known = values.withLock { entries -> Int32? in
            for entry in entries where entry.tag == tag.rawValue && entry.script == script && entry.language == hbLanguage {
                return entry.value
            }
            return nil
        }
        if let known { return known }
        var scriptTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_SCRIPT))
        var languageTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_LANGUAGE))
        var scriptCount = UInt32(scriptTags.count)
        var languageCount = UInt32(languageTags.count)
        hb_ot_tags_from_script_and_language(
            Shaper.hbScript(script), OpaquePointer(bitPattern: hbLanguage), &scriptCount, &scriptTags, &languageCount, &languageTags)
        let scriptTag = scriptCount > 0 ? scriptTags[Int(scriptCount) - 1] : 0x4446_4c54  // 'DFLT'
        let languageTag = languageCount > 0 ? languageTags[Int(languageCount) - 1] : 0  // HB_TAG_NONE
        var coordinate: hb_position_t = 0
        hb_ot_layout_get_baseline_with_fallback(hbFont, tag, HB_DIRECTION_LTR, scriptTag, languageTag, &coordinate)
        // Bounded: a few baselines × the scripts a font is used for.
        values.withLock { entries in
            if entries.count < 64 {
                entries.append(Entry(tag: tag.rawValue, script: script, language: hbLanguage, value: coordinate))
            }
        }
        return coordinate
    }
}

extension ResolvedStyle {
    /// The logical ascent and descent (px) of the hex box Pango draws for a character no
    /// font has, in `font` (pangocairo-font.c, _pango_cairo_font_private_get_hex_box_info
    /// and _pango_cairo_font_private_get_glyph_extents_missing; unhinted, as GTK 4): two rows
    /// of hex digits of the "monospace" mini font at size / 2.2, padded by
    /// pad = min((ascent + descent) / 43, mini size); box height = 3 pad + 2 (pad + digit
    /// height); the box sits `box_descent` below the baseline; the logical rectangle adds
    /// pad above and below. `\u{F8FF}` alone in Sans 10 is 11.853 px high, not Noto Sans's
    /// 18.159. Kept per font (asked per line that shows a box).
    func hexBoxExtents(font: Font) -> (Double, Double) {
        if let known = font.baselines.hexBox.withLock({ $0 }) { return known }
        var mini = description
        mini.families = ["monospace"]
        let miniSize = (font.pixelSize / 2.2 * Font.unitsPerPixel).rounded() / Font.unitsPerPixel
        var digitHeight = 0.0
        if let miniFont = try? resolver.fontSet(for: mini, pixelSize: miniSize, language: "en").font(at: 0) {
            for digit in "0123456789ABCDEF".unicodeScalars {
                var glyph: hb_codepoint_t = 0
                var extents = hb_glyph_extents_t()
                if hb_font_get_nominal_glyph(miniFont.hbFont, digit.value, &glyph) != 0,
                    hb_font_get_glyph_extents(miniFont.hbFont, glyph, &extents) != 0
                {
                    digitHeight = max(digitHeight, Double(-extents.height) / Font.unitsPerPixel)
                }
            }
        }
        let fontAscent = font.ascent + font.descent > 0 ? font.ascent : 1.0  // PANGO_UNKNOWN_GLYPH_HEIGHT
        let fontDescent = font.ascent + font.descent > 0 ? font.descent : 0
        let pad = min((fontAscent + fontDescent) / 43, miniSize)
        let boxHeight = 3 * pad + 2 * (pad + digitHeight)
        let boxDescent: Double
        if boxHeight <= fontAscent {
            boxDescent = 2 * pad
        } else if boxHeight <= fontAscent + fontDescent - 2 * pad {
            boxDescent = 2 * pad + boxHeight - fontAscent
        } else {
            boxDescent = fontDescent * boxHeight / (fontAscent + fontDescent)
        }
        // logical y = PANGO_SCALE × (box_descent − (box_height + pad)), height = PANGO_SCALE ×
        // (box_height + 2 pad), each stored in an int (truncated toward zero).
        let y = (Font.unitsPerPixel * (boxDescent - (boxHeight + pad))).rounded(.towardZero)
        let height = (Font.unitsPerPixel * (boxHeight + 2 * pad)).rounded(.towardZero)
        let result = (-y / Font.unitsPerPixel, (y + height) / Font.unitsPerPixel)
        font.baselines.hexBox.withLock { $0 = result }
        return result
    }
}
