import CFitShims

/// Unicode character properties from ICU, for the few decisions the engine makes per cluster.
enum UnicodeProperties {
    /// Whether a grapheme cluster is shown as an emoji (colour, two terminal cells) rather than
    /// as text, after UTS #51 §4 ("emoji presentation sequence") and the segmentation Pango
    /// and Chromium use: an Emoji_Presentation character not followed by VS15, any character
    /// followed by VS16, a keycap sequence, a regional-indicator pair (a flag), an emoji
    /// modifier sequence (skin tones), or a ZWJ sequence of pictographs.
    static func isEmojiPresentation(_ scalars: some Collection<UInt32>) -> Bool {
        guard let first = scalars.first else { return false }
        // Nothing below U+231A (⌚, the first Emoji_Presentation character) is an emoji on
        // its own; keycaps and VS16 sequences have more than one code point.
        // Nor is a lone code point between U+2B55 (⭕, the last Emoji_Presentation character of
        // the BMP) and U+1F004 (🀄, the next) — all of CJK, Hangul and the rest of the BMP
        // (emoji-data.txt, Unicode 15). Most clusters stop here, before any ICU call.
        if (first < 0x231A || (first > 0x2B55 && first < 0x1F004)) && scalars.count == 1 { return false }
        var hasVS16 = false
        var hasVS15 = false
        var hasKeycap = false
        var hasModifier = false
        var hasZWJ = false
        for c in scalars.dropFirst() {
            switch c {
            case 0xFE0F: hasVS16 = true
            case 0xFE0E: hasVS15 = true
            case 0x20E3: hasKeycap = true
            case 0x200D: hasZWJ = true
            case 0x1F3FB...0x1F3FF: hasModifier = true
            default: break
            }
        }
        if hasVS15 { return false }
        if hasVS16 || hasKeycap { return true }
        if fit_binary_property(first, FIT_PROPERTY_REGIONAL_INDICATOR) != 0 { return scalars.count >= 2 }
        if fit_binary_property(first, FIT_PROPERTY_EMOJI_PRESENTATION) != 0 { return true }
        let pictographic = fit_binary_property(first, FIT_PROPERTY_EXTENDED_PICTOGRAPHIC) != 0
        return pictographic && (hasModifier || hasZWJ) && fit_binary_property(first, FIT_PROPERTY_EMOJI) != 0
    }

    /// General category Cc (C0/C1 controls).
    static func isControl(_ c: UInt32) -> Bool {
        c < 0x20 || (c >= 0x7F && c < 0xA0)
    }

    /// Characters that never choose a font: they stay in the font of the run around them
    /// (Pango's itemize.c consider_as_space): controls, format characters (not the visible
    /// ones of the Arabic block), line and paragraph separators, variation selectors, and
    /// every space separator but U+1680 — also the no-break and narrow spaces (U+00A0,
    /// U+202F, U+2009, U+3000…), which HarfBuzz draws as a space in any font that lacks them.
    static func keepsRunFont(_ c: UInt32) -> Bool {
        switch c {
        case 0x20, 0xA0, 0x2000...0x200A, 0x202F, 0x205F, 0x3000, 0x2028, 0x2029, 0xFE00...0xFE0F, 0xE0100...0xE01EF:
            return true
        case 0x600...0x6FF, 0x70F, 0x8E2:
            return false
        default:
            return isControl(c) || FontSet.isDefaultIgnorable(c)
        }
    }

    /// East Asian Width (UAX #11) is Wide or Fullwidth.
    static func isWide(_ c: UInt32) -> Bool {
        fit_is_east_asian_wide(c) != 0
    }

    /// East Asian Width (UAX #11) is Ambiguous.
    static func isAmbiguous(_ c: UInt32) -> Bool {
        c >= 0xA1 && fit_is_east_asian_ambiguous(c) != 0
    }

    /// The Unicode version of the character data (ICU's): "15.0" with Debian 12's ICU 72.
    static let unicodeVersion: String = {
        var buffer = [CChar](repeating: 0, count: 32)
        fit_unicode_version(&buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// General category of a code point (ICU's UCharCategory numbering).
    static func generalCategory(_ c: UInt32) -> Int32 { fit_char_type(c) }
}
