#!/usr/bin/env python3
"""A GTK 4 app laid out by fitd: the screen of settings-screen.json as real GTK widgets.

    python3 clients/examples/gtk_app.py [--document FILE] [--state-file FILE] [--width PX] [--height PX]

It asks fitd's Layout for the document at the window's width, in the font GTK uses on this
desktop (Gtk.Settings' gtk-font-name, sent as the layout's ui_font), and places a Gtk.Label
per text, a drawn icon per image and a drawn shape per background layer at the frames fitd
returns (a widget of its own allocates its children there; nothing is measured by GTK's
layout). A scroll node is a Gtk.ScrolledWindow at its frame, holding what fitd framed inside
it, past the scroll's length too, so that it scrolls (a horizontal one with Shift and the
wheel, or a touchpad). It lays out again when the window is resized and when fitd's
GenerationChanged arrives (text scale, fonts or their configuration changed). With --state-file the decisions
applied, each widget's frame and each label's width as GTK's Pango measures it are written
there as JSON after every layout, and after a scroll moves.

Needs PyGObject with GTK 4 (Debian: python3-gi, gir1.2-gtk-4.0) and the fitd package (pip
install ./clients/python) in one Python: a venv made with --system-site-packages
(clients/examples/README.md). It uses fitd's blocking Client, whose change callbacks arrive on
the client's own thread and are handed to GTK's main loop.
"""

from __future__ import annotations

import argparse
import math
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gsk", "4.0")
gi.require_version("Graphene", "1.0")
gi.require_version("Pango", "1.0")
from gi.repository import Gio, GLib, Graphene, Gsk, Gtk, Pango  # noqa: E402

import fitdoc  # noqa: E402
import fitd  # noqa: E402

APP_ID = "org.fitd.examples.Settings"
# fitd's px are logical pixels at 96 dpi (protocol/README.md, Measure's unit); a point is 1/72 in.
PX_PER_PT = 96 / 72
COLOURS = {"icon": (0.21, 0.52, 0.89), "shape": (0.57, 0.25, 0.67)}


def rounded_rect(cr, width, height, radius):
    radius = min(radius, width / 2, height / 2)
    cr.new_sub_path()
    cr.arc(width - radius, radius, radius, -math.pi / 2, 0)
    cr.arc(width - radius, height - radius, radius, 0, math.pi / 2)
    cr.arc(radius, height - radius, radius, math.pi / 2, math.pi)
    cr.arc(radius, radius, radius, math.pi, 3 * math.pi / 2)
    cr.close_path()


def painter(what):
    def draw(_area, cr, width, height):
        cr.set_source_rgb(*COLOURS[what])
        rounded_rect(cr, width, height, 4 if what == "shape" else height / 4)
        cr.fill()
    return draw


class Fonts:
    """The Pango font of each text, as fitd measured it: a text style's description from
    GetTextStyles at the user's size category, in GTK's family and scaled by GTK's font size
    over fitd's UI font size (text styles take the ui_font's family and scale from its size,
    protocol/README.md "Text styles as fonts"); a plain font, or none, at the user's text
    scale. Sizes are absolute (px): GTK must not apply its own DPI or text scaling again."""

    def __init__(self, fit: fitd.Client, gtk_font: str):
        self.gtk = Pango.FontDescription.from_string(gtk_font)
        info = fit.text_scale_info()
        self.ratio = self._points(self.gtk) / self._points(Pango.FontDescription.from_string(info.ui_font))
        self.text_scale = info.factor
        self.styles = {style.name.lower(): (style.font, style.point_size) for style in fit.text_styles()}

    @staticmethod
    def _points(desc: Pango.FontDescription) -> float:
        size = desc.get_size() / Pango.SCALE
        return size / PX_PER_PT if desc.get_size_is_absolute() else size

    def description(self, text_style, font) -> Pango.FontDescription:
        if text_style:
            if text_style.lower() not in self.styles:
                raise fitdoc.DocumentError(f"fitd has no text style {text_style!r}")
            desc_string, points = self.styles[text_style.lower()]
            desc = Pango.FontDescription.from_string(desc_string)
            desc.set_family(self.gtk.get_family())
            points *= self.ratio
        else:
            desc = Pango.FontDescription.from_string(font) if font else self.gtk.copy()
            points = self._points(desc) * self.text_scale
        desc.set_absolute_size(points * PX_PER_PT * Pango.SCALE)
        return desc


class Canvas(Gtk.Widget):
    """Children at fitd's frames, less this canvas's origin: the view's own (0, 0), or a
    scroll's frame corner for the content inside it. It asks for its content's size."""

    __gtype_name__ = "FitExampleCanvas"

    def __init__(self, origin=(0.0, 0.0)):
        super().__init__()
        self.origin = origin
        self.content = (1.0, 1.0)
        self.placed: list[tuple[Gtk.Widget, fitdoc.Drawable]] = []

    def do_measure(self, orientation, for_size):
        length = math.ceil(self.content[0 if orientation == Gtk.Orientation.HORIZONTAL else 1])
        return (length, length, -1, -1)

    def do_size_allocate(self, width, height, baseline):
        self.place()

    def place(self):
        for child, d in self.placed:
            w, h = math.ceil(d.width), math.ceil(d.height)
            # GTK asks for a measure before an allocation; the frame is what GTK gets.
            min_w = child.measure(Gtk.Orientation.HORIZONTAL, -1)[0]
            min_h = child.measure(Gtk.Orientation.VERTICAL, max(w, min_w))[0]
            point = Graphene.Point()
            point.init(d.x - self.origin[0], d.y - self.origin[1])
            child.allocate(max(w, min_w), max(h, min_h), -1, Gsk.Transform.new().translate(point))


class FitView(Canvas):
    """fitd's layout for this widget's width: a widget per text, image and shape at its frame,
    and a real Gtk.ScrolledWindow per scroll node, whose content is a canvas of its own."""

    __gtype_name__ = "FitExampleView"

    def __init__(self, document: fitdoc.Document, fit: fitd.Client, gtk_font: str, state_file):
        super().__init__()
        self.document, self.fit, self.gtk_font, self.state_file = document, fit, gtk_font, state_file
        self.widgets: dict[str, Gtk.Widget] = {}
        # Per scroll node's frame id: the canvas inside its Gtk.ScrolledWindow.
        self.canvases: dict[str, Canvas] = {}
        self.drawables: list[fitdoc.Drawable] = []
        self.scrolls: dict[str, fitdoc.Drawable] = {}
        self.layout = None
        self.laid_out_width = None
        self.pending = None
        self.layouts = 0
        self.error = None
        self.state_due = None
        self.last_state = None
        self.scroll_state_due = False

    # Sizing: the layout's size, for the width it was laid out at.
    def do_measure(self, orientation, for_size):
        if self.layout is None:
            return (1, 1, -1, -1)
        width, height = self.layout.size
        if orientation == Gtk.Orientation.HORIZONTAL:
            return (1, math.ceil(width), -1, -1)
        return (math.ceil(height), math.ceil(height), -1, -1)

    def do_size_allocate(self, width, height, baseline):
        if width != self.laid_out_width:
            self.relayout("resize", width)
        self.place()
        if self.state_due is not None:
            # After the widgets are where the new layout put them, so the state shows both.
            self._write_state(*self.state_due)
            self.last_state, self.state_due = self.state_due, None

    def relayout(self, reason, width=None):
        """Lays out when idle: a drag resize allocates many times, one layout per burst."""
        if width is not None:
            self.laid_out_width = width
        if self.pending is None:
            GLib.idle_add(self._relayout_now)
        self.pending = reason

    def _relayout_now(self):
        reason, self.pending = self.pending, None
        width = self.laid_out_width or self.get_width()
        try:
            fonts = Fonts(self.fit, self.gtk_font)
            layout = self.fit.layout(self.document.source, width=float(width), ui_font=self.gtk_font,
                                     metrics=self.metrics())
            drawables = self.document.drawables(layout)
            descriptions = {d.id: fonts.description(d.text_style, d.font) for d in drawables if d.what == "text"}
        except (fitdoc.FitError, fitdoc.DocumentError) as error:
            # Nothing to draw without a layout (no daemon, a document fitd refuses): say why, stop.
            self.error = str(error)
            print(f"gtk_app: {error}", file=sys.stderr)
            fitdoc.write_state(self.state_file, {"app": "gtk", "error": self.error})
            app = self.get_root().get_application() if self.get_root() else None
            if app is not None:
                app.failed = True
                app.quit()
            return False
        self.layout, self.drawables = layout, drawables
        self.scrolls = {d.id: d for d in drawables if d.what == "scroll"}
        shown = {d.id for d in drawables}
        for canvas in [self, *self.canvases.values()]:
            canvas.placed = []
        for d in drawables:
            self._update_child(d, descriptions.get(d.id))
        for widget_id, child in self.widgets.items():
            child.set_child_visible(widget_id in shown)
        self.layouts += 1
        self.state_due = (reason, width, descriptions)
        for canvas in self.canvases.values():
            canvas.queue_resize()
        self.queue_resize()
        return False

    def _canvas(self, d: fitdoc.Drawable) -> Canvas:
        """Where d is drawn: the content of the scroll it is in, else this view."""
        return self.canvases[d.scroll] if d.scroll is not None else self

    def _new_scroll(self, d: fitdoc.Drawable) -> Gtk.ScrolledWindow:
        """A scroll node as GTK scrolls: a Gtk.ScrolledWindow along its axis, over a canvas
        holding what fitd framed inside it (past the scroll's length too)."""
        horizontal = d.axis == "horizontal"
        canvas = Canvas(origin=(d.x, d.y))
        scroller = Gtk.ScrolledWindow(
            hscrollbar_policy=Gtk.PolicyType.AUTOMATIC if horizontal else Gtk.PolicyType.NEVER,
            vscrollbar_policy=Gtk.PolicyType.NEVER if horizontal else Gtk.PolicyType.AUTOMATIC,
            child=canvas)
        for adjustment in (scroller.get_hadjustment(), scroller.get_vadjustment()):
            adjustment.connect("value-changed", self._scrolled)
        self.canvases[d.id] = canvas
        return scroller

    def _scrolled(self, _adjustment):
        """A scroll moved: the state says where to once GTK has moved the content and drawn
        it, after the next frame's paint (GTK allocates the scrolled content in that frame)."""
        clock = self.get_frame_clock()
        if self.scroll_state_due or self.last_state is None or clock is None:
            return
        def after_paint(_clock):
            clock.disconnect(handler)
            self.scroll_state_due = False
            self._write_state("scroll", *self.last_state[1:])
        self.scroll_state_due = True
        handler = clock.connect("after-paint", after_paint)
        self.queue_draw()

    def _update_child(self, d: fitdoc.Drawable, desc):
        child = self.widgets.get(d.id)
        if child is None:
            if d.what == "text":
                child = Gtk.Label(xalign=0, yalign=0, wrap=True,
                                  # fitd's texts wrap as SwiftUI's: inside a word only when it alone is too wide.
                                  wrap_mode=Pango.WrapMode.WORD_CHAR)
                child.set_parent(self._canvas(d))
            elif d.what == "scroll":
                child = self._new_scroll(d)
                child.set_parent(self._canvas(d))
            else:
                child = Gtk.DrawingArea()
                child.set_draw_func(painter(d.what))
                # Shapes go behind everything (GTK draws children in order).
                child.insert_after(self._canvas(d), None)
            self.widgets[d.id] = child
        self._canvas(d).placed.append((child, d))
        if d.what == "scroll":
            # A new layout may move the scroll (a row above turned vertical) and its content.
            canvas = self.canvases[d.id]
            canvas.origin, canvas.content = (d.x, d.y), (d.content_width, d.content_height)
        if d.what == "text":
            child.set_text(d.text)
            attrs = Pango.AttrList()
            attrs.insert(Pango.attr_font_desc_new(desc))
            if d.on_shape:
                attrs.insert(Pango.attr_foreground_new(0xffff, 0xffff, 0xffff))
            child.set_attributes(attrs)

    def metrics(self) -> str:
        """The fitd toolkit profile of the GTK this process draws with: its own line
        ("gtk-4.8"), which fitd maps to what that line sets on its labels' Pango context
        (Tests/oracle/PANGO_RULES.md §15) — the app's GTK may not be the one installed where
        fitd runs (a Flatpak runtime's)."""
        return "gtk-%d.%d" % (Gtk.get_major_version(), Gtk.get_minor_version())

    def _pango_width(self, text, desc) -> float:
        """The text's one-line width as GTK's own Pango context measures it."""
        layout = Pango.Layout.new(self.get_pango_context())
        layout.set_font_description(desc)
        layout.set_text(text, -1)
        return layout.get_extents()[1].width / Pango.SCALE

    def _bounds(self, d: fitdoc.Drawable):
        """Where GTK put d's widget, in the layout's coordinates (fitd's): in this widget's,
        plus how far each scroll it is in is scrolled, so a scrolled widget is where fitd
        framed it. Only GTK's own figures go in, so a canvas placed wrongly shows."""
        ok, rect = self.widgets[d.id].compute_bounds(self)
        if not ok:
            return None
        x, y = rect.get_x(), rect.get_y()
        scroll = d.scroll
        while scroll is not None:
            scroller = self.widgets[scroll]
            x, y = x + scroller.get_hadjustment().get_value(), y + scroller.get_vadjustment().get_value()
            scroll = self.scrolls[scroll].scroll
        return [x, y, rect.get_width(), rect.get_height()]

    def _in_view(self, d: fitdoc.Drawable) -> bool:
        """Whether d's widget lies wholly inside the visible part of every scroll it is in (as
        GTK has scrolled them), so that a user sees all of it without scrolling."""
        scroll = d.scroll
        while scroll is not None:
            scroller = self.widgets[scroll]
            ok, rect = self.widgets[d.id].compute_bounds(scroller)
            if not ok or rect.get_x() < -0.5 or rect.get_y() < -0.5 \
                    or rect.get_x() + rect.get_width() > scroller.get_width() + 0.5 \
                    or rect.get_y() + rect.get_height() > scroller.get_height() + 0.5:
                return False
            scroll = self.scrolls[scroll].scroll
        return True

    def _scroll_state(self, d: fitdoc.Drawable) -> dict:
        """A scroll as GTK has it: where it is on the X window (for a pointer), how far it
        is scrolled and how far it can be."""
        scroller = self.widgets[d.id]
        root = self.get_root()
        ok, rect = scroller.compute_bounds(root)
        dx, dy = root.get_surface_transform()
        h, v = scroller.get_hadjustment(), scroller.get_vadjustment()
        return {"axis": d.axis, "content": [d.content_width, d.content_height],
                "window": [rect.get_x() + dx, rect.get_y() + dy, rect.get_width(), rect.get_height()] if ok else None,
                "offset": [h.get_value(), v.get_value()],
                "max": [h.get_upper() - h.get_page_size(), v.get_upper() - v.get_page_size()]}

    def _write_state(self, reason, width, descriptions):
        if not self.state_file:
            return
        root = self.get_root()
        fitdoc.write_state(self.state_file, {
            "app": "gtk", "unit": "px", "reason": reason, "layouts": self.layouts,
            "proposal": {"width": width, "height": None}, "ui_font": self.gtk_font, "metrics": self.metrics(),
            "window": [root.get_width(), root.get_height()] if root else None,
            "size": list(self.layout.size), "generation": self.layout.generation,
            "decisions": fitdoc.decisions(self.layout),
            "drawn": {d.id: [d.x, d.y, d.width, d.height] for d in self.drawables},
            "allocated": {d.id: self._bounds(d) for d in self.drawables},
            "in_view": {d.id: self._in_view(d) for d in self.drawables},
            "scrolls": {d.id: self._scroll_state(d) for d in self.scrolls.values()},
            "labels": {d.id: {"text": d.text, "font": descriptions[d.id].to_string(), "lines": d.line_count,
                              "frame_width": d.width,
                              "pango_width": self._pango_width(d.text, descriptions[d.id])}
                       for d in self.drawables if d.what == "text"},
        })


class App(Gtk.Application):
    def __init__(self, args, document):
        super().__init__(application_id=APP_ID, flags=Gio.ApplicationFlags.NON_UNIQUE)
        self.args, self.document = args, document
        self.failed = False

    def do_activate(self):
        gtk_font = Gtk.Settings.get_default().props.gtk_font_name
        try:
            fit = fitd.Client()
        except fitd.FitError as error:  # no session bus, or fitd neither running nor activatable
            print(f"gtk_app: {error}", file=sys.stderr)
            self.failed = True
            self.quit()
            return
        view = FitView(self.document, fit, gtk_font, self.args.state_file)
        # The callback runs on the client's thread: GTK is touched only from its main loop.
        fit.on_generation_changed(
            lambda change: GLib.idle_add(view.relayout, "generation " + ",".join(change.reasons)))
        scroller = Gtk.ScrolledWindow(hscrollbar_policy=Gtk.PolicyType.NEVER, child=view)
        scroller.set_margin_start(12); scroller.set_margin_end(12)
        scroller.set_margin_top(12); scroller.set_margin_bottom(12)
        window = Gtk.ApplicationWindow(application=self, title="fitd example: settings", child=scroller)
        window.set_default_size(self.args.width, self.args.height)
        window.present()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--document", default=fitdoc.DEFAULT_DOCUMENT, help="the layout document (default: settings-screen.json)")
    parser.add_argument("--state-file", help="write the decisions, frames and label widths here (JSON) after every layout")
    parser.add_argument("--width", type=int, default=640, help="the window's initial width (default 640)")
    parser.add_argument("--height", type=int, default=480, help="the window's initial height (default 480)")
    args = parser.parse_args(argv)
    try:
        document = fitdoc.load_document(args.document)
    except fitdoc.DocumentError as error:
        print(f"gtk_app: {error}", file=sys.stderr)
        return 1
    app = App(args, document)
    status = app.run([sys.argv[0]])
    return 1 if app.failed else status


if __name__ == "__main__":
    sys.exit(main())
