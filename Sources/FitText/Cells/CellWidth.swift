import CFitShims

/// How many terminal columns a grapheme cluster takes, as modern terminals draw it (one
/// cluster, one cell group): emoji presentation sequences (ZWJ sequences, flags, skin tones,
/// keycaps, VS16) are 2; an emoji-default character with VS15 (text presentation) is 1; a
/// cluster whose base is East Asian Wide or Fullwidth (UAX #11) is 2; a cluster made only of
/// combining marks, format and other zero-width characters is 0; control characters are 0;
/// everything else is 1.
///
/// That is the ``TerminalProfile/grapheme`` profile; ``TerminalProfile/wcwidth`` adds up each
/// code point's width instead (``codePointColumns(_:ambiguous:)``). With
/// ``AmbiguousWidth/wide``, East Asian Width A counts as W in both.
public enum CellWidth {
    /// The Unicode version of the tables both profiles read (ICU's character data: "15.0"
    /// with Debian 12's ICU 72).
    public static var unicodeVersion: String { UnicodeProperties.unicodeVersion }

    public static func columns(
        ofCluster scalars: some Collection<UInt32>, terminal: TerminalProfile = .grapheme, ambiguous: AmbiguousWidth = .narrow
    ) -> Int {
        if terminal == .wcwidth {
            var total = 0
            for c in scalars { total += codePointColumns(c, ambiguous: ambiguous) }
            return total
        }
        guard let first = scalars.first else { return 0 }
        if UnicodeProperties.isControl(first) { return 0 }
        if UnicodeProperties.isEmojiPresentation(scalars) { return 2 }
        // VS15 right after a character that defaults to emoji presentation asks for its text
        // form, which takes one cell (kitty's cell-splitting spec, "Unicode variation
        // selectors": a Basic_Emoji without FE0F in emoji-sequences.txt narrows to width one).
        if scalars.dropFirst().first == 0xFE0E, fit_binary_property(first, FIT_PROPERTY_EMOJI_PRESENTATION) != 0 { return 1 }
        guard let base = scalars.first(where: { !isZeroWidth($0) }) else { return 0 }
        return UnicodeProperties.isWide(base) || (ambiguous == .wide && UnicodeProperties.isAmbiguous(base)) ? 2 : 1
    }

    /// One code point's columns as Markus Kuhn's wcwidth.c rules give them, which glibc's
    /// wcwidth, GLib's g_unichar_iszerowidth/iswide (VTE), xterm's and tmux's tables follow:
    /// controls 0 (wcwidth says -1; a terminal draws nothing), Mn, Me and Cf 0 except SOFT
    /// HYPHEN (1, and 2 when ambiguous is wide: it is East Asian Width A), Hangul medial vowels and finals (U+1160–U+11FF, U+D7B0–U+D7FF) 0, East
    /// Asian Wide or Fullwidth 2 (emoji with Emoji_Presentation are W, so 😀 is 2 and its
    /// skin-tone modifier 2 more), everything else 1. Variation selectors are Mn: ❤️ stays 1.
    public static func codePointColumns(_ c: UInt32, ambiguous: AmbiguousWidth = .narrow) -> Int {
        if UnicodeProperties.isControl(c) { return 0 }
        // GLib's g_unichar_iszerowidth, which VTE's width table is generated from
        // (vte src/unicode-width-generate.py): SOFT HYPHEN first, then Mn/Me/Cf, jamo, ZWSP.
        if c != 0xAD {
            if (0x1160...0x11FF).contains(c) || (0xD7B0...0xD7FF).contains(c) || c == 0x200B { return 0 }
            switch UnicodeProperties.generalCategory(c) {
            case Int32(FIT_CATEGORY_NONSPACING_MARK), Int32(FIT_CATEGORY_ENCLOSING_MARK), Int32(FIT_CATEGORY_FORMAT):
                return 0
            default:
                break
            }
        }
        if UnicodeProperties.isWide(c) { return 2 }
        return ambiguous == .wide && UnicodeProperties.isAmbiguous(c) ? 2 : 1
    }

    /// Columns of a whole string, summed over its grapheme clusters (UAX #29, as Swift's
    /// `Character` splits them).
    public static func columns(of text: String, terminal: TerminalProfile = .grapheme, ambiguous: AmbiguousWidth = .narrow) -> Int {
        var total = 0
        for character in text {
            total += columns(ofCluster: character.unicodeScalars.map(\.value), terminal: terminal, ambiguous: ambiguous)
        }
        return total
    }

    /// Takes no column of its own: nonspacing and enclosing marks (Mn, Me), format characters
    /// (Cf, e.g. ZWJ, bidi controls), default ignorables (variation selectors), Hangul medial
    /// vowels and final consonants (U+1160–U+11FF, which join the initial consonant's cell).
    static func isZeroWidth(_ c: UInt32) -> Bool {
        if FontSet.isDefaultIgnorable(c) { return true }
        if (0x1160...0x11FF).contains(c) || (0xD7B0...0xD7FF).contains(c) { return true }
        switch UnicodeProperties.generalCategory(c) {
        case Int32(FIT_CATEGORY_NONSPACING_MARK), Int32(FIT_CATEGORY_ENCLOSING_MARK), Int32(FIT_CATEGORY_FORMAT):
            return true
        default:
            return false
        }
    }
}
