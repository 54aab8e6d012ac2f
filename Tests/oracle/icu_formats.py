#!/usr/bin/python3
"""Numbers, dates and times exactly as ICU formats them, for the desktop corpus.

    /usr/bin/python3 Tests/oracle/icu_formats.py > Tests/oracle/icu_formats.json

A desktop shows ICU's (or glibc's CLDR-derived) strings — "12:45 PM" with U+202F,
"24.11.2026", Arabic-Indic and Bengali digits — so the corpus measures those, not
hand-typed look-alikes.  This calls libicu (Debian's libicu72) through ctypes: no
extra Python package.  The output is committed; desktop_corpus.py reads the
committed file, so the corpus does not change when ICU does (regenerate on
purpose, and say so in the commit).
"""

import ctypes
import ctypes.util
import json
import sys

LOCALES = ["en_US", "de_DE", "fr_FR", "ru_RU", "el_GR", "ja_JP", "zh_CN", "zh_TW", "ko_KR",
           "ar_EG", "ar_SA", "fa_IR", "he_IL", "hi_IN", "bn_IN", "ta_IN", "th_TH", "ka_GE", "vi_VN"]
# Fixed instants (UTC): an afternoon in November, a morning in March.
INSTANTS_MS = [1795531500000.0, 1772705520000.0]  # 2026-11-24 14:45 UTC, 2026-03-05 10:12 UTC
NUMBERS = [1234567.891, 0.25, 42.0, 19.99, 3.5]

UDAT_NONE, UDAT_FULL, UDAT_LONG, UDAT_MEDIUM, UDAT_SHORT = -1, 0, 1, 2, 3
UNUM_DECIMAL, UNUM_CURRENCY, UNUM_PERCENT = 1, 2, 3


def load_icu():
    for version in range(80, 60, -1):
        try:
            lib = ctypes.CDLL("libicui18n.so.%d" % version)
            return lib, "_%d" % version
        except OSError:
            continue
    raise SystemExit("libicu not found (Debian: libicu72)")


def main():
    lib, suffix = load_icu()
    fn = lambda name: getattr(lib, name + suffix)
    udat_open = fn("udat_open")
    udat_open.restype = ctypes.c_void_p
    udat_open.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p,
                          ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_int)]
    udat_format = fn("udat_format")
    udat_format.restype = ctypes.c_int32
    udat_format.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_void_p, ctypes.c_int32,
                            ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    udat_close = fn("udat_close")
    udat_close.argtypes = [ctypes.c_void_p]
    unum_open = fn("unum_open")
    unum_open.restype = ctypes.c_void_p
    unum_open.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int32, ctypes.c_char_p,
                          ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    unum_format = fn("unum_formatDouble")
    unum_format.restype = ctypes.c_int32
    unum_format.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_void_p, ctypes.c_int32,
                            ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
    unum_close = fn("unum_close")
    unum_close.argtypes = [ctypes.c_void_p]

    def utf16(buf, n):
        return bytes(buf)[: 2 * n].decode("utf-16-le")

    # "UTC" as a UChar string (ctypes.c_wchar_p is UTF-32 on Linux; build UTF-16 by hand).
    tz = (ctypes.c_uint16 * 4)(*[ord(c) for c in "UTC"], 0)

    out = {"icu": suffix[1:], "locales": {}}
    for loc in LOCALES:
        strings = []
        styles = [(UDAT_NONE, UDAT_SHORT), (UDAT_SHORT, UDAT_NONE), (UDAT_MEDIUM, UDAT_NONE),
                  (UDAT_LONG, UDAT_NONE), (UDAT_FULL, UDAT_NONE), (UDAT_SHORT, UDAT_SHORT),
                  (UDAT_NONE, UDAT_MEDIUM)]
        for time_style, date_style in styles:
            err = ctypes.c_int(0)
            fmt = udat_open(time_style, date_style, loc.encode(), ctypes.cast(tz, ctypes.c_void_p), 3,
                            None, 0, ctypes.byref(err))
            if err.value > 0 or not fmt:
                raise SystemExit("udat_open %s failed: %d" % (loc, err.value))
            for ms in INSTANTS_MS:
                buf = (ctypes.c_uint16 * 256)()
                err = ctypes.c_int(0)
                n = udat_format(fmt, ms, buf, 256, None, ctypes.byref(err))
                if err.value > 0:
                    raise SystemExit("udat_format %s failed: %d" % (loc, err.value))
                strings.append(utf16(buf, n))
            udat_close(fmt)
        for style in (UNUM_DECIMAL, UNUM_PERCENT, UNUM_CURRENCY):
            err = ctypes.c_int(0)
            fmt = unum_open(style, None, 0, loc.encode(), None, ctypes.byref(err))
            if err.value > 0 or not fmt:
                raise SystemExit("unum_open %s failed: %d" % (loc, err.value))
            for x in NUMBERS if style != UNUM_PERCENT else [0.25, 0.07, 1.0]:
                buf = (ctypes.c_uint16 * 256)()
                err = ctypes.c_int(0)
                n = unum_format(fmt, x, buf, 256, None, ctypes.byref(err))
                if err.value > 0:
                    raise SystemExit("unum_format %s failed: %d" % (loc, err.value))
                strings.append(utf16(buf, n))
            unum_close(fmt)
        seen = set()
        out["locales"][loc] = [s for s in strings if not (s in seen or seen.add(s))]
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
