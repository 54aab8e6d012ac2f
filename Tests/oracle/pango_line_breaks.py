#!/usr/bin/python3
"""Pango 1.50's line-break opportunities and white space, per character, for fitd's tests.

    # JSON array of strings on stdin -> JSON array of results on stdout, same order
    echo '["abc %.250s", "abc -def"]' | /usr/bin/python3 Tests/oracle/pango_line_breaks.py
    # [{"breaks": [4, 6], "white": [3]}, {"breaks": [4, 5], "white": [3]}]

    # GLib's line-break classes and general categories against ICU's, every code point
    /usr/bin/python3 Tests/oracle/pango_line_breaks.py --classes

"breaks" are the character (code point) offsets i, 0 < i < length, where Pango allows a
line break before character i (PangoLogAttr.is_line_break); "white" the offsets of the
characters Pango counts as white space (is_white: dropped at a wrapped line's end).

pango_get_log_attrs (break.c) is called through ctypes, not PyGObject: gi cannot read
PangoLogAttr's bit fields (every flag comes back wrong).  It runs pango_default_break over
the whole text, then each script run's tailoring (break_thai with libthai for Thai…), as a
layout does per item; the context language is --language (default en-us).  Line breaks do
not depend on fonts.
"""

import argparse
import ctypes
import json
import sys

# PangoLogAttr: one guint of bit fields, in declaration order from bit 0 (GCC, little-endian).
IS_LINE_BREAK = 1 << 0
IS_WHITE = 1 << 3


def pango():
    lib = ctypes.CDLL("libpango-1.0.so.0")
    lib.pango_language_from_string.restype = ctypes.c_void_p
    lib.pango_language_from_string.argtypes = [ctypes.c_char_p]
    lib.pango_get_log_attrs.restype = None
    lib.pango_get_log_attrs.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
                                        ctypes.c_void_p, ctypes.c_int]
    return lib


def log_attrs(lib, language, text):
    data = text.encode("utf-8", "surrogatepass")
    count = len(text) + 1
    attrs = (ctypes.c_uint32 * count)()
    lib.pango_get_log_attrs(data, len(data), -1, language, attrs, count)
    return {
        "breaks": [i for i in range(1, len(text)) if attrs[i] & IS_LINE_BREAK],
        "white": [i for i in range(len(text)) if attrs[i] & IS_WHITE],
    }


ICU_LINE_BREAK = ("XX AI AL B2 BA BB BK CB CL CM CR EX GL HY ID IN IS LF NS NU OP PO PR QU SA SG SP SY "
                  "ZW NL WJ H2 H3 JL JT JV CP CJ HL RI EB EM ZWJ").split()
GLIB_LINE_BREAK = {
    "mandatory": "BK", "carriage-return": "CR", "line-feed": "LF", "combining-mark": "CM",
    "surrogate": "SG", "zero-width-space": "ZW", "inseparable": "IN", "non-breaking-glue": "GL",
    "contingent": "CB", "space": "SP", "after": "BA", "before": "BB", "before-and-after": "B2",
    "hyphen": "HY", "non-starter": "NS", "open-punctuation": "OP", "close-punctuation": "CL",
    "quotation": "QU", "exclamation": "EX", "ideographic": "ID", "numeric": "NU",
    "infix-separator": "IS", "symbol": "SY", "alphabetic": "AL", "prefix": "PR", "postfix": "PO",
    "complex-context": "SA", "ambiguous": "AI", "unknown": "XX", "next-line": "NL",
    "word-joiner": "WJ", "hangul-l-jamo": "JL", "hangul-v-jamo": "JV", "hangul-t-jamo": "JT",
    "hangul-lv-syllable": "H2", "hangul-lvt-syllable": "H3", "close-paranthesis": "CP",
    "conditional-japanese-starter": "CJ", "hebrew-letter": "HL", "regional-indicator": "RI",
    "emoji-base": "EB", "emoji-modifier": "EM", "zero-width-joiner": "ZWJ",
}
# GUnicodeType nick -> ICU UCharCategory value.
GLIB_CATEGORY = {
    "control": 15, "format": 16, "unassigned": 0, "private-use": 17, "surrogate": 18,
    "lowercase-letter": 2, "modifier-letter": 4, "other-letter": 5, "titlecase-letter": 3,
    "uppercase-letter": 1, "spacing-mark": 8, "enclosing-mark": 7, "non-spacing-mark": 6,
    "decimal-number": 9, "letter-number": 10, "other-number": 11, "connect-punctuation": 22,
    "dash-punctuation": 19, "close-punctuation": 21, "final-punctuation": 29,
    "initial-punctuation": 28, "other-punctuation": 23, "open-punctuation": 20,
    "currency-symbol": 25, "modifier-symbol": 26, "math-symbol": 24, "other-symbol": 27,
    "line-separator": 13, "paragraph-separator": 14, "space-separator": 12,
}


def compare_classes():
    """Prints every range where GLib's g_unichar_break_type or g_unichar_type differs from
    ICU 72's Line_Break or general category; exit 1 if any other than the known one."""
    import gi
    gi.require_version("GLib", "2.0")
    from gi.repository import GLib
    icu = ctypes.CDLL("libicuuc.so.72")
    get = icu.u_getIntPropertyValue_72
    get.restype = ctypes.c_int32
    get.argtypes = [ctypes.c_int32, ctypes.c_int]
    char_type = icu.u_charType_72
    char_type.restype = ctypes.c_int8
    char_type.argtypes = [ctypes.c_int32]
    UCHAR_LINE_BREAK = 0x1008
    ranges = []
    for c in range(0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        glib = (GLIB_LINE_BREAK[GLib.unichar_break_type(chr(c)).value_nick.replace("_", "-")],
                GLIB_CATEGORY[GLib.unichar_type(chr(c)).value_nick.replace("_", "-")])
        ours = (ICU_LINE_BREAK[get(c, UCHAR_LINE_BREAK)], char_type(c))
        if glib == ours:
            continue
        if ranges and ranges[-1][1] == c - 1 and ranges[-1][2:] == [glib, ours]:
            ranges[-1][1] = c
        else:
            ranges.append([c, c, glib, ours])
    unexpected = 0
    for first, last, glib, ours in ranges:
        # fitd's PangoLineBreaks.Class(of:) reads the unassigned U+32400–U+3FFFD as GLib does.
        known = (first, last, glib[0], ours[0]) == (0x32400, 0x3FFFD, "XX", "ID") and glib[1] == ours[1]
        unexpected += 0 if known else 1
        print("U+%04X..U+%04X GLib %s/%d ICU %s/%d%s" % (first, last, glib[0], glib[1], ours[0], ours[1],
                                                       " (known)" if known else ""))
    print("%d ranges differ, %d unexpected" % (len(ranges), unexpected))
    return 1 if unexpected else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--language", default="en-us")
    parser.add_argument("--classes", action="store_true", help="compare GLib's classes with ICU's")
    args = parser.parse_args()
    if args.classes:
        return compare_classes()
    lib = pango()
    language = lib.pango_language_from_string(args.language.encode())
    texts = json.load(sys.stdin)
    json.dump([log_attrs(lib, language, text) for text in texts], sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
