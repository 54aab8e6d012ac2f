#!/usr/bin/python3
"""Experiments backing PANGO_RULES.md.  Run:
   FONTCONFIG_FILE=Tests/fonts/fonts.conf /usr/bin/python3 Tests/oracle/experiments.py
Needs python3-fonttools for the raw-advance comparisons."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pango_measure import make_context, measure
from fontTools.ttLib import TTFont

ctx = make_context(False)
ctx_h = make_context(True)
def M(text, font, c=ctx, **kw):
    r = dict(text=text, font=font); r.update(kw)
    return measure(c, r)
def show(label, r, keys=("width", "height", "baseline", "lines", "ellipsized", "line_widths")):
    print("%-58s %s" % (label, {k: r.get(k) for k in keys if k in r}))

D = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
N = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
def raw(path, text, px):
    f = TTFont(path); cmap = f.getBestCmap(); hm = f["hmtx"]; upem = f["head"].unitsPerEm
    units = sum(hm[cmap[ord(ch)]][0] for ch in text)
    return units, upem, units * px / upem
def vm(path):
    f = TTFont(path); h = f["hhea"]; o = f["OS/2"]
    return dict(upem=f["head"].unitsPerEm, hhea=(h.ascent, h.descent, h.lineGap),
                typo=(o.sTypoAscender, o.sTypoDescender, o.sTypoLineGap), win=(o.usWinAscent, o.usWinDescent),
                use_typo=bool(o.fsSelection & (1 << 7)))

print("== 1. scale / advances")
for text, font, path, px in [("Hello", "DejaVu Sans 12", D, 16.0), ("Hello", "DejaVu Sans 10", D, 40/3),
                             ("Hello world", "Noto Sans 11", N, 11*96/72), ("Hello", "DejaVu Sans 13px", D, 13.0),
                             ("iiiiiiiiii", "DejaVu Sans 10", D, 40/3)]:
    u, upem, w = raw(path, text, px)
    r = M(text, font)
    hb_scale = int(px * 1024)
    per_glyph = None
    print("%-28s raw units %d/%d -> exact %.6f px | pango %.6f px (=%d units) | hb scale int(px*1024)=%d -> %.6f" % (
        text + " @ " + font, u, upem, w, r["width"], round(r["width"] * 1024), hb_scale, u * hb_scale / upem / 1024))
r = M("Hello", "DejaVu Sans 10", debug=True); print("  run font:", r["runs"][0][0]["font"])
print("  hint metrics ON, round FALSE (same advances?):", M("Hello", "DejaVu Sans 10", ctx_h)["width"])

print("\n== 2. vertical metrics")
for p in [D, N, "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
          "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"]:
    print("  ", os.path.basename(p), vm(p))
for font in ["DejaVu Sans 10", "DejaVu Sans 12", "Noto Sans 11", "Noto Serif 12", "DejaVu Sans Mono 10", "DejaVu Sans 13px"]:
    a = M("Ag", font); b = M("Ag", font, ctx_h); e = M("", font)
    show("  'Ag' " + font + " (hint OFF)", a, ("height", "baseline")); show("  'Ag' " + font + " (hint ON)", b, ("height", "baseline"))
    show("  '' " + font, e, ("width", "height", "baseline", "lines"))
for t in ["A", "你", "A你", "😀", "A😀", "שלום", "क", "Aक", "ไทย", "\n", "a\n", "a\nb"]:
    show("  %r DejaVu Sans 10" % t, M(t, "DejaVu Sans 10"), ("width", "height", "baseline", "lines", "line_widths"))

print("\n== 3. fallback fonts (DejaVu Sans 10 / sans-serif 10 / Noto Sans 11)")
for t in ["Hi 😀", "👍🏽", "👩‍💻", "👨‍👩‍👧‍👦", "🇩🇪", "1️⃣", "#️⃣", "❤️", "❤", "☺", "☺️", "©", "©️", "✔", "Zürich ☕",
          "你好", "こんにちは", "안녕", "שלום", "مرحبا", "नमस्ते", "ภาษาไทย", "Ελληνικά", "Привет", "Tiếng Việt",
          "e\u0301", "a\u0308\u0301", "x\u0301", "中\u0301", "Ñ", "₹", "→", "「Hello」", "abc\u200d", "\u2026"]:
    for font in ["DejaVu Sans 10", "Noto Sans 11"]:
        r = M(t, font, debug=True)
        print("  %-18r %-15s %s" % (t, font, [(x["text"], x["font"], round(x["width"], 4)) for x in r["runs"][0]]))

print("\n== 4. trailing whitespace")
for t in ["Hello", "Hello ", "Hello  ", " Hello", "Hello\t"]:
    show("  %r DejaVu Sans 10 unwrapped" % t, M(t, "DejaVu Sans 10"))
w_hello = M("Hello", "DejaVu Sans 10")["width"]; w_sp = M("Hello ", "DejaVu Sans 10")["width"]
for mw in [w_hello, w_hello + 1, 200]:
    show("  'Hello world' max_width=%.4f" % mw, M("Hello world", "DejaVu Sans 10", max_width=mw))
show("  'Hello   world' max_width=%.4f" % (w_hello + 1), M("Hello   world", "DejaVu Sans 10", max_width=w_hello + 1))

print("\n== 5. fit test")
w_full = M("Hello world", "DejaVu Sans 10")["width"]
for mw in [w_full, w_full - 1 / 1024, w_full - 0.5 / 1024]:
    show("  'Hello world' (w=%.6f) max_width=%.6f" % (w_full, mw), M("Hello world", "DejaVu Sans 10", max_width=mw))

print("\n== 6. long words, wrap modes, hyphens")
W = "supercalifragilisticexpialidocious"
for wrap in ["word", "char", "word-char"]:
    r = M(W, "DejaVu Sans 10", max_width=80, wrap=wrap, debug=True)
    print("  %-9s lines=%d widths=%s texts=%s" % (wrap, r["lines"], [round(x, 3) for x in r["line_widths"]],
          [[x["text"] for x in l] for l in r["runs"]]))
    r = M("Go " + W + " now", "DejaVu Sans 10", max_width=80, wrap=wrap, debug=True)
    print("  %-9s 'Go W now' lines=%d widths=%s texts=%s" % (wrap, r["lines"], [round(x, 3) for x in r["line_widths"]],
          [[x["text"] for x in l] for l in r["runs"]]))
r = M("supercal", "DejaVu Sans 10"); h = M("supercal-", "DejaVu Sans 10"); h2 = M("supercal\u2010", "DejaVu Sans 10")
print("  width 'supercal'=%.4f 'supercal-'=%.4f 'supercal\u2010'=%.4f" % (r["width"], h["width"], h2["width"]))
for t, wrap in [("你好世界你好世界你好世界", "char"), ("你好世界你好世界你好世界", "word"), ("well-known-long-compound", "char"),
                ("Donaudampfschifffahrtsgesellschaftskapitän", "word-char"), ("ภาษาไทยภาษาไทยภาษาไทย", "word")]:
    r = M(t, "DejaVu Sans 10", max_width=60, wrap=wrap, debug=True)
    print("  %-10s %r lines=%d widths=%s texts=%s" % (wrap, t, r["lines"], [round(x, 3) for x in r["line_widths"]],
          [["".join(x["text"] for x in l)] for l in r["runs"]]))

print("\n== 7. ellipsis")
for f in ["DejaVu Sans 10", "Noto Sans 11"]:
    show("  '\u2026' " + f, M("\u2026", f)); show("  '\u22ef' " + f, M("\u22ef", f))
T = "The quick brown fox jumps over the lazy dog"
for mode in ["end", "middle", "start"]:
    for mw in [100, 100.5, 37]:
        r = M(T, "DejaVu Sans 10", max_width=mw, ellipsize=mode, debug=True)
        print("  %-6s mw=%-5s w=%.4f lines=%d ell=%s text=%s" % (mode, mw, r["width"], r["lines"], r["ellipsized"],
              ["|".join(x["text"] for x in l) for l in r["runs"]]))
for n in [1, 2, 3]:
    r = M(T, "DejaVu Sans 10", max_width=100, ellipsize="end", max_lines=n, debug=True)
    print("  end max_lines=%d w=%.4f h=%.4f lines=%d widths=%s text=%s" % (n, r["width"], r["height"], r["lines"],
          [round(x, 3) for x in r["line_widths"]], ["|".join(x["text"] for x in l) for l in r["runs"]]))
r = M("日本語のテキストです日本語のテキストです", "DejaVu Sans 10", max_width=80, ellipsize="end", debug=True)
print("  CJK end:", r["width"], ["|".join("%s(%s)" % (x["text"], x["font"]) for x in l) for l in r["runs"]])
show("  'a\\nb' ellipsize end, no max_lines, mw=100", M("first paragraph\nsecond", "DejaVu Sans 10", max_width=100, ellipsize="end"))
show("  '' ellipsize end mw=10", M("", "DejaVu Sans 10", max_width=10, ellipsize="end"))
show("  'Hello' ellipsize end mw=3 (ellipsis > goal)", M("Hello", "DejaVu Sans 10", max_width=3, ellipsize="end"))

print("\n== 8. letter spacing")
for t in ["A", "AB", "ABC", "A B", "fi", "你好", "مرحبا", "👍🏽👍", "e\u0301e"]:
    a = M(t, "DejaVu Sans 10")["width"]
    for ls in [1.0, 2.0, 0.3]:
        b = M(t, "DejaVu Sans 10", letter_spacing=ls)["width"]
        print("  %-8r ls=%.1f  plain=%.4f spaced=%.4f diff=%.4f (= %.3f × ls)" % (t, ls, a, b, b - a, (b - a) / ls))
r = M("AAAA BBBB", "DejaVu Sans 10", letter_spacing=2.0, max_width=50, debug=True)
print("  wrapped ls=2:", r["line_widths"], [["|".join(x["text"] for x in l)] for l in r["runs"]])

print("\n== 9. features")
for t, feats in [("0123456789", ""), ("0123456789", "tnum"), ("1111", ""), ("1111", "tnum"), ("office", ""),
                 ("office", "-liga"), ("Small Caps", ""), ("Small Caps", "smcp")]:
    for f in ["DejaVu Sans 10", "Noto Sans 11"]:
        print("  %-12r %-6s %-15s %.4f" % (t, feats, f, M(t, f, features=feats or None)["width"]))
