import CFitShims

/// How many terminal columns a grapheme cluster takes, as modern terminals draw it (one
/// cluster, one cell group): emoji presentation sequences (ZWJ sequences, flags, skin tones,
/// keycaps, VS16) are 2; an emoji-default character with VS15 (text presentation) is 1; a
/// cluster whose base is East Asian Wide or Fullwidth (UAX #11) is 2; a cluster made only of
/// combining marks, format and other zero-width characters is 0; control characters are 0;
/// everything else is 1.
public enum CellWidth {
    public static func columns(ofCluster scalars: some Collection<UInt32>) -> Int {
        guard let first = scalars.first else { return 0 }
        if UnicodeProperties.isControl(first) { return 0 }
        if UnicodeProperties.isEmojiPresentation(scalars) { return 2 }
        // VS15 right after a character that defaults to emoji presentation asks for its text
        // form, which takes one cell (kitty's cell-splitting spec, "Unicode variation
        // selectors": a Basic_Emoji without FE0F in emoji-sequences.txt narrows to width one).
        if scalars.dropFirst().first == 0xFE0E, fit_binary_property(first, FIT_PROPERTY_EMOJI_PRESENTATION) != 0 { return 1 }
        guard let base = scalars.first(where: { !isZeroWidth($0) }) else { return 0 }
        return UnicodeProperties.isWide(base) ? 2 : 1
    }

    /// Columns of a whole string, summed over its grapheme clusters (UAX #29, as Swift's
    /// `Character` splits them).
    public static func columns(of text: String) -> Int {
        var total = 0
        for character in text {
            total += columns(ofCluster: character.unicodeScalars.map(\.value))
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
