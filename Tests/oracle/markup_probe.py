#!/usr/bin/python3
"""Random Pango markup labels measured by Pango 1.50 (pango_layout_set_markup, the oracle's
GTK 4 context) and by fitd (fitctl measure --batch --local, "markup": true).

    FONTCONFIG_FILE=Tests/fonts/fonts.conf /usr/bin/python3 Tests/oracle/markup_probe.py --fonts pinned
    FONTCONFIG_FILE=/etc/fonts/fonts.conf  /usr/bin/python3 Tests/oracle/markup_probe.py --fonts desktop

ok = width within max(0.5 px, 0.5 %), height within 1 px, same line count (as compare.py).
Prints the cases that differ and the share that agree. Mixed scripts on one line also meet
the classes of desktop_corpus.MINIMAL other than markup (baseline alignment, trailing spaces, paired
punctuation), so not every difference is markup's.
"""

import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pango_measure as pm  # noqa: E402
from gi.repository import GLib, Pango  # noqa: E402

WORDS = ["Save", "changes", "Settings", "12:45", "Open file", "Délai", "Привет", "مرحبا", "שלום", "नमस्ते",
         "你好", "こんにちは", "한국어", "ภาษาไทย", "👍", "Wi‑Fi", "H2O", "x²", "ffi office", "Ünïcødé", "1/2",
         "(ok)", "«Bonjour»", "“quoted”", "a &amp; b"]
TAGS = [("<b>", "</b>"), ("<i>", "</i>"), ("<big>", "</big>"), ("<small>", "</small>"), ("<tt>", "</tt>"),
        ("<s>", "</s>"), ("<u>", "</u>"), ("<sub>", "</sub>"), ("<sup>", "</sup>"),
        ('<span size="larger">', "</span>"), ('<span size="x-small">', "</span>"), ('<span size="14pt">', "</span>"),
        ('<span size="80%">', "</span>"), ('<span weight="light">', "</span>"), ('<span weight="800">', "</span>"),
        ('<span style="italic" stretch="condensed">', "</span>"), ('<span font="{serif} 9">', "</span>"),
        ('<span face="monospace">', "</span>"), ('<span font_features="tnum,-liga">', "</span>"),
        ('<span letter_spacing="1024">', "</span>"), ('<span letter_spacing="-512">', "</span>"),
        ('<span rise="3pt">', "</span>"), ('<span rise="-2000">', "</span>"),
        ('<span baseline_shift="superscript">', "</span>"), ('<span baseline_shift="-4pt">', "</span>"),
        ('<span font_scale="subscript">', "</span>"), ('<span font="{bold}">', "</span>"),
        ('<span font="{variable}">', "</span>"), ('<span foreground="#336699" underline="error">', "</span>"),
        ('<span lang="sr">', "</span>")]
FONTS = {
    "pinned": (["Noto Sans 10", "DejaVu Sans 10", "Noto Serif 11", "DejaVu Sans Mono 10", "Noto Sans Mono 11"],
               {"serif": "Noto Serif", "bold": "Noto Sans Bold 11", "variable": "Noto Serif Light 10"}),
    "desktop": (["Cantarell 11", "Noto Sans 10", "DejaVu Sans 10", "Inter 11", "Liberation Sans 10", "Roboto 10"],
                {"serif": "Noto Serif", "bold": "Cantarell Bold 11", "variable": "Inter 10 @wght=300"}),
}


def fragment(rng, names, depth):
    if depth > 2 or rng.random() < 0.4:
        return rng.choice(WORDS)
    opening, closing = rng.choice(TAGS)
    inner = " ".join(fragment(rng, names, depth + 1) for _ in range(rng.randint(1, 2)))
    return opening.format(**names) + inner + closing


def cases(rng, fonts, names, count):
    for _ in range(count):
        request = {"font": rng.choice(fonts), "markup": True,
                   "text": " ".join(fragment(rng, names, 0) for _ in range(rng.randint(1, 3)))}
        r = rng.random()
        if r < 0.2:
            request["max_width"] = rng.choice([40, 80, 120])
        elif r < 0.3:
            request.update(max_width=rng.choice([60, 100]), ellipsize="end")
        yield request


def pango(ctx, request):
    layout = Pango.Layout.new(ctx)
    desc = Pango.FontDescription.from_string("sans-serif 12")
    desc.merge(Pango.FontDescription.from_string(request["font"]), True)
    layout.set_font_description(desc)
    if "max_width" in request:
        layout.set_width(int(request["max_width"] * Pango.SCALE))
        layout.set_wrap(Pango.WrapMode.WORD)
    if "ellipsize" in request:
        layout.set_ellipsize(Pango.EllipsizeMode.END)
        layout.set_height(-1)
    Pango.parse_markup(request["text"], -1, "\0")  # raises on malformed markup
    layout.set_markup(request["text"], -1)
    _, logical = layout.get_extents()
    return logical.width / Pango.SCALE, logical.height / Pango.SCALE, layout.get_line_count()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fonts", choices=sorted(FONTS), default="pinned")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--fitctl", default=os.path.join(os.path.dirname(__file__), "../../.build/debug/fitctl"))
    args = parser.parse_args()
    fonts, names = FONTS[args.fonts]
    requests = list(cases(random.Random(args.seed), fonts, names, args.count))
    # The oracle's context language is en-us (pango_measure.make_context), not the locale's.
    done = subprocess.run([args.fitctl, "measure", "--batch", "--local", "--language", "en-us"], capture_output=True, text=True,
                          input="".join(json.dumps(r) + "\n" for r in requests))
    # Exit 2: some lines were refused, each with an "error" (compared like the others).
    if done.returncode not in (0, 2):
        raise SystemExit(f"fitctl failed ({done.returncode}): {done.stderr[-2000:]}")
    out = done.stdout.splitlines()
    ctx = pm.make_context()
    ok = 0
    for request, line in zip(requests, out):
        fitd = json.loads(line)
        try:
            width, height, lines = pango(ctx, request)
        except GLib.Error as error:
            good = "error" in fitd
            detail = "Pango: %s" % error.message
        else:
            good = ("error" not in fitd and abs(fitd["width"] - width) <= max(0.5, 0.005 * width)
                    and abs(fitd["height"] - height) <= 1 and fitd["lines"] == lines)
            detail = "Pango %.2f x %.2f /%d, fitd %s" % (width, height, lines, fitd.get("error") or "%.2f x %.2f /%d" % (
                fitd["width"], fitd["height"], fitd["lines"]))
        ok += good
        if not good:
            options = {k: v for k, v in request.items() if k not in ("text", "font", "markup")}
            print("DIFF %s %r %s: %s" % (request["font"], request["text"], options or "", detail))
    print("markup_probe: %d/%d ok (%.1f %%), fonts %s, seed %d" % (ok, len(requests), 100.0 * ok / len(requests),
                                                                   args.fonts, args.seed))


if __name__ == "__main__":
    main()
