#!/usr/bin/python3
"""Pictures of text against Pango (docs/pictures.md).

For a set of texts in every script the engine supports, draws each with fitctl (`measure
--output x.png`) and with Pango's own pango-view (same font, size, width and 96 dpi, GTK 4's
unhinted, unrounded glyph positions), and compares the ink: pixels darker than mid-grey
after anti-aliasing. A case passes when the ink bounding boxes agree within 1 px on every
side and at least 97 % of each picture's ink pixels are ink in the other.

fitctl draws glyph origins on whole pixels, as cairo 1.16 (Debian 12's) does for pango-view
and GTK (RenderOptions.pixelAlignedGlyphs).

The same texts are written as SVG by fitctl, validated with xmllint against the SVG 1.1 DTD
(Debian's w3c-sgml-lib, offline), and shown by a real browser: headless Chromium renders all
of them in one page (one start-up) and each is compared with fitctl's PNG the same way.
Chromium draws at 8 device px per CSS px, shrunk back with a box filter, so that the browser's
geometry is compared and not the coarseness of its anti-aliasing: Skia samples a device pixel
4 times vertically (SkScan_AntiPath.cpp, SHIFT 2), so at 1× an edge pixel's coverage is a
multiple of 1/4 (±40/255 against cairo's exact area, measured), and at 4× still of 1/16. That flipped the thin
horizontal strokes of Noto Sans CJK's Hangul at the 50 % threshold (a stroke fitctl covers
119/255 came out 128 in Chromium, one covering 135 came out 127): 96.82 % at 4×, 97.96 % at
8× (its other cases 97.86–99.80 %). The coverage-weighted overlap (Σ min / max Σ) is printed too.

Both sides (fitctl and pango-view) see the pinned fonts, Tests/fonts/fonts.conf, whatever
FONTCONFIG_FILE the caller has (--fontconfig to choose another; with the system's,
--fontconfig /etc/fonts/fonts.conf, every case passes too: 97.86 % of the ink at least).
Prints one line per case and per-script figures; exits non-zero when a case fails.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

import cairo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FONTS_CONF = os.path.join(ROOT, "Tests", "fonts", "fonts.conf")

# (id, script, font, max width px (a multiple of 4: pango-view takes whole points) or None, text)
CASES = [
    ("latin", "Latin", "Noto Sans 14", None, "Sphinx of black quartz, judge my vow."),
    ("latin-serif", "Latin", "Noto Serif 16", None, "Office ﬁnal “affine” Ærøskøbing"),
    ("latin-wrap", "Latin", "DejaVu Sans 12", 160, "The quick brown fox jumps over the lazy dog again and again."),
    ("greek", "Greek", "Noto Sans 14", None, "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία"),
    ("cyrillic", "Cyrillic", "Noto Sans 14", None, "Съешь же ещё этих мягких французских булок"),
    ("armenian", "Armenian", "Noto Sans 14", None, "Բարև աշխարհ, ինչպե՞ս ես"),
    ("georgian", "Georgian", "Noto Sans 14", None, "გამარჯობა მსოფლიო"),
    ("hebrew", "Hebrew", "Noto Sans 14", None, "שָׁלוֹם עוֹלָם, מה שלומך?"),
    ("arabic", "Arabic", "Noto Sans 14", None, "مرحبا بالعالم، كيف حالك؟"),
    ("arabic-wrap", "Arabic", "Noto Sans 14", 140, "النص العربي يلتف على عدة أسطر هنا"),
    ("bidi", "Mixed bidi", "Noto Sans 14", None, "Version 2.0 של התוכנה (beta)"),
    ("bidi-rtl-wrap", "Mixed bidi", "Noto Sans 14", 220, "مرحبا · שלום · नमस्ते · สวัสดี · 你好 · a b x²"),
    ("devanagari", "Devanagari", "Noto Sans 14", None, "नमस्ते दुनिया, क्षत्रिय"),
    ("bengali", "Bengali", "Noto Sans 14", None, "ওহে বিশ্ব, কেমন আছেন"),
    ("gurmukhi", "Gurmukhi", "Noto Sans 14", None, "ਸਤਿ ਸ੍ਰੀ ਅਕਾਲ ਦੁਨੀਆ"),
    ("gujarati", "Gujarati", "Noto Sans 14", None, "નમસ્તે વિશ્વ"),
    ("oriya", "Oriya", "Noto Sans 14", None, "ନମସ୍କାର ବିଶ୍ୱ"),
    ("tamil", "Tamil", "Noto Sans 14", None, "வணக்கம் உலகம்"),
    ("telugu", "Telugu", "Noto Sans 14", None, "హలో ప్రపంచం"),
    ("kannada", "Kannada", "Noto Sans 14", None, "ನಮಸ್ಕಾರ ಜಗತ್ತು"),
    ("malayalam", "Malayalam", "Noto Sans 14", None, "ഹലോ ലോകം"),
    ("sinhala", "Sinhala", "Noto Sans 14", None, "ආයුබෝවන් ලෝකය"),
    ("thai", "Thai", "Noto Sans 14", None, "สวัสดีชาวโลก ภาษาไทย"),
    ("thai-wrap", "Thai", "Noto Sans 14", 112, "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรคระหว่างคำ"),
    ("lao", "Lao", "Noto Sans 14", None, "ສະບາຍດີຊາວໂລກ"),
    ("khmer", "Khmer", "Noto Sans 14", None, "សួស្តី​ពិភពលោក"),
    ("myanmar", "Myanmar", "Noto Sans 14", None, "မင်္ဂလာပါ ကမ္ဘာ"),
    ("tibetan", "Tibetan", "Noto Sans 14", None, "བཀྲ་ཤིས་བདེ་ལེགས།"),
    ("ethiopic", "Ethiopic", "Noto Sans 14", None, "ሰላም ለዓለም"),
    ("han", "Han", "Noto Sans 14", None, "你好，世界。汉字排版"),
    ("han-wrap", "Han", "Noto Sans 14", 100, "中文文本在这里换行成多行显示效果"),
    # Runs aligned on the first run's dominant baseline (ideographic, hanging): BaselineShift.
    ("han-kannada", "Han", "Noto Sans 14", None, "通ಳು 漢字 Latin ಕನ್ನಡ"),
    ("devanagari-latin", "Devanagari", "Noto Sans 14", None, "नमस्ते Hello 你好"),
    ("japanese", "Japanese", "Noto Sans 14", None, "こんにちは世界、カタカナ"),
    ("hangul", "Hangul", "Noto Sans 14", None, "안녕하세요 세계"),
    ("emoji", "Emoji", "Noto Sans 14", None, "Party 🎉 👍🏽 ❤️ 🇫🇷"),
    ("markup", "Latin (markup)", "Noto Sans 14", None,
     "E = mc<sup>2</sup>, H<sub>2</sub>O, <span rise='4pt'>up</span> <b>bold</b> <span size='x-large'>big</span>"),
    ("markup-wrap", "Latin (markup)", "Noto Sans 14", 160,
     "Normal <span rise='-3pt'>down</span> <small>small</small> <i>italic</i> x<sup>2</sup> again"),
    ("latin-gtk3", "Latin (GTK 3)", "Noto Sans 14", 160, "The quick brown fox jumps over the lazy dog again and again."),
    ("arabic-gtk3", "Arabic (GTK 3)", "Noto Sans 14", 160, "مرحبا بالعالم، كيف حالك؟ النص العربي"),
    ("mono", "Latin", "DejaVu Sans Mono 12", None, "fn main() { println!(\"hi\"); }"),
]

# Cases in GTK 3's metrics (fitctl --metrics gtk3; pango-view with hinted metrics — its
# "--hint-metrics=off", see below — and glyph positions rounded to whole pixels, its default).
GTK3 = {"latin-gtk3", "arabic-gtk3"}

# Cases whose text is Pango markup (fitctl --markup, pango-view --markup).
MARKUP = {"markup", "markup-wrap"}

SVG_DTD = "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd"
MARGIN = 10
# Chromium draws the page at 8 device px per CSS px, shrunk back to 1 (box filter): the
# browser's geometry at 1/32-px vertical coverage, without Skia's 1-px anti-aliasing (see the
# docstring).
BROWSER_SCALE = 8
INK = 128  # a pixel is ink when its darkest channel (over white) is below this
# For Chromium only: a pixel of darkness 127 and one of 128 cover the same (50 % ± 1/510).
# FreeType rounds a half-covered pixel to 128, Chromium's screenshot boxed down to 1x to
# 127 or 128 — the stems of DejaVu Sans's Armenian sit on half pixels, and 5 % of its ink
# flipped on that alone. Ink in fitctl's PNG is matched by a Chromium pixel within this many
# levels of the threshold (and the other way); the strict figure is printed too. fitctl's
# PNG and pango-view's both come from FreeType through cairo and are compared strictly.
ROUNDING = 1


def darkness(path):
    """Each pixel's darkness 0…255 (255 − its darkest channel, over white) by (x, y), and the size."""
    surface = cairo.ImageSurface.create_from_png(path)
    w, h, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    data = bytes(surface.get_data())
    alpha = surface.get_format() == cairo.FORMAT_ARGB32
    dark = {}
    for y in range(h):
        row = y * stride
        for x in range(w):
            b, g, r, a = data[row + 4 * x: row + 4 * x + 4]
            if alpha and a < 255:  # premultiplied: composite over white
                r, g, b = r + 255 - a, g + 255 - a, b + 255 - a
            d = 255 - min(r, g, b)
            if d:
                dark[(x, y)] = d
    return dark, (w, h)


def coverage_overlap(a, b):
    """Ink in common, weighted by coverage: Σ min / max(Σ a, Σ b), in %. Anti-aliased edges count
    by how much they cover, so two rasterizers that differ at the 50 % threshold still agree."""
    common = sum(min(d, b.get(p, 0)) for p, d in a.items())
    total = max(sum(a.values()), sum(b.values()))
    return 100.0 * common / total if total else 100.0


def bbox(pixels):
    if not pixels:
        return None
    xs = [p[0] for p in pixels]
    ys = [p[1] for p in pixels]
    return (min(xs), min(ys), max(xs) + 1, max(ys) + 1)


def compare(a, b, rounding=0):
    """(bbox difference in px, overlap %) of two pictures' darkness maps: the share of each
    one's ink pixels that are ink in the other (within `rounding` levels), the smaller."""
    ink_a = {p for p, d in a.items() if d > 255 - INK}
    ink_b = {p for p, d in b.items() if d > 255 - INK}
    ba, bb = bbox(ink_a), bbox(ink_b)
    if ba is None or bb is None:
        return (0 if ba == bb else 999), (100.0 if ba == bb else 0.0)
    box = max(abs(p - q) for p, q in zip(ba, bb))
    near = 255 - INK - rounding
    matched_a = sum(1 for p in ink_a if b.get(p, 0) > near)
    matched_b = sum(1 for p in ink_b if a.get(p, 0) > near)
    overlap = 100.0 * min(matched_a / len(ink_a), matched_b / len(ink_b))
    return box, overlap


def run(cmd, env):
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed ({result.returncode}): {result.stderr.strip()[:300]}")


def draw(case, fitctl, out, env):
    cid, _, font, width, text = case
    common = ["--font", font, "--language", "en-us"] + (["--markup"] if cid in MARKUP else [])
    common += ["--metrics", "gtk3"] if cid in GTK3 else []
    if width:
        common += ["--max-width", str(width), "--wrap", "word-char"]
    for ext in ("png", "svg"):
        run(fitctl + ["measure", "--local", text, *common, "--margin", str(MARGIN), "--output", f"{out}/{cid}.fitd.{ext}"], env)
    # GTK 4's metrics: no hinting, unrounded positions, unhinted font metrics. pango-view 1.50.12
    # gives unhinted metrics with --hint-metrics=on, not off (measured: 8 lines of DejaVu Sans 12
    # are 149 px high with "on" = 8 × 18.625, and 152 px = 8 × (15 + 4) with "off").
    positions = ["--hint-metrics=off"] if cid in GTK3 else ["--hint-metrics=on", "--subpixel-positions"]
    view = ["pango-view", "-q", "--font", font, "--dpi", "96", "--hinting=none", *positions,
            "--antialias=gray", "--language", "en-us", f"--margin={MARGIN}",
            "-o", f"{out}/{cid}.pango.png"] + (["--markup"] if cid in MARKUP else [])
    if width:
        # pango-view's width is in points: px × 72 / dpi.
        view += ["--width", str(width * 72 // 96), "--wrap", "word-char"]
    run(view + ["--text", text], env)


def chromium_shots(cases, out, env):
    """All SVGs in one page, one under the other; one screenshot; the PNG of each cut out."""
    sizes = {}
    for case in cases:
        s = cairo.ImageSurface.create_from_png(f"{out}/{case[0]}.fitd.png")
        sizes[case[0]] = (s.get_width(), s.get_height())
    width = max(w for w, _ in sizes.values())
    top = 0
    tops = {}
    body = []
    for case in cases:
        cid = case[0]
        w, h = sizes[cid]
        tops[cid] = top
        body.append(f'<img src="{cid}.fitd.svg" style="position:absolute;left:0;top:{top}px;width:{w}px;height:{h}px">')
        top += h + 4
    html = f"{out}/page.html"
    with open(html, "w") as f:
        f.write("<!DOCTYPE html><html><body style='margin:0;background:#fff'>" + "".join(body) + "</body></html>")
    shot = f"{out}/page.png"
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        raise RuntimeError("chromium not found (scripts/bootstrap installs it)")
    profile = tempfile.mkdtemp(prefix="fitd-chromium-")
    try:
        subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--force-device-scale-factor={BROWSER_SCALE}",
             "--allow-file-access-from-files", f"--user-data-dir={profile}", f"--window-size={width},{top}",
             f"--screenshot={shot}", "file://" + html],
            env=env, capture_output=True, timeout=60)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if not os.path.exists(shot):
        raise RuntimeError("chromium wrote no screenshot")
    # Downsampled with a box filter (cairo's GOOD filter when shrinking) to 1 px per CSS px.
    big = cairo.ImageSurface.create_from_png(shot)
    small = cairo.ImageSurface(cairo.FORMAT_RGB24, big.get_width() // BROWSER_SCALE, big.get_height() // BROWSER_SCALE)
    cr = cairo.Context(small)
    cr.scale(1 / BROWSER_SCALE, 1 / BROWSER_SCALE)
    cr.set_source_surface(big, 0, 0)
    cr.get_source().set_filter(cairo.FILTER_GOOD)
    cr.paint()
    small.write_to_png(f"{out}/page-1x.png")
    page, _ = darkness(f"{out}/page-1x.png")
    result = {}
    for case in cases:
        cid = case[0]
        w, h = sizes[cid]
        t = tops[cid]
        result[cid] = {(x, y - t): d for (x, y), d in page.items() if t <= y < t + h and x < w}
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fitctl", default=".build/debug/fitctl")
    parser.add_argument("--out", default=".build/render-compare")
    parser.add_argument("--min-overlap", type=float, default=97.0)
    parser.add_argument("--max-box", type=int, default=1)
    parser.add_argument("--report")
    parser.add_argument("--fontconfig", default=FONTS_CONF,
                        help="fontconfig file for fitctl and pango-view (default: the pinned fonts, "
                             "Tests/fonts/fonts.conf, whatever FONTCONFIG_FILE says)")
    args = parser.parse_args()
    env = dict(os.environ)
    env["FONTCONFIG_FILE"] = os.path.abspath(args.fontconfig)
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    fitctl = args.fitctl.split()

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda c: draw(c, fitctl, args.out, env), CASES))

    invalid = []
    for case in CASES:
        r = subprocess.run(["xmllint", "--noout", "--nonet", "--dtdvalid", SVG_DTD, f"{args.out}/{case[0]}.fitd.svg"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            invalid.append((case[0], r.stderr.strip()[:300]))

    browser = chromium_shots(CASES, args.out, env)

    failures = 0
    per_script = {}
    lines = []
    for cid, script, font, width, text in CASES:
        fitd_dark, _ = darkness(f"{args.out}/{cid}.fitd.png")
        pango, _ = darkness(f"{args.out}/{cid}.pango.png")
        shown = browser[cid]
        box_p, overlap_p = compare(fitd_dark, pango)
        box_c, overlap_c = compare(fitd_dark, shown, ROUNDING)
        _, strict_c = compare(fitd_dark, shown)
        soft_c = coverage_overlap(fitd_dark, shown)
        ok_pango = box_p <= args.max_box and overlap_p >= args.min_overlap
        ok_chromium = box_c <= args.max_box and overlap_c >= args.min_overlap
        ok = ok_pango and ok_chromium
        if not ok:
            failures += 1
        entry = per_script.setdefault(script, [0, 0, 100.0, 100.0, 100.0, 0, 0])
        entry[0] += 1
        entry[1] += ok
        entry[2] = min(entry[2], overlap_p)
        entry[3] = min(entry[3], overlap_c)
        entry[4] = min(entry[4], soft_c)
        entry[5] = max(entry[5], box_p)
        entry[6] = max(entry[6], box_c)
        status = "ok  " if ok else "FAIL"
        lines.append(f"{status:5} {cid:14} pango-view: box {box_p} px, ink {overlap_p:6.2f} %   "
                     f"chromium: box {box_c} px, ink {overlap_c:6.2f} % (strict {strict_c:6.2f}), coverage {soft_c:6.2f} %")
    report = ["| script | cases ok | pango-view: min ink overlap | max box Δ | Chromium (SVG): min ink overlap | min coverage overlap | max box Δ |",
              "|---|---|---|---|---|---|---|"]
    for script, (n, good, op, oc, sc, bp, bc) in per_script.items():
        report.append(f"| {script} | {good}/{n} | {op:.2f} % | {bp} px | {oc:.2f} % | {sc:.2f} % | {bc} px |")
    print("\n".join(lines))
    print()
    print("\n".join(report))
    for cid, err in invalid:
        print(f"FAIL {cid}: SVG not valid against SVG 1.1 DTD: {err}")
    print(f"\n{len(CASES) - failures}/{len(CASES)} cases pass, {failures} failures; "
          f"{len(CASES) - len(invalid)}/{len(CASES)} SVGs valid (SVG 1.1 DTD, xmllint --nonet); "
          f"fonts: {env['FONTCONFIG_FILE']}")
    if args.report:
        with open(args.report, "w") as f:
            f.write("\n".join(report) + "\n")
    return 1 if failures or invalid else 0


if __name__ == "__main__":
    sys.exit(main())
