#!/usr/bin/python3
"""Pango 1.50 measurement oracle for fitd.

Reads JSON lines on stdin (one request per line), writes one JSON result per
line on stdout, same order.  Run it with Debian's /usr/bin/python3 (needs
python3-gi, python3-gi-cairo, gir1.2-pango-1.0) and with the pinned fonts:

    FONTCONFIG_FILE=Tests/fonts/fonts.conf /usr/bin/python3 Tests/oracle/pango_measure.py < Tests/oracle/corpus.jsonl

Request fields
    text            string (required)
    font            Pango font description string, "DejaVu Sans 12", "monospace 9px" (required)
    max_width       px (float); absent/null = no wrapping, no width limit
    wrap            "word" | "char" | "word-char"            (default "word")
    max_lines       int >= 1                                   (default: no limit)
    ellipsize       "none" | "start" | "middle" | "end"         (default "none")
    letter_spacing  px (float)
    features        "tnum,-liga,smcp" (HarfBuzz feature syntax, comma separated)
    language        context language (BCP 47 / POSIX locale as Pango reads it: "bn-IN",
                    "zh_CN.UTF-8", "c"); default: --language.  "c" is exactly the language
                    Pango derives from LANG=C / C.UTF-8 (pango_language_from_string
                    lower-cases and stops at '.').
    metrics         "gtk4" (default: cairo hint metrics OFF, glyph positions unrounded, as
                    GTK 4.16) | "gtk3" (hint metrics ON and Pango's default
                    round_glyph_positions TRUE, as GTK 3 and plain PangoCairo: ascent,
                    descent and advances in whole px) | "gtk-4.N" (a GTK 4 line as it draws
                    with Debian 12's cairo 1.16: 4.0-4.14 round positions, hint metrics off;
                    PANGO_RULES.md §15); default --metrics
    markup          true -> text is Pango markup, set as gtk_label_set_markup does
                    (pango_parse_markup, no accel marker); a parse error gives
                    {"error": Pango's message}
    id              echoed back
    debug           true -> also return "runs": per line, per run font + text + width
    line_texts      true -> also return "line_texts": per line, the text it shows, its
                    ellipsis run as the characters drawn ("\u2026", "\u22ef" or "...")

Fonts: a description goes through pango_font_description_from_string, so
"Cantarell @wght=700 11" (variations) works as in GTK.

Environment: Pango reads PANGO_LANGUAGE / LANGUAGE for its preferred languages
(pango-language.c parse_default_languages, used by itemize for script → font
choice).  The oracle removes both unless --preferred-languages is given, so
results do not depend on the caller's shell.

Result fields (px floats, logical extents)
    width, height, baseline, lines, ellipsized, line_widths, id
    or {"error": "...", "id": ...} for a bad request (the stream goes on).

Setup = what a GTK 4 widget does when it measures a label (gtkwidget.c,
update_pango_context + settings_update_font_options, gtk-hint-font-metrics
default FALSE):
    * PangoCairo font map created with PangoCairo.FontMap.new() (so
      FONTCONFIG_FILE applies; the default font map would be shared/cached),
    * pango_cairo_context_set_resolution(ctx, 96),
    * pango_context_set_round_glyph_positions(ctx, FALSE),
    * cairo font options with hint metrics OFF (GTK 4 sets
      CAIRO_HINT_METRICS_OFF unless gtk-hint-font-metrics is TRUE).  With
      hint metrics ON Pango rounds ascent/descent to whole pixels (see
      PANGO_RULES.md); --hint-metrics on reproduces that GTK 3-like setup.
    * context language fixed to "en-us" (GTK uses the locale; we pin it so that
      results do not depend on $LANG).  --language overrides, and a request's
      "language" field overrides both.

Line limits (how a GtkLabel maps `lines` + `ellipsize`):
    ellipsize != none, max_lines N     -> pango_layout_set_height(layout, -N)
    ellipsize != none, no max_lines    -> set_height(-1): ONE line, ellipsized
                                          (GtkLabel with a width and no `lines`
                                          ellipsizes a single line; without a
                                          max_width nothing is ellipsized)
    ellipsize == none, max_lines N     -> GTK ignores `lines` when not
                                          ellipsizing.  fitd's max_lines means
                                          "at most N lines are shown", so the
                                          oracle CLIPS: the layout is laid out
                                          normally, only the first N lines
                                          count: width = widest of those lines,
                                          height = bottom of line N (logical),
                                          lines = min(N, total), ellipsized =
                                          false.  "total_lines" reports the
                                          unclipped count.  This is what a
                                          clipped label shows; no text is
                                          replaced by an ellipsis.
"""

import argparse
import json
import os
import sys

# Pango reads these once, at its first itemization (see the docstring); main() may set LANGUAGE.
os.environ.pop("PANGO_LANGUAGE", None)
os.environ.pop("LANGUAGE", None)

import gi

gi.require_version("Pango", "1.0")
gi.require_version("PangoCairo", "1.0")
from gi.repository import GLib, Pango, PangoCairo  # noqa: E402

try:
    import cairo  # python3-gi-cairo / python3-cairo

    gi.require_foreign("cairo")
except Exception:  # pragma: no cover
    cairo = None

SCALE = Pango.SCALE  # 1024

WRAP = {
    "word": Pango.WrapMode.WORD,
    "char": Pango.WrapMode.CHAR,
    "word-char": Pango.WrapMode.WORD_CHAR,
    "word_char": Pango.WrapMode.WORD_CHAR,
}
ELLIPSIZE = {
    "none": Pango.EllipsizeMode.NONE,
    "start": Pango.EllipsizeMode.START,
    "middle": Pango.EllipsizeMode.MIDDLE,
    "end": Pango.EllipsizeMode.END,
}


class BadRequest(Exception):
    pass


# metrics → (hint metrics, round glyph positions). GTK 4 turns both off (gtkwidget.c
# update_pango_context); GTK 3 never calls pango_context_set_round_glyph_positions, so it
# keeps Pango's default TRUE, and its X11/Wayland font options hint metrics (cairo's
# default for FreeType fonts) — the same as a plain pango_cairo_create_context.
METRICS = {"gtk4": (False, False), "gtk3": (True, True)}
# GTK 4 lines by name (PANGO_RULES.md §15, with cairo < 1.17.4 as on Debian 12): 4.0–4.14 keep
# Pango's rounded positions with hint metrics off; 4.16 and later round nothing.
METRICS.update({"gtk-4.%d" % minor: (False, True) for minor in range(0, 15)})
METRICS.update({"gtk-4.%d" % minor: (False, False) for minor in range(15, 100)})
METRICS.update({"gtk-3": (True, True), "gtk-3.24": (True, True)})


def make_context(hint_metrics=False, language="en-us", fontmap=None, round_positions=False):
    if fontmap is None:
        fontmap = PangoCairo.FontMap.new()
    ctx = fontmap.create_context()
    PangoCairo.context_set_resolution(ctx, 96.0)
    ctx.set_round_glyph_positions(round_positions)
    if cairo is not None:
        fo = cairo.FontOptions()
        fo.set_hint_metrics(cairo.HINT_METRICS_ON if hint_metrics else cairo.HINT_METRICS_OFF)
        PangoCairo.context_set_font_options(ctx, fo)
    elif not hint_metrics:
        raise SystemExit("python3-gi-cairo is needed to switch hint metrics off")
    if language:
        ctx.set_language(Pango.Language.from_string(language))
    return ctx


def px(units):
    return units / SCALE


def _num(req, key):
    v = req.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise BadRequest("%s must be a number" % key)
    return float(v)


class Contexts:
    """One PangoContext per (hint metrics, language), all on one font map (so fonts load once)."""

    def __init__(self, hint_metrics, language, metrics=None):
        self.fontmap = PangoCairo.FontMap.new()
        # Without a "metrics" field: --metrics if given, else --hint-metrics alone (the
        # pinned corpus' historical switch, glyph positions unrounded).
        self.default = METRICS[metrics] if metrics else (hint_metrics, False)
        self.language = language
        self.made = {}

    def get(self, req):
        language = self.language
        if isinstance(req, dict) and req.get("language") is not None:
            language = req["language"]
            if not isinstance(language, str) or not language.strip():
                raise BadRequest("language must be a non-empty string")
        hint, rounded = self.default
        if isinstance(req, dict) and req.get("metrics") is not None:
            if req["metrics"] not in METRICS:
                raise BadRequest("metrics must be gtk4|gtk3|gtk-4.N|gtk-3.24")
            hint, rounded = METRICS[req["metrics"]]
        key = (hint, rounded, language)
        ctx = self.made.get(key)
        if ctx is None:
            ctx = self.made[key] = make_context(hint, language, self.fontmap, rounded)
        return ctx

    def reset(self):
        """A fresh font map, as a new process has (see fresh_font_metrics)."""
        self.fontmap = PangoCairo.FontMap.new()
        self.made = {}


def measure(ctx, req):
    if not isinstance(req, dict):
        raise BadRequest("request must be a JSON object")
    text = req.get("text")
    font = req.get("font")
    if not isinstance(text, str):
        raise BadRequest("text must be a string")
    if font is None:
        font = ""
    if not isinstance(font, str):
        raise BadRequest("font must be a string")
    # What a description leaves out comes from the context's default description, as in
    # GTK (the widget font merged under the label's): fitd's default is "sans-serif 12".
    desc = Pango.FontDescription.from_string("sans-serif 12")
    desc.merge(Pango.FontDescription.from_string(font), True)
    if desc.get_size() <= 0:
        raise BadRequest("font size must be positive: %r" % font)

    max_width = _num(req, "max_width")
    if max_width is not None and max_width < 0:
        raise BadRequest("max_width must be >= 0")
    wrap = req.get("wrap") or "word"
    if wrap not in WRAP:
        raise BadRequest("wrap must be word|char|word-char")
    ell = req.get("ellipsize") or "none"
    if ell not in ELLIPSIZE:
        raise BadRequest("ellipsize must be none|start|middle|end")
    max_lines = req.get("max_lines")
    if max_lines is not None:
        if isinstance(max_lines, bool) or not isinstance(max_lines, int) or max_lines < 1:
            raise BadRequest("max_lines must be an integer >= 1")
    letter_spacing = _num(req, "letter_spacing")
    features = req.get("features")
    if features is not None and not isinstance(features, str):
        raise BadRequest("features must be a string")

    markup = req.get("markup", False)
    if not isinstance(markup, bool):
        raise BadRequest("markup must be true or false")
    markup_attrs = None
    if markup:
        # gtk_label_set_markup → pango_parse_markup (accel marker 0); Pango's own message on error.
        try:
            _, markup_attrs, text, _ = Pango.parse_markup(text, -1, "\0")
        except GLib.Error as e:
            raise BadRequest(e.message)

    layout = Pango.Layout.new(ctx)
    layout.set_font_description(desc)
    layout.set_text(text, -1)

    attrs = Pango.AttrList()
    if letter_spacing:
        attrs.insert(Pango.attr_letter_spacing_new(int(round(letter_spacing * SCALE))))
    if features:
        feats = ",".join(f.strip() for f in features.split(",") if f.strip())
        attrs.insert(Pango.attr_font_features_new(feats))
    if markup_attrs is not None and not letter_spacing and not features:
        # GtkLabel with no attributes of its own takes the markup's list as it is
        # (gtklabel.c gtk_label_update_layout_attributes: _gtk_pango_attr_list_merge (NULL,
        # markup_attrs) refs it): nested identical attributes stay two, an empty tag stays.
        attrs = markup_attrs
    elif markup_attrs is not None:
        # Else the markup's attributes are merged over the label's own with
        # pango_attr_list_change (as splice does), so the markup wins.
        attrs.splice(markup_attrs, 0, 0)
    layout.set_attributes(attrs)

    if max_width is not None:
        # GtkLabel hands Pango widths in Pango units; px * 1024, rounded.
        layout.set_width(int(round(max_width * SCALE)))
        layout.set_wrap(WRAP[wrap])
    layout.set_ellipsize(ELLIPSIZE[ell])
    if ell != "none":
        layout.set_height(-(max_lines if max_lines else 1))

    total_lines = layout.get_line_count()
    keep = total_lines
    if ell == "none" and max_lines is not None:
        keep = min(max_lines, total_lines)

    ink, logical = layout.get_extents()
    baseline = layout.get_baseline()
    line_widths = []
    runs_dbg = []
    texts = []
    it = layout.get_iter()
    top = logical.y
    bottom = top
    left = None
    right = None
    idx = 0
    while True:
        if idx >= keep:
            break
        line_ink, line_log = it.get_line_extents()
        line_widths.append(px(line_log.width))
        bottom = line_log.y + line_log.height
        left = line_log.x if left is None else min(left, line_log.x)
        right = line_log.x + line_log.width if right is None else max(right, line_log.x + line_log.width)
        if req.get("debug"):
            runs_dbg.append(_debug_line(it.get_line_readonly(), text))
        if req.get("line_texts"):
            texts.append(_shown_text(it.get_line_readonly(), text))
        idx += 1
        if not it.next_line():
            break

    if keep < total_lines:
        width = px(right - left) if right is not None else 0.0
        height = px(bottom - top)
    else:
        width = px(logical.width)
        height = px(logical.height)

    res = {
        "width": width,
        "height": height,
        "baseline": px(baseline - logical.y),
        "lines": keep,
        "ellipsized": bool(layout.is_ellipsized()),
        "line_widths": line_widths,
    }
    if keep != total_lines:
        res["total_lines"] = total_lines
    if max_width is not None and not fresh_font_metrics(layout):
        res["_stale_metrics"] = True
    if req.get("line_texts"):
        res["line_texts"] = texts
    if req.get("debug"):
        res["runs"] = runs_dbg
        res["ink"] = [px(ink.x), px(ink.y), px(ink.width), px(ink.height)]
    return res


def fresh_font_metrics(layout):
    """False when a run's font has no approximate char width: its metrics were first asked
    for while another font's were being computed (pangocairo-font.c
    _pango_cairo_font_get_metrics lays out the language's sample string and, guarded by a
    static in_get_metrics, leaves the derived widths of the fonts met there at 0 — for
    good, cached in the font).  process_item's safe distance (3 × that width) is then 0 and
    the breaks change (seen: DejaVu Sans 10 after a Noto Sans 10 "0" in ar-eg, whose
    Arabic sample falls back to DejaVu Sans).  A result must not depend on the requests
    before it, so main() measures such a request again on a fresh font map.  The layout's
    extents have asked every run font for its metrics already: asking again changes
    nothing."""
    for line in layout.get_lines_readonly():
        for run in line.runs or []:
            a = run.item.analysis
            if a.font is not None and a.font.get_metrics(a.language).get_approximate_char_width() == 0:
                return False
    return True


# PangoAnalysis.flags: the run ellipsize.c made (fixup_ellipsis_run); its item spans the
# elided text, its glyphs are the ellipsis.
ANALYSIS_FLAG_IS_ELLIPSIS = 1 << 1


def _shown_text(line, text):
    """The line's text as drawn, in logical order: each run's text, the ellipsis run's
    characters instead of the text it replaces.  Which ellipsis (shape_ellipsis): 3 glyphs
    are "..."; one glyph is U+22EF if it has the ink of U+22EF shaped in the run's font
    (U+22EF sits at mid-height, U+2026 on the baseline; fixup_ellipsis_run pads only the
    advance), else U+2026.  (PangoGlyphInfo's bit fields keep its glyph ids from GI.)"""
    b = text.encode("utf-8")
    out = []
    # Runs are in visual order after pango_layout_line_postprocess; the ellipsis run's item
    # starts at the gap, so the item offsets give the logical order back.
    for run in sorted(line.runs or [], key=lambda r: r.item.offset):
        item = run.item
        if item.analysis.flags & ANALYSIS_FLAG_IS_ELLIPSIS:
            if run.glyphs.num_glyphs == 3:
                out.append("...")
                continue
            font = item.analysis.font
            ink = _rect(run.glyphs.extents(font)[0])
            midline = ink == _probe_ink("\u22ef", item.analysis)
            if midline and ink == _probe_ink("\u2026", item.analysis):
                # A font drawing both alike (CJK fonts centre U+2026 too): the picture is the
                # same; name it as shape_ellipsis chose, by the first elided character.
                first = b[item.offset:item.offset + item.length].decode("utf-8", "replace")[:1]
                midline = bool(first) and GLib.unichar_iswide(first)
            out.append("\u22ef" if midline else "\u2026")
        else:
            out.append(b[item.offset:item.offset + item.length].decode("utf-8", "replace"))
    return "".join(out)


def _rect(r):
    return (r.x, r.y, r.width, r.height)


def _probe_ink(character, analysis):
    glyphs = Pango.GlyphString()
    Pango.shape(character, len(character.encode("utf-8")), analysis, glyphs)
    return _rect(glyphs.extents(analysis.font)[0])


def _debug_line(line, text):
    b = text.encode("utf-8")
    out = []
    for run in line.runs or []:
        item = run.item
        font = item.analysis.font
        fdesc = font.describe().to_string() if font else None
        w = run.glyphs.get_width()
        out.append({
            "font": fdesc,
            "text": b[item.offset:item.offset + item.length].decode("utf-8", "replace"),
            "width": px(w),
            "level": item.analysis.level,
        })
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hint-metrics", choices=["off", "on"], default="off",
                    help="cairo hint metrics (GTK 4 default: off)")
    ap.add_argument("--metrics", choices=["gtk4", "gtk3"],
                    help="metrics of requests without a \"metrics\" field (gtk3: hint metrics on and "
                         "rounded glyph positions, as GTK 3); default: --hint-metrics alone")
    ap.add_argument("--language", default="en-us",
                    help="context language when a request has none (default en-us)")
    ap.add_argument("--preferred-languages", metavar="LIST",
                    help="set LANGUAGE=LIST for Pango's preferred languages (default: unset)")
    args = ap.parse_args()
    if args.preferred_languages is not None:
        os.environ["LANGUAGE"] = args.preferred_languages
    contexts = Contexts(args.hint_metrics == "on", args.language, args.metrics)
    out = sys.stdout
    for raw in sys.stdin:
        raw = raw.strip("\r\n")
        if not raw.strip():
            continue
        rid = None
        try:
            req = json.loads(raw)
            if isinstance(req, dict):
                rid = req.get("id")
            res = measure(contexts.get(req), req)
            if res.pop("_stale_metrics", False):
                contexts.reset()  # once: a fresh process measures it so (see fresh_font_metrics)
                res = measure(contexts.get(req), req)
                res.pop("_stale_metrics", None)
        except BadRequest as e:
            res = {"error": str(e)}
        except json.JSONDecodeError as e:
            res = {"error": "bad JSON: %s" % e}
        except Exception as e:  # never stop the stream
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        if rid is not None:
            res["id"] = rid
        out.write(json.dumps(res, ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
