#!/usr/bin/python3
"""Measure cases with REAL GTK labels: what gtk_widget_measure says, not Pango set up by hand.

    Xvfb :N &  DISPLAY=:N /usr/bin/python3 Tests/oracle/gtk_labels.py --toolkit gtk4 < cases.jsonl
    xvfb-run -a /usr/bin/python3 Tests/oracle/gtk_labels.py --toolkit gtk3 Tests/oracle/gtk_corpus.jsonl
    DISPLAY=:N /usr/bin/python3 Tests/oracle/gtk_labels.py --toolkit gtk4 --describe

Needs an X display (Xvfb; gtk_compare.py starts its own) and Debian's /usr/bin/python3 with
python3-gi, gir1.2-gtk-4.0 / gir1.2-gtk-3.0.  One JSON case a line in (stdin or FILE), one
JSON result a line out, same order (gtk_corpus.py documents the case fields; an "id" is
echoed).

How a case becomes a label (one fresh GtkLabel per case, in a realized, mapped GtkWindow, so
it has the display's GtkSettings: gtk-font-name, Xft/DPI, hinting):
    * text set with use-underline OFF (the corpus has already removed mnemonic underscores);
    * the label's Pango context language is the case's (pango_context_set_language on the
      widget's context, set before anything is measured): what an application running in that
      locale has, and what fitd's `language` option is — a language attribute instead would
      leave the context's "c", which picks the ellipsis's font differently (ellipsize.c loads it
      without fallback, in the context's language);
    * when the case has a font, a PangoAttrList with pango_attr_font_desc_new(font): the way
      an application sets a label's font in code (not CSS: a font attribute is merged over
      the widget's CSS font, so the size stays in points, exact; GTK 4's CSS font is in px);
      no font attribute when the case has none (the label shows gtk-font-name via the theme);
    * mode "plain": nothing else; "ellipsize": ellipsize start|middle|end, no wrap; "wrap":
      wrap TRUE, wrap-mode word | word-char (GTK's default is word); "lines": wrap TRUE,
      wrap-mode word, ellipsize end, lines N (the case's "lines", default 2).
Then:
    width  = measure(HORIZONTAL, -1)                 -> minimum_width, natural_width
    for_width = the case's "width" (px), or round(minimum_width + width_span ×
             (natural_width − minimum_width)), or round(width_fraction × natural_width) (at
             least 1), for every mode but plain; -1 for plain
    height = measure(VERTICAL, for_width)            -> minimum_height, natural_height
             (GTK 4: gtk_widget_measure; GTK 3: get_preferred_width /
             get_preferred_height_for_width.  Both toolkits raise a for_size below the
             minimum width to the minimum width before asking the label.)
    lines  = the label size-allocated at max(for_width, minimum_width) (plain: its natural
             width) × natural_height, then gtk_label_get_layout()'s line count (what is shown).
The window's own size never enters: the label is measured and allocated by itself.

Result fields
    id, toolkit ("gtk4" | "gtk3")
    widget      {minimum_width, natural_width, minimum_height, natural_height}  (ints, px)
    for_width   the width asked for (px) or absent for plain cases
    alloc_width the width the label was allocated for "lines"
    lines       the allocated layout's line count
    ellipsized  pango_layout_is_ellipsized after allocation
    font        the widget's font as GTK resolved it (its PangoContext's description:
                GTK 4 "Sans 13.3330078125px" for gtk-font-name "Sans 10" at 96 dpi, GTK 3 "Sans 10")
    faces       the fonts the allocated layout's runs use (pango_font_describe), distinct, in order
    or {"id", "error": "..."} when the case cannot be measured (the stream goes on).

--describe prints one line instead: the toolkit's version, GtkSettings (gtk-font-name,
gtk-xft-dpi, hinting, antialias, hint-font-metrics on GTK 4), the context language and
resolution, and what an unstyled label's text resolves to.
"""

import argparse
import json
import os
import sys

# Pango reads these once; the harness unsets them, but a stray shell must not leak in either.
os.environ.pop("PANGO_LANGUAGE", None)
os.environ.pop("LANGUAGE", None)

import gi  # noqa: E402

TOOLKITS = {"gtk4": "4.0", "gtk3": "3.0"}


def load(toolkit):
    gi.require_version("Gtk", TOOLKITS[toolkit])
    gi.require_version("Gdk", TOOLKITS[toolkit])
    gi.require_version("Pango", "1.0")
    gi.require_version("PangoCairo", "1.0")
    from gi.repository import Gdk, GLib, Gtk, Pango, PangoCairo  # noqa: E402
    try:
        import cairo  # noqa: F401  (python3-gi-cairo: the context's font options for --describe)
        gi.require_foreign("cairo")
    except Exception:
        pass
    return Gdk, GLib, Gtk, Pango, PangoCairo


class Labels:
    def __init__(self, toolkit):
        self.toolkit = toolkit
        self.Gdk, self.GLib, self.Gtk, self.Pango, self.PangoCairo = load(toolkit)
        Gtk = self.Gtk
        self.gtk4 = toolkit == "gtk4"
        if self.gtk4:
            if not Gtk.init_check():
                raise SystemExit("gtk_labels: GTK 4 cannot open the display %r" % os.environ.get("DISPLAY"))
            self.win = Gtk.Window()
            self.box = Gtk.Box()
            self.win.set_child(self.box)
            self.win.present()
        else:
            ok, _ = Gtk.init_check(None)
            if not ok:
                raise SystemExit("gtk_labels: GTK 3 cannot open the display %r" % os.environ.get("DISPLAY"))
            self.win = Gtk.Window()
            self.box = Gtk.Box()
            self.win.add(self.box)
            self.win.show_all()
        self.ctx = self.GLib.MainContext.default()
        deadline = self.GLib.get_monotonic_time() + 10 * 1000000
        while not self.win.get_mapped():
            if self.GLib.get_monotonic_time() > deadline:
                raise SystemExit("gtk_labels: the window was not mapped within 10 s")
            self.ctx.iteration(False)
        self.pump()
        self.ELLIPSIZE = {"none": self.Pango.EllipsizeMode.NONE, "start": self.Pango.EllipsizeMode.START,
                          "middle": self.Pango.EllipsizeMode.MIDDLE, "end": self.Pango.EllipsizeMode.END}
        self.WRAP = {"word": self.Pango.WrapMode.WORD, "char": self.Pango.WrapMode.CHAR,
                     "word-char": self.Pango.WrapMode.WORD_CHAR}

    def pump(self):
        while self.ctx.pending():
            self.ctx.iteration(False)

    # -------------------------------------------------------------- measure --
    def measure_pair(self, label, orientation, for_size):
        Gtk = self.Gtk
        if self.gtk4:
            r = label.measure(orientation, for_size)
            return r[0], r[1]
        if orientation == Gtk.Orientation.HORIZONTAL:
            return tuple(label.get_preferred_width())
        if for_size < 0:
            return tuple(label.get_preferred_height())
        return tuple(label.get_preferred_height_for_width(for_size))

    def make_label(self, case):
        Gtk, Pango = self.Gtk, self.Pango
        text = case.get("text")
        if not isinstance(text, str):
            raise ValueError("text must be a string")
        label = Gtk.Label()
        label.set_use_underline(False)
        label.set_text(text)
        attrs = Pango.AttrList()
        font = case.get("font")
        if font and case.get("font_css"):
            self.set_css_font(label, font)
        elif font:
            desc = Pango.FontDescription.from_string(font)
            attrs.insert(Pango.attr_font_desc_new(desc))
        label.set_attributes(attrs)
        if case.get("width_chars") is not None or case.get("max_width_chars") is not None:
            # A font map of its own: Pango keeps each font's metrics per language once
            # computed, and one first computed while another font's were (its runs in that
            # font's sample text: pangocairo-font.c `in_get_metrics`) keeps no digit width,
            # so an app's earlier labels could change this one's char_pixels. A fresh map is
            # the label's font met for the first time, the case fitd reproduces.
            label.set_font_map(self.PangoCairo.FontMap.new())
        if case.get("width_chars") is not None:
            label.set_width_chars(int(case["width_chars"]))
        if case.get("max_width_chars") is not None:
            label.set_max_width_chars(int(case["max_width_chars"]))
        mode = case.get("mode", "plain")
        if mode == "plain":
            pass
        elif mode == "ellipsize":
            label.set_ellipsize(self.ELLIPSIZE[case.get("ellipsize", "end")])
        elif mode == "wrap":
            self.set_wrap(label, True, self.WRAP[case.get("wrap", "word")])
        elif mode == "lines":
            self.set_wrap(label, True, self.WRAP[case.get("wrap", "word")])
            label.set_ellipsize(self.ELLIPSIZE[case.get("ellipsize", "end")])
            label.set_lines(int(case.get("lines", 2)))
        else:
            raise ValueError("unknown mode %r" % mode)
        return label, mode

    def set_css_font(self, label, font):
        """The font as the label's CSS font (a style provider on the label alone), so that it is
        its Pango context's font: what width-chars counts characters of (get_char_pixels)."""
        Gtk, Pango = self.Gtk, self.Pango
        desc = Pango.FontDescription.from_string(font)
        size = desc.get_size() / Pango.SCALE
        unit = "px" if desc.get_size_is_absolute() else "pt"
        style = {Pango.Style.NORMAL: "normal", Pango.Style.OBLIQUE: "oblique", Pango.Style.ITALIC: "italic"}[desc.get_style()]
        css = 'label { font-family: "%s"; font-size: %s%s; font-weight: %d; font-style: %s; }' % (
            desc.get_family(), repr(size), unit, int(desc.get_weight()), style)
        provider = Gtk.CssProvider()
        if self.gtk4:
            provider.load_from_data(css, -1) if Gtk.get_minor_version() >= 12 else provider.load_from_data(css.encode())
        else:
            provider.load_from_data(css.encode())
        label.get_style_context().add_provider(provider, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)

    def set_wrap(self, label, on, mode):
        if self.gtk4:
            label.set_wrap(on)
            label.set_wrap_mode(mode)
        else:
            label.set_line_wrap(on)
            label.set_line_wrap_mode(mode)

    def measure(self, case):
        Gtk = self.Gtk
        label, mode = self.make_label(case)
        if self.gtk4:
            self.box.append(label)
        else:
            self.box.add(label)
            label.show()
        lang = case.get("language")
        if lang:
            label.get_pango_context().set_language(self.Pango.Language.from_string(lang))
        try:
            minw, natw = self.measure_pair(label, Gtk.Orientation.HORIZONTAL, -1)
            for_width = -1
            if mode != "plain":
                if case.get("width") is not None:
                    for_width = int(case["width"])
                elif case.get("width_span") is not None:
                    for_width = int(round(minw + float(case["width_span"]) * (natw - minw)))
                else:
                    for_width = max(1, int(round(float(case.get("width_fraction", 0.6)) * natw)))
            minh, nath = self.measure_pair(label, Gtk.Orientation.VERTICAL, for_width)
            alloc_w = max(for_width, minw) if for_width >= 0 else natw
            lines, ellipsized, faces = self.allocate(label, alloc_w, nath)
            res = {
                "toolkit": self.toolkit,
                "widget": {"minimum_width": minw, "natural_width": natw,
                           "minimum_height": minh, "natural_height": nath},
                "lines": lines,
                "ellipsized": ellipsized,
                "alloc_width": alloc_w,
                "font": label.get_pango_context().get_font_description().to_string(),
                "faces": faces,
            }
            if for_width >= 0:
                res["for_width"] = for_width
            return res
        finally:
            if self.gtk4:
                self.box.remove(label)
            else:
                self.box.remove(label)
                label.destroy()

    def allocate(self, label, width, height):
        Gdk = self.Gdk
        rect = Gdk.Rectangle()
        rect.x, rect.y, rect.width, rect.height = 0, 0, width, height
        if self.gtk4:
            label.size_allocate(rect, -1)
        else:
            label.size_allocate(rect)
        layout = label.get_layout()
        faces = []
        it = layout.get_iter()
        while True:
            run = it.get_run_readonly() if hasattr(it, "get_run_readonly") else it.get_run()
            if run is not None and run.item.analysis.font is not None:
                d = run.item.analysis.font.describe().to_string()
                if d not in faces:
                    faces.append(d)
            if not it.next_run():
                break
        return layout.get_line_count(), bool(layout.is_ellipsized()), faces

    # ------------------------------------------------------------- describe --
    def describe(self):
        Gtk, Pango, PangoCairo = self.Gtk, self.Pango, self.PangoCairo
        s = Gtk.Settings.get_default()
        props = {}
        for name in ("gtk-font-name", "gtk-xft-dpi", "gtk-xft-hinting", "gtk-xft-hintstyle", "gtk-xft-antialias",
                     "gtk-xft-rgba", "gtk-hint-font-metrics", "gtk-theme-name"):
            try:
                props[name] = s.get_property(name)
            except TypeError:
                pass
        label = Gtk.Label()
        label.set_text("Settings")
        if self.gtk4:
            self.box.append(label)
            version = "%d.%d.%d" % (Gtk.get_major_version(), Gtk.get_minor_version(), Gtk.get_micro_version())
        else:
            self.box.add(label)
            label.show()
            version = "%d.%d.%d" % (Gtk.get_major_version(), Gtk.get_minor_version(), Gtk.get_micro_version())
        pc = label.get_pango_context()
        minw, natw = self.measure_pair(label, Gtk.Orientation.HORIZONTAL, -1)
        _, _, faces = self.allocate(label, natw, self.measure_pair(label, Gtk.Orientation.VERTICAL, -1)[1])
        try:
            fo = PangoCairo.context_get_font_options(pc)
        except TypeError:  # no python3-gi-cairo
            fo = None
        out = {
            "toolkit": self.toolkit, "version": version, "pango": Pango.version_string(),
            "settings": props,
            "context_font": pc.get_font_description().to_string(),
            "context_language": pc.get_language().to_string(),
            "resolution": PangoCairo.context_get_resolution(pc),
            "round_glyph_positions": pc.get_round_glyph_positions(),
            # None: the context has no cairo font options of its own (cairo's defaults apply:
            # hint metrics on for FreeType fonts).
            "font_options": None if fo is None else {
                "hint_metrics": ["default", "off", "on"][int(fo.get_hint_metrics())],
                "hint_style": ["default", "none", "slight", "medium", "full"][int(fo.get_hint_style())],
                "antialias": ["default", "none", "gray", "subpixel", "fast", "good", "best"][int(fo.get_antialias())]},
            "default_faces": faces,
            "display": os.environ.get("DISPLAY"),
        }
        return out


def case_from_request(req):
    """A fitd request (gtk_compare.py request_for) back to a case: --as-engine."""
    case = {"text": req.get("text"), "language": req.get("language"), "font": req.get("font")}
    ell = req.get("ellipsize") or "none"
    if req.get("max_lines") is not None:
        case.update(mode="lines", lines=req["max_lines"], ellipsize=ell if ell != "none" else "end",
                    wrap=req.get("wrap") or "word")
    elif ell != "none":
        case.update(mode="ellipsize", ellipsize=ell)
    elif req.get("max_width") is not None:
        case.update(mode="wrap", wrap=req.get("wrap") or "word")
    else:
        case["mode"] = "plain"
    if req.get("max_width") is not None:
        case["width"] = int(round(req["max_width"]))
    return case


def as_engine(src, out):
    """Answer fitd-style requests with GTK's own numbers (the harness' self-test engine): the
    toolkit is the first request's "metrics" (default gtk4), one per process."""
    labels = None
    toolkit = None
    for raw in src:
        if not raw.strip():
            continue
        rid = None
        try:
            req = json.loads(raw)
            rid = req.get("id")
            want = req.get("metrics") or "gtk4"
            if labels is None:
                toolkit = want
                labels = Labels(toolkit)
            if want != toolkit:
                raise ValueError("this engine process measures %s only" % toolkit)
            r = labels.measure(case_from_request(req))
            res = {"widget": r["widget"], "lines": r["lines"], "ellipsized": r["ellipsized"],
                   "fonts": [f.rsplit(" ", 1)[0] for f in r["faces"]]}
        except Exception as e:
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        if rid is not None:
            res["id"] = rid
        out.write(json.dumps(res, ensure_ascii=False) + "\n")
    out.flush()
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--toolkit", choices=sorted(TOOLKITS))
    ap.add_argument("--as-engine", action="store_true",
                    help="read fitd requests (text, language, font, max_width, wrap, ellipsize, max_lines, "
                         "metrics) and answer with GTK's widget sizes: a fake engine for gtk_compare.py's self-test")
    ap.add_argument("--describe", action="store_true", help="print the toolkit's settings as one JSON line and exit")
    ap.add_argument("file", nargs="?", help="cases (JSON lines); default stdin")
    args = ap.parse_args()
    if not os.environ.get("DISPLAY"):
        sys.stderr.write("gtk_labels: DISPLAY is not set (run under Xvfb or xvfb-run)\n")
        return 2
    if args.as_engine:
        return as_engine(open(args.file, encoding="utf-8") if args.file else sys.stdin, sys.stdout)
    if not args.toolkit:
        ap.error("--toolkit is required")
    labels = Labels(args.toolkit)
    out = sys.stdout
    if args.describe:
        out.write(json.dumps(labels.describe(), ensure_ascii=False) + "\n")
        return 0
    src = open(args.file, encoding="utf-8") if args.file else sys.stdin
    n = 0
    for raw in src:
        if not raw.strip():
            continue
        rid = None
        try:
            case = json.loads(raw)
            rid = case.get("id") if isinstance(case, dict) else None
            if not isinstance(case, dict):
                raise ValueError("a case must be a JSON object")
            res = labels.measure(case)
        except Exception as e:  # never stop the stream
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        if rid is not None:
            res["id"] = rid
        out.write(json.dumps(res, ensure_ascii=False) + "\n")
        n += 1
        if n % 200 == 0:
            out.flush()
            labels.pump()  # let the X connection's events through now and then
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
