#include "fit_icu.h"
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/ubidi.h>
#include <unicode/uscript.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>

_Static_assert(FIT_SCRIPT_ARABIC == USCRIPT_ARABIC && FIT_SCRIPT_LATIN == USCRIPT_LATIN &&
               FIT_SCRIPT_HAN == USCRIPT_HAN && FIT_SCRIPT_THAI == USCRIPT_THAI &&
               FIT_SCRIPT_TIBETAN == USCRIPT_TIBETAN && FIT_SCRIPT_UNKNOWN == USCRIPT_UNKNOWN &&
               FIT_SCRIPT_HANGUL == USCRIPT_HANGUL && FIT_SCRIPT_KATAKANA == USCRIPT_KATAKANA &&
               FIT_SCRIPT_DEVANAGARI == USCRIPT_DEVANAGARI && FIT_SCRIPT_ORIYA == USCRIPT_ORIYA &&
               FIT_SCRIPT_SINHALA == USCRIPT_SINHALA && FIT_SCRIPT_THAANA == USCRIPT_THAANA,
               "FIT_SCRIPT_* must equal ICU's UScriptCode values");
_Static_assert(U_LB_UNKNOWN == 0 && U_LB_ALPHABETIC == 2 && U_LB_COMPLEX_CONTEXT == 24 && U_LB_SPACE == 26 &&
               U_LB_CLOSE_PARENTHESIS == 36 && U_LB_ZWJ == 42,
               "PangoLineBreaks.Class mirrors ICU's ULineBreak values");
_Static_assert(FIT_CATEGORY_NONSPACING_MARK == U_NON_SPACING_MARK &&
               FIT_CATEGORY_ENCLOSING_MARK == U_ENCLOSING_MARK && FIT_CATEGORY_FORMAT == U_FORMAT_CHAR,
               "FIT_CATEGORY_* must equal ICU's UCharCategory values");

struct FitBreaker {
    UBreakIterator *iterator;
    int is_line;
};

FitBreaker *fit_breaker_open(FitBreakKind kind, const char *locale, int32_t *status) {
    UErrorCode error = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open((UBreakIteratorType)kind, locale, NULL, 0, &error);
    if (U_FAILURE(error) || iterator == NULL) {
        *status = (int32_t)error;
        return NULL;
    }
    FitBreaker *breaker = malloc(sizeof(FitBreaker));
    if (breaker == NULL) {
        ubrk_close(iterator);
        *status = (int32_t)U_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    breaker->iterator = iterator;
    breaker->is_line = kind == FIT_BREAK_LINE;
    *status = 0;
    return breaker;
}

void fit_breaker_close(FitBreaker *breaker) {
    if (breaker == NULL) return;
    ubrk_close(breaker->iterator);
    free(breaker);
}

int32_t fit_breaker_boundaries(FitBreaker *breaker, const uint16_t *text, int32_t length,
                               int32_t *out, uint8_t *hard, int32_t capacity, int32_t *status) {
    UErrorCode error = U_ZERO_ERROR;
    if (capacity < length + 1) {
        *status = (int32_t)U_BUFFER_OVERFLOW_ERROR;
        return -1;
    }
    ubrk_setText(breaker->iterator, (const UChar *)text, length, &error);
    if (U_FAILURE(error)) {
        *status = (int32_t)error;
        return -1;
    }
    int32_t count = 0;
    for (int32_t b = ubrk_next(breaker->iterator); b != UBRK_DONE; b = ubrk_next(breaker->iterator)) {
        out[count] = b;
        if (hard != NULL) {
            int32_t rule = breaker->is_line ? ubrk_getRuleStatus(breaker->iterator) : 0;
            hard[count] = (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 1 : 0;
        }
        count++;
    }
    /* Leave no pointer to the caller's buffer behind. */
    ubrk_setText(breaker->iterator, NULL, 0, &error);
    *status = 0;
    return count;
}

int32_t fit_bidi_levels(const uint16_t *text, int32_t length, int32_t base, uint8_t *levels,
                        int32_t *status) {
    UErrorCode error = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &error);
    if (U_FAILURE(error) || bidi == NULL) {
        *status = (int32_t)error;
        return -1;
    }
    UBiDiLevel paragraph = base == 0 ? 0 : (base == 1 ? 1 : UBIDI_DEFAULT_LTR);
    ubidi_setPara(bidi, (const UChar *)text, length, paragraph, NULL, &error);
    if (U_FAILURE(error)) {
        ubidi_close(bidi);
        *status = (int32_t)error;
        return -1;
    }
    const UBiDiLevel *computed = ubidi_getLevels(bidi, &error);
    if (U_FAILURE(error) || (computed == NULL && length > 0)) {
        ubidi_close(bidi);
        *status = (int32_t)error;
        return -1;
    }
    for (int32_t i = 0; i < length; i++) levels[i] = computed[i];
    int32_t result = ubidi_getParaLevel(bidi);
    ubidi_close(bidi);
    *status = 0;
    return result;
}

int32_t fit_script(uint32_t c) {
    UErrorCode error = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript((UChar32)c, &error);
    return U_FAILURE(error) ? USCRIPT_UNKNOWN : (int32_t)script;
}

const char *fit_script_short_name(int32_t script) {
    return uscript_getShortName((UScriptCode)script);
}

int32_t fit_binary_property(uint32_t c, FitProperty property) {
    UProperty which;
    switch (property) {
    case FIT_PROPERTY_EMOJI: which = UCHAR_EMOJI; break;
    case FIT_PROPERTY_EMOJI_PRESENTATION: which = UCHAR_EMOJI_PRESENTATION; break;
    case FIT_PROPERTY_EMOJI_MODIFIER: which = UCHAR_EMOJI_MODIFIER; break;
    case FIT_PROPERTY_REGIONAL_INDICATOR: which = UCHAR_REGIONAL_INDICATOR; break;
    case FIT_PROPERTY_EXTENDED_PICTOGRAPHIC: which = UCHAR_EXTENDED_PICTOGRAPHIC; break;
    default: return 0;
    }
    return u_hasBinaryProperty((UChar32)c, which) ? 1 : 0;
}

int32_t fit_is_east_asian_wide(uint32_t c) {
    int32_t width = u_getIntPropertyValue((UChar32)c, UCHAR_EAST_ASIAN_WIDTH);
    return (width == U_EA_WIDE || width == U_EA_FULLWIDTH) ? 1 : 0;
}

int32_t fit_is_east_asian_ambiguous(uint32_t c) {
    return u_getIntPropertyValue((UChar32)c, UCHAR_EAST_ASIAN_WIDTH) == U_EA_AMBIGUOUS ? 1 : 0;
}

void fit_unicode_version(char *buffer, int32_t capacity) {
    UVersionInfo version;
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_getUnicodeVersion(version);
    /* Major.minor only: "15.0.0.0" → "15.0". */
    version[2] = version[3] = 0;
    u_versionToString(version, text);
    if (capacity <= 0) return;
    int32_t i = 0;
    for (; i + 1 < capacity && text[i] != 0; i++) buffer[i] = text[i];
    buffer[i] = 0;
}

int32_t fit_char_type(uint32_t c) {
    return (int32_t)u_charType((UChar32)c);
}

uint32_t fit_paired_bracket(uint32_t c) {
    return (uint32_t)u_getBidiPairedBracket((UChar32)c);
}

int32_t fit_is_complex_context(uint32_t c) {
    return u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK) == U_LB_COMPLEX_CONTEXT ? 1 : 0;
}

int32_t fit_line_break(uint32_t c) {
    return u_getIntPropertyValue((UChar32)c, UCHAR_LINE_BREAK);
}

int32_t fit_is_east_asian_wide_or_half(uint32_t c) {
    int32_t width = u_getIntPropertyValue((UChar32)c, UCHAR_EAST_ASIAN_WIDTH);
    return (width == U_EA_WIDE || width == U_EA_FULLWIDTH || width == U_EA_HALFWIDTH) ? 1 : 0;
}

int32_t fit_is_unassigned_pictographic(uint32_t c) {
    return u_hasBinaryProperty((UChar32)c, UCHAR_EXTENDED_PICTOGRAPHIC) && u_charType((UChar32)c) == U_UNASSIGNED ? 1 : 0;
}
