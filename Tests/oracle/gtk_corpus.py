#!/usr/bin/python3
"""Generate the GTK label corpus (deterministic): real translated UI strings from the machine's
gettext catalogs, for gtk_compare.py to measure with real GTK labels and with fitd.

    /usr/bin/python3 Tests/oracle/gtk_corpus.py > Tests/oracle/gtk_corpus.jsonl
    /usr/bin/python3 Tests/oracle/gtk_corpus.py --stats      # what was picked, on stderr

Strings: the msgstr of the catalogs in CATALOGS (/usr/share/locale/<locale>/LC_MESSAGES/
<domain>.mo, read with gettext.GNUTranslations: GTK 4 and 3, GLib, gdk-pixbuf, AT-SPI,
gsettings-desktop-schemas, shared-mime-info, xdg-user-dirs, iso-codes' country and language
names, xkeyboard-config, coreutils, Linux-PAM — what Debian 12 installs with GTK and the
base system, so the corpus regenerates byte-identically wherever those packages are).
Languages: every locale that has a gtk40.mo and at least MIN_POOL usable strings in the
catalogs (each locale directory is one language; pt and pt_BR, sr and sr@latin are two),
capped at MAX_LANGUAGES (those with the most gtk40 translations; today all 110 fit).
Each language gets STRINGS_PER_LANGUAGE strings, picked by a random.Random seeded with
SEED and the locale: a catalog by its weight, then a string of it (no string twice).

Kept as they are, format directives included ("%s", "%d", "{}"): they are real strings.
Left out: strings with no letter, tabs or control characters, longer than MAX_CHARS or
with more than MAX_NEWLINES newlines, and GTK's "magic" strings (MAGIC: translated with a
code, "calendar:week_start:0", "default:LTR", not shown as text).

Mnemonics: a GTK/GtkLabel string whose English msgid has a mnemonic underscore ("_Open",
"Select _All", "Cance_l"; not "Page_Down", "GDK_DEBUG") is shown by a use-underline label
without it: each "_" is dropped and the character after it kept ("__" -> "_", a final "_"
dropped) — gtklabel.c separate_uline_pattern.  "キャンセル(_C)" -> "キャンセル(C)".

Case fields (JSON lines, sorted keys)
    id              "<locale>-<nn>" (+ "-w<pct>" for each width of a wrapped string)
    language        BCP 47 from the locale directory: pt_BR -> pt-BR, sr@latin -> sr-Latn,
                    zh_TW -> zh-TW, uz@cyrillic -> uz-Cyrl, ca@valencia -> ca-valencia
    locale          the directory name;  catalog  the domain the string comes from
    text            the string as the label shows it
    font            null (no font set on the label: the desktop's gtk-font-name) or one of
                    FONTS ("Cantarell Bold 15" ~ libadwaita's .title-2 style)
    mode            "plain" | "ellipsize" (+ ellipsize start|middle|end) | "wrap" (+ wrap
                    word|word-char) | "lines" (+ lines 2, ellipsize end, wrap word)
    width_fraction  ellipsize and lines: the width is this share of the label's natural
                    width as GTK measures it (0.6 for ellipsize, 0.35 or 0.5 for lines)
    width_span      wrap: the width is minimum + span × (natural − minimum) of the label's
                    widths as GTK measures them (0 = the longest word: at most what a box
                    allocates it; 0.2, 0.45, 0.7); 2 or 3 spans per string
                    Either way gtk_labels.py rounds it to whole px and the harness gives fitd
                    that px width, so a case means the same under every font and settings
                    variant.  A case may give "width" (px) instead.
"""

import argparse
import glob
import json
import os
import random
import re
import struct
import sys

SEED = 20261129
LOCALE_DIR = "/usr/share/locale"
STRINGS_PER_LANGUAGE = 40
MAX_LANGUAGES = 120
MIN_POOL = 300
MAX_CHARS = 140
MAX_NEWLINES = 2

# domain -> weight (how often a string is drawn from it); which packages install them.
CATALOGS = {
    "gtk40": 4.0,                      # libgtk-4-common
    "gtk30": 2.0,                      # libgtk-3-common
    "glib20": 1.5,                     # libglib2.0-data
    "gdk-pixbuf": 0.3,                 # libgdk-pixbuf2.0-common
    "at-spi2-core": 0.3,               # at-spi2-common
    "gsettings-desktop-schemas": 0.8,  # gsettings-desktop-schemas
    "shared-mime-info": 1.0,           # shared-mime-info: file type names
    "xdg-user-dirs": 0.3,              # xdg-user-dirs: Desktop, Music…
    "iso_3166": 0.6,                   # iso-codes: country names
    "iso_639": 0.4,                    # iso-codes: language names
    "xkeyboard-config": 0.6,           # xkb-data: keyboard layout names
    "coreutils": 0.4,                  # coreutils
    "Linux-PAM": 0.3,                  # libpam-runtime
}
MNEMONIC_DOMAINS = ("gtk40", "gtk30")

FONTS = [None, None, "Cantarell 11", "Noto Sans 10", "DejaVu Sans 9", "Cantarell Bold 15"]
# mode -> weight
MODES = [("plain", 35), ("ellipsize", 20), ("wrap", 30), ("lines", 15)]
ELLIPSIZE = ["end", "middle", "start"]
WRAP_SPANS = [0.0, 0.2, 0.45, 0.7]

# msgids translated with a code rather than shown (gtk calendar/direction/paper magic).
MAGIC_RE = re.compile(r"^[A-Za-z_ ]+:[A-Za-z0-9_:]+$")
MAGIC = {"asme_f", "Multi_key", "calendar year format %Y", "year measurement template"}
# A mnemonic underscore in an English msgid: "_Open", "Select _All", "C_ollate", "Cance_l",
# "_%d. %s" (GTK 3's recent-files items).
MNEMONIC_RE = re.compile(r"^_|(?:^|[\s(])[A-Z]?_\w|[a-z]_[a-z]")


def bcp47(locale):
    """pt_BR -> pt-BR, sr@latin -> sr-Latn, be@latin -> be-Latn, uz@cyrillic -> uz-Cyrl."""
    base, _, modifier = locale.partition("@")
    parts = base.split("_")
    tag = parts[0]
    extra = {"latin": "Latn", "cyrillic": "Cyrl", "shaw": "Shaw", "valencia": "valencia", "ije": "ijekavsk"}
    if modifier:
        sub = extra.get(modifier, modifier)
        if len(sub) == 4 and sub[0].isupper():  # a script subtag goes before the region
            tag += "-" + sub
            modifier = ""
    if len(parts) > 1:
        tag += "-" + parts[1]
    if modifier:
        tag += "-" + extra.get(modifier, modifier)
    return tag


def strip_mnemonic(s):
    """What a use-underline GtkLabel shows (gtklabel.c separate_uline_pattern)."""
    out = []
    underscore = False
    for ch in s:
        if underscore:
            out.append(ch)
            underscore = False
        elif ch == "_":
            underscore = True
        else:
            out.append(ch)
    return "".join(out)


def has_mnemonic(msgid):
    if "__" in msgid or msgid.count("_") != 1:
        return False
    return bool(MNEMONIC_RE.search(msgid))


def usable(text):
    if not text or len(text) > MAX_CHARS or text.count("\n") > MAX_NEWLINES:
        return False
    if text != text.strip():
        return False
    if any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0 for c in text):
        return False
    return any(c.isalpha() for c in text)


def read_catalog(path):
    """[(msgid, msgstr)] of a .mo file, each plural form its own msgstr; parsed by hand
    (gettext.GNUTranslations refuses some installed catalogs: a Plural-Forms header without
    "plural=", as in ab/gtk40.mo)."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, oid, ostr = struct.unpack(order + "4I", data[4:20])
    raw = []
    for i in range(count):
        ilen, ioff = struct.unpack(order + "2I", data[oid + 8 * i:oid + 8 * i + 8])
        slen, soff = struct.unpack(order + "2I", data[ostr + 8 * i:ostr + 8 * i + 8])
        raw.append((data[ioff:ioff + ilen], data[soff:soff + slen]))
    charset = "utf-8"
    for msgid, msgstr in raw:
        if msgid == b"":
            m = re.search(rb"charset=([A-Za-z0-9_-]+)", msgstr)
            if m:
                charset = m.group(1).decode("ascii")
    out = []
    for msgid, msgstr in raw:
        if msgid == b"":
            continue  # the header
        msgid = msgid.decode(charset, "replace").split("\x04", 1)[-1].split("\x00", 1)[0]  # no msgctxt, singular
        for form in msgstr.decode(charset, "replace").split("\x00"):
            out.append((msgid, form))
    return out


def pool_of(locale):
    """{domain: sorted list of distinct usable strings} for one locale."""
    pools = {}
    seen = set()
    for domain in CATALOGS:  # in CATALOGS' order: a string GTK 4 and 3 share counts as gtk40's
        path = os.path.join(LOCALE_DIR, locale, "LC_MESSAGES", domain + ".mo")
        if not os.path.exists(path):
            continue
        strings = set()
        for msgid, msgstr in read_catalog(path):
            if msgid in MAGIC or MAGIC_RE.match(msgid):
                continue
            text = msgstr
            if domain in MNEMONIC_DOMAINS and has_mnemonic(msgid):
                text = strip_mnemonic(text)
            if usable(text):
                strings.add(text)
        strings = sorted(strings - seen)
        seen.update(strings)
        if strings:
            pools[domain] = strings
    return pools


def gtk40_count(locale):
    path = os.path.join(LOCALE_DIR, locale, "LC_MESSAGES", "gtk40.mo")
    return len(read_catalog(path)) if os.path.exists(path) else 0


def languages():
    """[(locale, pools)]: every locale with a gtk40.mo and MIN_POOL usable strings; beyond
    MAX_LANGUAGES the ones with the most gtk40 translations; in locale order."""
    found = []
    for path in sorted(glob.glob(os.path.join(LOCALE_DIR, "*", "LC_MESSAGES", "gtk40.mo"))):
        locale = path.split(os.sep)[-3]
        pools = pool_of(locale)
        if sum(len(v) for v in pools.values()) < MIN_POOL:
            continue
        found.append((gtk40_count(locale), locale, pools))
    found.sort(key=lambda t: (-t[0], t[1]))
    chosen = found[:MAX_LANGUAGES]
    chosen.sort(key=lambda t: t[1])
    return [(locale, pools) for _, locale, pools in chosen]


def weighted(rng, items):
    total = sum(w for _, w in items)
    x = rng.random() * total
    for item, w in items:
        x -= w
        if x < 0:
            return item
    return items[-1][0]


def generate():
    cases = []
    for locale, pools in languages():
        rng = random.Random("%d/%s" % (SEED, locale))
        lang = bcp47(locale)
        left = {d: list(v) for d, v in pools.items()}
        for i in range(STRINGS_PER_LANGUAGE):
            domains = [(d, CATALOGS[d]) for d in sorted(left) if left[d]]
            domain = weighted(rng, domains)
            text = left[domain].pop(rng.randrange(len(left[domain])))
            font = rng.choice(FONTS)
            mode = weighted(rng, MODES)
            base = {"language": lang, "locale": locale, "catalog": domain, "text": text, "font": font, "mode": mode}
            cid = "%s-%02d" % (locale, i)
            if mode == "plain":
                cases.append(dict(base, id=cid))
            elif mode == "ellipsize":
                cases.append(dict(base, id=cid, ellipsize=rng.choice(ELLIPSIZE), width_fraction=0.6))
            elif mode == "wrap":
                wrap = "word" if rng.random() < 0.75 else "word-char"
                spans = sorted(rng.sample(WRAP_SPANS, rng.choice((2, 3))))
                for f in spans:
                    cases.append(dict(base, id="%s-w%d" % (cid, round(f * 100)), wrap=wrap, width_span=f))
            else:
                cases.append(dict(base, id=cid, lines=2, ellipsize="end", wrap="word",
                                  width_fraction=rng.choice((0.35, 0.5))))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stats", action="store_true", help="print languages, catalogs and modes on stderr")
    args = ap.parse_args()
    cases = generate()
    out = sys.stdout
    for c in cases:
        out.write(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n")
    if args.stats:
        langs = sorted({c["locale"] for c in cases})
        count = lambda key: sorted(((sum(1 for c in cases if c.get(key) == v), v) for v in {c.get(key) for c in cases}),
                                   key=lambda t: -t[0])
        sys.stderr.write("%d cases, %d languages: %s\n" % (len(cases), len(langs), " ".join(langs)))
        for key in ("catalog", "mode", "font"):
            sys.stderr.write("%s: %s\n" % (key, ", ".join("%s %d" % (v, n) for n, v in count(key))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
