#!/usr/bin/python3
"""Compare fitd's terminal-cell widths with Python's wcwidth.wcswidth, glibc's wcwidth and VTE's rule.

Run with Debian's interpreter (python3-wcwidth installed) after building fitctl:

    swift build --scratch-path .build-tests --product fitctl
    /usr/bin/python3 Tests/cells/compare_wcwidth.py [--fitctl PATH] [--corpus PATH] [-v]

For every string of corpus.txt it asks fitd for {"text": s, "unit": "cells", "terminal":
"grapheme"} through `fitctl measure --batch` and compares the width with wcwidth.wcswidth(s). It
prints the agreement, per corpus class and overall, and groups the differences by cause (see
README.md).

Then the wcwidth profile ({"terminal": "wcwidth"}), which adds up code points as the
wcwidth-counting terminals do, against three implementations of that rule: Python's
wcwidth.wcswidth, glibc's wcwidth(3) in C.UTF-8 (tmux, and most programs that print to a
terminal), and VTE's (GLib's g_unichar_iszerowidth, g_unichar_iswide and, for ambiguous
wide, g_unichar_iswide_cjk: vte src/unicode-width-generate.py); and with {"ambiguous": "wide"}
against VTE's rule with cjk-ambiguous-width 2.

Exit status: 0 when the only differences are the documented ones; 1 when a string of a class
where both models must agree (ascii, cjk, hangul, combining) disagrees, or when the wcwidth
profile differs from glibc or VTE other than on control characters (which they leave to the
terminal, -1); 2 when fitctl crashes, exits non-zero or answers with fewer results (or errors)
than requests.
"""

import argparse
import collections
import ctypes
import json
import os
import re
import subprocess
import sys
import unicodedata

import wcwidth

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Classes where fitd (one width per grapheme cluster) and wcwidth (one width per code point)
# must give the same number: no cluster there has more than one code point with a width.
MUST_AGREE = {"ascii", "cjk", "hangul", "combining"}

ESCAPE = re.compile(r"\\u\{([0-9A-Fa-f]+)\}")


def load_corpus(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cls, sep, text = line.partition("\t")
            if not sep:
                sys.exit(f"{path}:{number}: expected <class><TAB><string>")
            rows.append((cls, ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)))
    return rows


def run_fitctl(fitctl, texts, options=None):
    env = dict(os.environ)
    env.setdefault("FONTCONFIG_FILE", os.path.join(ROOT, "Tests", "fonts", "fonts.conf"))
    env.setdefault("XDG_CACHE_HOME", os.path.join("/tmp", "fitd-cells-compare-cache"))
    options = options or {"terminal": "grapheme"}
    requests = "".join(json.dumps({"id": i, "text": t, "unit": "cells", **options}) + "\n" for i, t in enumerate(texts))
    try:
        done = subprocess.run([fitctl, "measure", "--batch"], input=requests, capture_output=True,
                              text=True, env=env, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"fitctl could not run: {error}", file=sys.stderr)
        sys.exit(2)
    if done.returncode != 0:
        print(f"fitctl exited with {done.returncode}:\n{done.stderr[-2000:]}", file=sys.stderr)
        sys.exit(2)
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(results) != len(texts):
        print(f"fitctl answered {len(results)} of {len(texts)} requests", file=sys.stderr)
        sys.exit(2)
    errors = [r for r in results if "error" in r]
    if errors:
        print(f"fitctl rejected {len(errors)} strings, e.g. {errors[0]}", file=sys.stderr)
        sys.exit(2)
    return [r["width"] for r in results]


def is_pictographic(c):
    o = ord(c)
    return (0x1F000 <= o <= 0x1FAFF or 0x2600 <= o <= 0x27BF or 0x2B00 <= o <= 0x2BFF
            or 0x2190 <= o <= 0x21FF or 0x2300 <= o <= 0x23FF or o in (0xA9, 0xAE, 0x203C, 0x2049, 0x2122))


# Causes, in the order they are tested: the first that matches explains a difference.
CAUSES = [
    ("control", "wcwidth returns -1 for a string with a control character; fitd gives it 0 "
                "columns (a tab runs to the next multiple of 8)",
     lambda s: wcwidth.wcswidth(s) == -1),
    ("zwj-sequence", "an emoji ZWJ sequence is one grapheme cluster, 2 cells; wcwidth adds up "
                     "every pictograph",
     lambda s: any(s[i] == "\u200d" and 0 < i < len(s) - 1 and is_pictographic(s[i - 1]) or
                   s[i] == "\u200d" and i > 1 and s[i - 1] in "\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff"
                   for i in range(len(s)))),
    ("skin-tone", "an emoji modifier (U+1F3FB–1F3FF) joins the emoji's cluster; wcwidth counts "
                  "it as 2 more",
     lambda s: any(0x1F3FB <= ord(c) <= 0x1F3FF for c in s)),
    ("flag", "a pair of regional indicators, or a tag sequence, is one flag of 2 cells; a lone "
             "regional indicator differs by table",
     lambda s: any(0x1F1E6 <= ord(c) <= 0x1F1FF for c in s)
     or "\U0001f3f4" in s and any(0xE0020 <= ord(c) <= 0xE007F for c in s)),
    ("keycap", "a keycap sequence (digit/#/*, VS16, U+20E3) is an emoji of 2 cells; wcwidth "
               "counts the digit as 1",
     lambda s: "\u20e3" in s),
    ("vs16", "VS16 gives a text-default character emoji presentation, 2 cells; wcwidth ignores "
             "variation selectors",
     lambda s: "\ufe0f" in s),
    ("vs15", "VS15 gives an emoji-default character text presentation, 1 cell; wcwidth ignores "
             "variation selectors",
     lambda s: "\ufe0e" in s),
    ("hangul-jamo", "conjoining jamo (L V T) make one syllable cluster, 2 cells; wcwidth counts "
                    "medial vowels and finals on their own",
     lambda s: any(0x1100 <= ord(c) <= 0x11FF or 0xA960 <= ord(c) <= 0xA97F or 0xD7B0 <= ord(c) <= 0xD7FF for c in s)),
    ("spacing-mark", "a spacing mark (Mc, Thai SARA AM) or a virama conjunct stays in its "
                     "base's cluster; wcwidth counts each spacing mark as 1",
     lambda s: any(unicodedata.category(c) == "Mc" or c in "\u0e33\u0eb3\u094d" for c in s)),
    ("format", "format characters (Cf: soft hyphen, BOM, bidi isolates, tags, U+180E, "
               "U+061C) take no cell in fitd; wcwidth 0.2.5 gives some of them 1",
     lambda s: any(unicodedata.category(c) == "Cf" for c in s)),
    ("grapheme-extend", "a Grapheme_Extend character that is not a mark (halfwidth voiced "
                        "sound marks U+FF9E/FF9F) joins the preceding cluster",
     lambda s: any(c in "\uff9e\uff9f" for c in s)),
    ("unicode-version", "East Asian Width or emoji tables of a different Unicode version "
                        "(fitd: ICU 72 = Unicode 15.0; wcwidth 0.2.5: its newest table)",
     lambda s: True),
]


def cause_of(text):
    for name, _, test in CAUSES:
        if test(text):
            return name
    return "unicode-version"


# The wcwidth profile's references, each a function from a string to its columns, or -1 when
# it has a code point the implementation gives no width (a control character).

def glibc_wcswidth():
    """glibc's wcwidth(3) summed over code points, in C.UTF-8 (glibc's own Unicode tables)."""
    libc = ctypes.CDLL("libc.so.6")
    libc.setlocale.restype = ctypes.c_char_p
    LC_CTYPE = 0
    if not libc.setlocale(LC_CTYPE, b"C.UTF-8"):
        return None
    libc.wcwidth.argtypes = [ctypes.c_uint32]

    def width(text):
        total = 0
        for c in text:
            w = libc.wcwidth(ord(c))
            if w < 0:
                return -1
            total += w
        return total
    return width


def vte_width(ambiguous=1):
    """VTE's _vte_unichar_width over GLib's tables (vte src/unicode-width-generate.py): ASCII 1,
    g_unichar_iszerowidth 0, g_unichar_iswide 2, g_unichar_iswide_cjk the ambiguous width.
    VTE executes control characters instead (-1 here, as wcwidth)."""
    try:
        import gi  # noqa: F401
        from gi.repository import GLib
    except ImportError:
        return None

    def width(text):
        total = 0
        for c in text:
            o = ord(c)
            if o < 0x20 or 0x7F <= o < 0xA0:
                return -1
            if o < 0x80:
                total += 1
            elif GLib.unichar_iszerowidth(c):
                pass
            elif GLib.unichar_iswide(c):
                total += 2
            elif GLib.unichar_iswide_cjk(c):
                total += ambiguous
            else:
                total += 1
        return total
    return width


# Why the wcwidth profile may differ from a reference, first match wins; anything else is a
# failure (the profile is meant to be these implementations' rule).
PROFILE_CAUSES = [
    ("control", "the reference has no width for a control character (-1); fitd gives 0 and a tab "
                "runs to the next multiple of 8",
     lambda s, ref: ref == -1 and any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in s)),
    ("unicode-version", "the reference's tables predate a character (-1: glibc 2.36 has no width for "
                        "U+1FABF, new in Unicode 15.0); fitd reads ICU's", lambda s, ref: ref == -1),
    ("hangul-jamo", "Python wcwidth 0.2.5 counts medial vowels and finals (U+1160–11FF, U+D7B0–D7FF) "
                    "as 1; glibc and GLib (VTE) as 0, as fitd",
     lambda s, ref: any(0x1160 <= ord(c) <= 0x11FF or 0xD7B0 <= ord(c) <= 0xD7FF for c in s)),
    ("format", "Python wcwidth 0.2.5 has no zero-width entry for some Cf (BOM, bidi isolates, tags, "
               "U+180E, U+061C); glibc and GLib give all Cf but SOFT HYPHEN 0, as fitd",
     lambda s, ref: any(unicodedata.category(c) == "Cf" for c in s)),
]


def compare_profile(name, rows, fit, reference, allowed):
    """Prints the agreement of the wcwidth profile with one reference; returns the differences
    whose cause is not in `allowed`."""
    per_class = collections.OrderedDict()
    groups = collections.OrderedDict()
    unexplained = []
    for (cls, text), cells in zip(rows, fit):
        ref = reference(text)
        total, same = per_class.get(cls, (0, 0))
        per_class[cls] = (total + 1, same + (1 if ref == cells else 0))
        if ref == cells:
            continue
        cause = next((c for c, _, test in PROFILE_CAUSES if test(text, ref)), "other")
        groups.setdefault(cause, []).append((cls, text, ref, cells))
        if cause not in allowed:
            unexplained.append((cls, text, ref, cells))
    n = len(rows)
    agreeing = sum(same for _, same in per_class.values())
    print(f"  {name}: {agreeing}/{n} = {100.0 * agreeing / n:.1f}%")
    reasons = {c: r for c, r, _ in PROFILE_CAUSES}
    for cause, items in groups.items():
        print(f"    {cause}: {len(items)} — {reasons.get(cause, 'NOT EXPLAINED')}")
        for cls, text, ref, cells in items[:3]:
            points = " ".join(f"U+{ord(c):04X}" for c in text)
            print(f"        [{cls}] {points}: {name} {ref}, fitd {cells:g}")
        if len(items) > 3:
            print(f"        … {len(items) - 3} more")
    return unexplained


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fitctl", default=os.path.join(ROOT, ".build-tests", "debug", "fitctl"))
    parser.add_argument("--corpus", default=os.path.join(HERE, "corpus.txt"))
    parser.add_argument("-v", "--verbose", action="store_true", help="list every difference")
    args = parser.parse_args()

    rows = load_corpus(args.corpus)
    fit = run_fitctl(args.fitctl, [text for _, text in rows])

    per_class = collections.OrderedDict()
    groups = collections.OrderedDict((name, []) for name, _, _ in CAUSES)
    must_fail = []
    for (cls, text), cells in zip(rows, fit):
        wc = wcwidth.wcswidth(text)
        agree = wc == cells
        total, same = per_class.get(cls, (0, 0))
        per_class[cls] = (total + 1, same + (1 if agree else 0))
        if not agree:
            groups[cause_of(text)].append((cls, text, wc, cells))
            if cls in MUST_AGREE:
                must_fail.append((cls, text, wc, cells))

    n = len(rows)
    agreeing = sum(same for _, same in per_class.values())
    print(f"wcwidth {wcwidth.__version__} (Unicode {wcwidth.list_versions()[-1]}) vs fitd cells, {n} strings")
    print(f"agreement: {agreeing}/{n} = {100.0 * agreeing / n:.1f}%")
    print()
    print(f"{'class':<18} {'strings':>7} {'agree':>6} {'%':>6}")
    for cls, (total, same) in per_class.items():
        mark = "  (must agree)" if cls in MUST_AGREE else ""
        print(f"{cls:<18} {total:>7} {same:>6} {100.0 * same / total:>5.1f}%{mark}")
    print()
    print("differences by cause:")
    for name, reason, _ in CAUSES:
        items = groups[name]
        if not items:
            continue
        print(f"  {name}: {len(items)} — {reason}")
        shown = items if args.verbose else items[:3]
        for cls, text, wc, cells in shown:
            points = " ".join(f"U+{ord(c):04X}" for c in text)
            print(f"      [{cls}] {points}: wcwidth {wc}, fitd {cells:g}")
        if len(items) > len(shown):
            print(f"      … {len(items) - len(shown)} more (-v lists them)")
    # The wcwidth profile against the implementations of wcwidth.
    texts = [text for _, text in rows]
    profile = run_fitctl(args.fitctl, texts, {"terminal": "wcwidth"})
    wide = run_fitctl(args.fitctl, texts, {"terminal": "wcwidth", "ambiguous": "wide"})
    print()
    print("terminal: wcwidth profile (fitd adds up code points) against implementations of wcwidth:")
    unexplained = []
    unexplained += [("python-wcwidth", *d) for d in compare_profile(
        f"python-wcwidth {wcwidth.__version__}", rows, profile, wcwidth.wcswidth, {"control", "hangul-jamo", "format"})]
    glibc = glibc_wcswidth()
    if glibc:
        unexplained += [("glibc", *d) for d in compare_profile("glibc wcwidth (C.UTF-8)", rows, profile, glibc, {"control", "unicode-version"})]
    else:
        print("  glibc wcwidth: C.UTF-8 locale not available, skipped")
    vte = vte_width(1)
    if vte:
        unexplained += [("vte", *d) for d in compare_profile("VTE (GLib tables)", rows, profile, vte, {"control"})]
        unexplained += [("vte-cjk", *d) for d in compare_profile(
            "VTE, cjk-ambiguous-width 2 (ambiguous: wide)", rows, wide, vte_width(2), {"control"})]
    else:
        print("  VTE: python3-gi not available, skipped")
    if unexplained:
        print()
        print(f"FAIL: {len(unexplained)} wcwidth-profile differences with no documented cause:")
        for ref, cls, text, wc, cells in unexplained:
            points = " ".join(f"U+{ord(c):04X}" for c in text)
            print(f"  {ref} [{cls}] {points}: {wc}, fitd {cells:g}")
        return 1

    if must_fail:
        print()
        print(f"FAIL: {len(must_fail)} strings disagree in classes that must agree ({', '.join(sorted(MUST_AGREE))}):")
        for cls, text, wc, cells in must_fail:
            print(f"  [{cls}] {text!r}: wcwidth {wc}, fitd {cells:g}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
