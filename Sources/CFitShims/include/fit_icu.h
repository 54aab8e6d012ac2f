#ifndef FIT_ICU_H
#define FIT_ICU_H
/*
 * ICU renames every public symbol per version (ubrk_open is really ubrk_open_72 on Debian 12),
 * through macros Swift cannot import. These shims are plain C functions compiled against the
 * installed headers, so the renaming happens here and Swift sees stable names.
 * ICU's own headers stay out of this header: Foundation bundles a different ICU whose
 * headers clash with the system's in any module that imports both. The few ICU constants
 * Swift needs are mirrored below; fit_icu.c checks at compile time that they match.
 */
#include <stdint.h>

/* UScriptCode values (ICU's are stable across versions: they are part of its ABI). */
enum {
    FIT_SCRIPT_COMMON = 0, FIT_SCRIPT_INHERITED = 1, FIT_SCRIPT_ARABIC = 2, FIT_SCRIPT_ARMENIAN = 3,
    FIT_SCRIPT_BENGALI = 4, FIT_SCRIPT_CYRILLIC = 8, FIT_SCRIPT_DEVANAGARI = 10, FIT_SCRIPT_ETHIOPIC = 11,
    FIT_SCRIPT_GEORGIAN = 12, FIT_SCRIPT_GREEK = 14, FIT_SCRIPT_GUJARATI = 15, FIT_SCRIPT_GURMUKHI = 16,
    FIT_SCRIPT_HAN = 17, FIT_SCRIPT_HANGUL = 18, FIT_SCRIPT_HEBREW = 19, FIT_SCRIPT_HIRAGANA = 20,
    FIT_SCRIPT_KANNADA = 21, FIT_SCRIPT_KATAKANA = 22, FIT_SCRIPT_KHMER = 23, FIT_SCRIPT_LAO = 24,
    FIT_SCRIPT_LATIN = 25, FIT_SCRIPT_MALAYALAM = 26, FIT_SCRIPT_MONGOLIAN = 27, FIT_SCRIPT_MYANMAR = 28,
    FIT_SCRIPT_ORIYA = 31, FIT_SCRIPT_SINHALA = 33, FIT_SCRIPT_SYRIAC = 34, FIT_SCRIPT_TAMIL = 35,
    FIT_SCRIPT_TELUGU = 36, FIT_SCRIPT_THAANA = 37, FIT_SCRIPT_THAI = 38, FIT_SCRIPT_TIBETAN = 39,
    FIT_SCRIPT_UNKNOWN = 103,
};

/* Binary properties the engine asks about (mapped to UProperty in fit_icu.c). */
typedef enum {
    FIT_PROPERTY_EMOJI = 0,
    FIT_PROPERTY_EMOJI_PRESENTATION = 1,
    FIT_PROPERTY_EMOJI_MODIFIER = 2,
    FIT_PROPERTY_REGIONAL_INDICATOR = 3,
    FIT_PROPERTY_EXTENDED_PICTOGRAPHIC = 4,
} FitProperty;

/* UCharCategory values used by the engine. */
enum { FIT_CATEGORY_NONSPACING_MARK = 6, FIT_CATEGORY_ENCLOSING_MARK = 7, FIT_CATEGORY_FORMAT = 16 };

#ifdef __cplusplus
extern "C" {
#endif

/* An ICU break iterator (UBreakIterator) over UTF-16 text. Not thread-safe: one user at a time. */
typedef struct FitBreaker FitBreaker;

typedef enum {
    FIT_BREAK_GRAPHEME = 0,  /* UBRK_CHARACTER: extended grapheme clusters, UAX #29 */
    FIT_BREAK_WORD = 1,      /* UBRK_WORD: word boundaries, UAX #29 */
    FIT_BREAK_LINE = 2,      /* UBRK_LINE: line break opportunities, UAX #14 */
} FitBreakKind;

/* Returns NULL and sets *status (a UErrorCode) on failure. */
FitBreaker *fit_breaker_open(FitBreakKind kind, const char *locale, int32_t *status);
void fit_breaker_close(FitBreaker *breaker);

/*
 * Writes the boundaries after 0 (so the last one is `length`) into `out`, and for line
 * breakers 1 into `hard` where the break is mandatory (UBRK_LINE_HARD), else 0; `hard` may
 * be NULL. Returns the number of boundaries, or -1 with *status set. `capacity` must be at
 * least length + 1 (every UTF-16 unit can end a segment).
 */
int32_t fit_breaker_boundaries(FitBreaker *breaker, const uint16_t *text, int32_t length,
                               int32_t *out, uint8_t *hard, int32_t capacity, int32_t *status);

/*
 * Unicode Bidirectional Algorithm (UAX #9) embedding levels, one per UTF-16 unit, into
 * `levels`. base: 0 = LTR, 1 = RTL, 2 = from the first strong character (default LTR), as
 * Pango's auto-dir does. Returns the paragraph level, or -1 with *status set.
 */
int32_t fit_bidi_levels(const uint16_t *text, int32_t length, int32_t base, uint8_t *levels,
                        int32_t *status);

/* UScriptCode of a code point (UAX #24 Script property). */
int32_t fit_script(uint32_t c);
/* ISO 15924 code of a script ("Latn"), or NULL. */
const char *fit_script_short_name(int32_t script);

int32_t fit_binary_property(uint32_t c, FitProperty property);
/* East Asian Width (UAX #11) is Wide or Fullwidth. */
int32_t fit_is_east_asian_wide(uint32_t c);
/* East Asian Width (UAX #11) is Ambiguous (A): one cell or two, by the terminal's setting. */
int32_t fit_is_east_asian_ambiguous(uint32_t c);
/* The Unicode version of ICU's character data, "15.0" (at least 16 bytes of buffer). */
void fit_unicode_version(char *buffer, int32_t capacity);
/* UCharCategory (general category) of a code point. */
int32_t fit_char_type(uint32_t c);
/* The paired bracket of a bracket (UAX #9 BD16), or c itself. */
uint32_t fit_paired_bracket(uint32_t c);
/* Line_Break is SA (complex context: Thai, Lao, Khmer, Myanmar…; UAX #14). */
int32_t fit_is_complex_context(uint32_t c);
/* The Line_Break property (UAX #14) of a code point: ICU's ULineBreak value (XX = 0 … ZWJ = 42,
 * stable across versions; later versions add classes after 42). */
int32_t fit_line_break(uint32_t c);
/* East Asian Width (UAX #11) is Wide, Fullwidth or Halfwidth (Pango's _pango_is_EastAsianWide,
 * pango-break-table.h, generated from EastAsianWidth.txt's F, W and H). */
int32_t fit_is_east_asian_wide_or_half(uint32_t c);
/* Extended_Pictographic (UTS #51) and unassigned (general category Cn). */
int32_t fit_is_unassigned_pictographic(uint32_t c);

#ifdef __cplusplus
}
#endif
#endif
