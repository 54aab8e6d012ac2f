"""libfitd-gtk's containers in real GTK 4 windows, checked against what GTK itself draws.

Run by gtk_widget.sh (Xvfb, a private bus with fitd) with GI_TYPELIB_PATH naming the built
FitdGtk typelib. A settings list of FitViewThatFits rows in one FitUniformGroup, a row of its
own and a FitThresholdBox, in windows of widths around fitd's flip:

- every container is decided by fitd (decision-source) once it answered;
- fitd's flip is where GTK's own natural width of the preferred candidate is (± 1 px);
- one pixel either side of the flip the row shows the candidate fitd's flip says, and no label
  in the shown candidate is ellipsized by GTK (each label ellipsizes if it must, so GTK would
  show it);
- with --scale-change, `fitctl scale set 2` while the window is open turns the threshold box
  vertical and the rows ask fitd again (GenerationChanged);
- with --no-daemon (no session bus) GTK's own measuring decides, with the same switch.

Prints one line per check; exits 1 on the first failure.
"""
import argparse
import math
import os
import subprocess
import sys
import time

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("FitdGtk", "1.0")
gi.require_version("Pango", "1.0")
from gi.repository import FitdGtk, GLib, Gtk, Pango  # noqa: E402

ROWS = [
    ("Automatic screen lock", "After 5 minutes"),
    ("Show notifications on the lock screen", "Only from contacts"),
    ("Location services", "While using the app"),
]
SOLO = ("Automatic suspend", "When on battery power")
# The row of its own has a title with attributes (bold, larger), as an app sets them with
# gtk_label_set_attributes: described to fitd as markup, measured as GTK draws it.
SOLO_ATTRIBUTES = "0 9 weight bold, 0 9 size 13312"
MARGIN = 12


def fail(message):
    print(f"gtk_widget_check: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def ok(message):
    print(f"gtk_widget_check: ok: {message}")


def label(text, dim=False):
    widget = Gtk.Label(label=text, xalign=0)
    widget.set_ellipsize(3)  # Pango.EllipsizeMode.END: GTK shows it if the label is short of room
    if dim:
        widget.add_css_class("dim-label")
    return widget


def setting_row(title, value, attributes=None):
    view = FitdGtk.ViewThatFits()
    wide = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=12)
    first = label(title)
    if attributes:
        first.set_attributes(Pango.AttrList.from_string(attributes))
    first.set_hexpand(True)
    wide.append(first)
    wide.append(label(value, dim=True))
    wide.append(Gtk.Switch())
    narrow = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    narrow.append(label(title))
    line = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=12)
    second = label(value, dim=True)
    second.set_hexpand(True)
    line.append(second)
    line.append(Gtk.Switch())
    narrow.append(line)
    view.append(wide)
    view.append(narrow)
    return view


class Screen:
    """One window at one width: the list, the row of its own and the threshold box."""

    def __init__(self, width):
        self.window = Gtk.Window(title="fitd widget check")
        self.window.set_default_size(width + 2 * MARGIN, -1)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12)
        for side in ("start", "end", "top", "bottom"):
            getattr(box, f"set_margin_{side}")(MARGIN)
        self.group = FitdGtk.UniformGroup()
        self.rows = []
        for title, value in ROWS:
            row = setting_row(title, value)
            self.group.add(row)
            self.rows.append(row)
            box.append(row)
        self.solo = setting_row(*SOLO, attributes=SOLO_ATTRIBUTES)
        box.append(self.solo)
        self.threshold = FitdGtk.ThresholdBox(category="accessibilityMedium", spacing=8)
        self.threshold.append(label("Joe's Coffee Shop"))
        self.threshold.append(label("$2.34", dim=True))
        box.append(self.threshold)
        self.window.set_child(box)
        self.window.present()

    def views(self):
        return self.rows + [self.solo]

    def close(self):
        self.window.destroy()


def run_until(predicate, timeout=10.0):
    context = GLib.MainContext.default()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        while context.pending():
            context.iteration(False)
        if predicate():
            return True
        time.sleep(0.01)
    return False


def decided_by(screen, source):
    return all(v.get_decision_source() == source and v.get_candidate_index() >= 0 for v in screen.views())


def flips(getter, count):
    result = []
    for i in range(count):
        found, width, candidate = getter(i)
        if found:
            result.append((width, candidate))
    return result


def flip_to_first(intervals, what):
    """The width from which candidate 0 holds (the last interval's, which runs to the range's end)."""
    widths = [w for w, c in intervals if c == 0]
    if not widths or intervals[-1][1] != 0:
        fail(f"{what}: fitd's intervals {intervals} do not end in candidate 0")
    return widths[-1]


def labels_in(widget):
    found = []
    child = widget.get_first_child()
    while child is not None:
        if isinstance(child, Gtk.Label):
            found.append(child)
        found.extend(labels_in(child))
        child = child.get_next_sibling()
    return found


def gtk_natural(widget):
    return widget.measure(Gtk.Orientation.HORIZONTAL, -1)[1]


def candidates(view):
    result = []
    child = view.get_first_child()
    while child is not None:
        result.append(child)
        child = child.get_next_sibling()
    return result


def check_width(width, expect, source):
    """A window whose rows are `width` px wide: each view shows expect(view) and no label of
    the shown candidate is ellipsized."""
    screen = Screen(width)
    try:
        if not run_until(lambda: decided_by(screen, source) and all(v.get_width() == width for v in screen.views())):
            states = [(v.get_width(), v.get_candidate_index(), v.get_decision_source()) for v in screen.views()]
            fail(f"at {width} px the rows were not allocated and decided by {source.value_nick}: {states}")
        for view in screen.views():
            want = expect(view, screen)
            shown = view.get_candidate_index()
            if shown != want:
                fail(f"at {width} px a row shows candidate {shown}, its flip says {want}")
            cut = [l.get_label() for l in labels_in(view.get_visible_candidate()) if l.get_layout().is_ellipsized()]
            if cut:
                fail(f"at {width} px GTK ellipsized {cut} in the candidate {source.value_nick} kept")
        return screen
    except SystemExit:
        screen.close()
        raise


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale-change", action="store_true")
    parser.add_argument("--no-daemon", action="store_true")
    parser.add_argument("--fitctl", default="fitctl")
    parser.add_argument("--expect-axis", default="horizontal")
    args = parser.parse_args()
    source = FitdGtk.DecisionSource.GTK if args.no_daemon else FitdGtk.DecisionSource.FITD

    first = Screen(640)
    # The group and the row of its own each answered: a row re-asks when fitd appears on the
    # bus (a new generation for it), so a decision shown may be the one before that answer.
    if not run_until(lambda: decided_by(first, source)
                     and (args.no_daemon or (first.group.get_answered() and first.solo.get_n_flips() > 0))):
        fail(f"the rows were not decided by {source.value_nick} within 10 s")
    # GTK's truth: the preferred candidate's natural width, as GTK measures it in the window.
    list_natural = max(gtk_natural(candidates(v)[0]) for v in first.rows)
    solo_natural = gtk_natural(candidates(first.solo)[0])
    if args.no_daemon:
        list_flip, solo_flip = list_natural, solo_natural
        expect = lambda view, s: 0 if s and gtk_natural(candidates(view)[0]) <= view.get_width() else 1
        if first.threshold.get_decision_source() != FitdGtk.DecisionSource.GTK:
            fail("with no daemon the threshold box says fitd decided it")
        ok(f"no daemon: GTK's measuring decides every row and the threshold box stays a row")
    else:
        # The attributed title reached fitd as text with its attributes, not as a measured box.
        texts = [node[3].get("text", "") for node in first.solo.describe().unpack() if node[1] == "text"]
        if not any(t.startswith('<span weight="700" font="') and 'px">Automatic</span>' in t for t in texts):
            fail(f"the attributed title was not described as markup: {texts}")
        list_flip = flip_to_first(flips(first.group.get_flip, first.group.get_n_flips()), "the list")
        solo_flip = flip_to_first(flips(first.solo.get_flip, first.solo.get_n_flips()), "the row of its own")
        for what, flip, natural in (("list", list_flip, list_natural), ("row of its own", solo_flip, solo_natural)):
            if abs(flip - natural) > 1:
                fail(f"the {what}'s flip is {flip} px, GTK's natural width of its wide layout {natural} px")
            ok(f"the {what} flips at {flip:g} px; GTK's natural width of its wide layout is {natural} px")
        if not run_until(lambda: first.threshold.get_decision_source() == FitdGtk.DecisionSource.FITD):
            fail("fitd did not decide the threshold box within 10 s")
        axis = "vertical" if first.threshold.get_orientation() == Gtk.Orientation.VERTICAL else "horizontal"
        if axis != args.expect_axis:
            fail(f"the threshold box is {axis}, expected {args.expect_axis}")
        ok(f"the threshold box is {axis}, decided by fitd")

        def expect(view, screen):
            flip = list_flip if view in screen.rows else solo_flip
            return 0 if view.get_width() >= flip else 1

    if args.scale_change:
        subprocess.run([args.fitctl, "scale", "set", "2"], check=True, stdout=subprocess.DEVNULL)
        if not run_until(lambda: first.threshold.get_orientation() == Gtk.Orientation.VERTICAL, timeout=5):
            fail("after fitctl scale set 2 the threshold box did not turn vertical within 5 s")
        if not run_until(lambda: decided_by(first, source) and first.group.get_answered(), timeout=5):
            fail("after the generation changed the rows were not decided by fitd again within 5 s")
        ok("fitctl scale set 2: the threshold box turned vertical and the rows asked fitd again")
        subprocess.run([args.fitctl, "scale", "reset"], check=True, stdout=subprocess.DEVNULL)
    first.close()

    checked = 0
    for flip in sorted({math.ceil(list_flip), math.ceil(solo_flip)}):
        for width in (flip - 1, flip, flip + 1):
            check_width(width, expect, source).close()
            checked += 1
    ok(f"{checked} window widths around the flips: every row shows the candidate the flip says, no shown label ellipsized")


if __name__ == "__main__":
    main()
