"""Tests of fitd_client.py against a running fitd (Tests/EndToEnd/clients.sh runs them on a
private bus on which the built fitd is activatable):

    scripts/private-bus -- /usr/bin/python3 -m unittest -v clients/python/test_fitd_client.py
"""

import json
import math
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dbus  # noqa: E402
from fitd_client import FitClient, FitError, Metrics, flatten_document  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "protocol", "examples")


class FitClientTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fit = FitClient()

    def test_measure(self):
        m = self.fit.measure("Hello, world", "DejaVu Sans 12")
        self.assertIsInstance(m, Metrics)
        # Pango's figure for this string and font (Tests/oracle).
        self.assertEqual(m.width, 94.78125)
        self.assertEqual((m.line_count, m.fonts, m.lines), (1, ["DejaVu Sans"], []))
        self.assertGreaterEqual(m.generation, 1)

    def test_measure_with_options(self):
        m = self.fit.measure("The quick brown fox jumps over the lazy dog", "DejaVu Sans 10",
                             max_width=100, max_lines=2, ellipsize="end", lines=True)
        self.assertEqual((m.line_count, m.ellipsized, m.truncated), (2, True, True))
        self.assertEqual(m.lines[0].text, "The quick ")
        self.assertTrue(m.lines[1].text.endswith("…") and m.lines[1].ellipsized)
        self.assertLessEqual(max(line.width for line in m.lines), 100)
        cells = self.fit.measure("日本語", unit="cells")
        self.assertEqual(cells.width, 6)
        # Terminal options (protocol/README.md): escape sequences, ambiguous width, profile.
        self.assertEqual(self.fit.measure("\x1b[1mbold\x1b[0m", unit="cells", escapes="ansi").width, 4)
        self.assertEqual(self.fit.measure("±…", unit="cells", ambiguous="wide").width, 4)
        self.assertEqual(self.fit.measure("👩‍💻", unit="cells", terminal="wcwidth").width, 4)
        spaced = self.fit.measure("Hello", "DejaVu Sans 12", letter_spacing=2.0, features=["-kern"])
        self.assertGreater(spaced.width, self.fit.measure("Hello", "DejaVu Sans 12").width)
        # GTK 3's metrics: whole-pixel advances and heights (Pango 1.50: 75 x 17).
        gtk3 = self.fit.measure("Hello World", "DejaVu Sans 10", metrics="gtk3")
        self.assertEqual((gtk3.width, gtk3.height), (75.0, 17.0))
        marked = self.fit.measure("<b>Save</b> changes", "DejaVu Sans 10", markup=True)
        self.assertAlmostEqual(marked.width, 96.58, places=2)  # Pango's width for the bold label

    def test_errors(self):
        with self.assertRaises(FitError) as caught:
            self.fit.measure("x", "DejaVu Sans 12", max_widht=10.0)
        self.assertEqual(caught.exception.name, "org.fitd.Fit1.Error.UnknownOption")
        self.assertIn("max_widht", caught.exception.message)
        for bad in (math.nan, math.inf, -5.0):
            with self.assertRaises(FitError) as caught:
                self.fit.measure("x", "DejaVu Sans 12", max_width=bad)
            self.assertEqual(caught.exception.name, "org.fitd.Fit1.Error.InvalidArgument")
        with self.assertRaises(FitError) as caught:
            self.fit.measure("x", "DejaVu Sans 0")
        self.assertEqual(caught.exception.name, "org.fitd.Fit1.Error.InvalidFont")
        with self.assertRaises(FitError) as caught:
            self.fit.measure("x", "DejaVu Sans 12", language="en US")
        self.assertEqual(caught.exception.name, "org.fitd.Fit1.Error.InvalidArgument")
        self.assertIn("language", caught.exception.message)

    def test_language(self):
        # Pinned fonts: Latin in bn-IN is "en", so DejaVu Sans (PANGO_RULES.md §10).
        m = self.fit.measure("Settings 12:45", "Sans 10", language="bn-IN")
        self.assertEqual((round(m.width, 2), m.fonts), (97.34, ["DejaVu Sans"]))

    def test_measure_batch(self):
        results = self.fit.measure_batch([
            "Hello, world",
            ("Hello, world", "DejaVu Sans 12"),
            {"text": "Hello, world", "font": "DejaVu Sans 12", "max_width": 50, "lines": True},
            ("bad", "DejaVu Sans 12", {"max_lines": 0}),
        ])
        self.assertEqual(len(results), 4)
        self.assertIsInstance(results[0], Metrics)
        self.assertEqual(results[1].width, 94.78125)
        self.assertEqual(results[2].line_count, 2)
        self.assertEqual([line.text for line in results[2].lines], ["Hello, ", "world"])
        self.assertIsInstance(results[3], FitError)
        self.assertEqual(results[3].name, "org.fitd.Fit1.Error.InvalidArgument")
        self.assertEqual(self.fit.measure_batch([]), [])

    def test_resolve_font(self):
        font = self.fit.resolve_font("DejaVu Sans Bold 12")
        self.assertEqual((font.family, font.style, font.weight, font.pixel_size, font.matched),
                         ("DejaVu Sans", "Bold", 700, 16, True))
        self.assertTrue(font.file.endswith("DejaVuSans-Bold.ttf"))
        self.assertTrue(font.fallbacks)
        self.assertFalse(self.fit.resolve_font("No Such Family 12").matched)

    def test_stats_and_properties(self):
        before = self.fit.stats()
        self.fit.measure("stats", "DejaVu Sans 10")
        after = self.fit.stats()
        self.assertEqual(after["requests_served"], before["requests_served"] + 1)
        self.assertIn("results", after["caches"])
        self.assertGreater(after["uptime_seconds"], 0)
        self.assertRegex(self.fit.version, r"^\d+\.\d+\.\d+")
        self.assertIsInstance(self.fit.generation, int)

    def test_on_generation_changed(self):
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib

        # Signals need a main loop on the connection: a bus of its own, with GLib's.
        fit = FitClient(bus=dbus.SessionBus(mainloop=DBusGMainLoop(), private=True))
        seen = []
        loop = GLib.MainLoop()

        def changed(generation, reasons):
            seen.append((generation, reasons))
            loop.quit()

        match = fit.on_generation_changed(changed)
        before = fit.generation
        fit.set_text_scale(1.25)
        GLib.timeout_add_seconds(5, loop.quit)
        loop.run()
        match.remove()
        try:
            self.assertTrue(seen, "no GenerationChanged within 5 s of setting TextScale")
            generation, reasons = seen[0]
            self.assertGreater(generation, before)
            self.assertIn("text-scale", reasons)
            self.assertEqual((fit.generation, fit.text_scale), (generation, 1.25))
            # Results now carry the new generation, and fonts are 1.25 times larger.
            m = fit.measure("Hello, world", "DejaVu Sans 12")
            self.assertEqual(m.generation, generation)
            self.assertGreater(m.width, 94.78125)
        finally:
            fit.reset_text_scale()
        self.assertEqual(fit.measure("Hello, world", "DejaVu Sans 12").width, 94.78125)


class FlattenTests(unittest.TestCase):
    """The nested document form read into the wire's flat nodes, as LayoutDocument.swift does."""

    def test_nested_ids_parents_and_data_objects(self):
        nodes = flatten_document({"root": {"id": "card", "kind": "vstack", "children": [
            {"kind": "text", "text": "Title"},
            {"kind": "forEach", "data": [{"name": "a", "n": "1"}, {"name": "b"}],
             "children": [{"id": "t", "kind": "text", "text": "{name}{n}"}]}]}})
        self.assertEqual([(i, k, p) for i, k, p, _ in nodes],
                         [("card", "vstack", -1), ("#1", "text", 0), ("#2", "forEach", 0), ("t", "text", 2)])
        self.assertEqual(nodes[2][3], {"fields": ["n", "name"], "data": ["1", "a", "", "b"]})

    def test_generated_ids_stay_short_at_depth_and_the_prefix_is_reserved(self):
        deep = {"kind": "spacer"}
        for _ in range(127):
            deep = {"kind": "vstack", "children": [deep]}
        nodes = flatten_document({"root": deep})
        self.assertEqual(nodes[-1][0], "#127")
        with self.assertRaisesRegex(ValueError, "reserved"):
            flatten_document({"root": {"kind": "vstack", "children": [{"id": "#1", "kind": "spacer"}]}})

    def test_data_objects_naming_too_many_fields_are_refused(self):
        rows = [{f"k{n}": "v"} for n in range(65)]
        with self.assertRaisesRegex(ValueError, "65 distinct fields"):
            flatten_document({"root": {"kind": "forEach", "data": rows, "children": [{"kind": "text", "text": "x"}]}})

    def test_flat_parents_become_indices(self):
        nodes = flatten_document({"nodes": [{"id": "r", "kind": "hstack"}, {"id": "a", "parent": "r", "kind": "text", "text": "x"},
                                            {"id": "b", "parent": 0, "kind": "spacer"}]})
        self.assertEqual([p for _, _, p, _ in nodes], [-1, 0, 0])
        self.assertEqual(nodes[1][3], {"text": "x"})

    def test_bad_documents(self):
        with self.assertRaises(ValueError):
            flatten_document({"root": {"kind": "vstack"}, "nodes": []})
        with self.assertRaises(ValueError):
            flatten_document({"root": {"kind": "vstack", "children": [{"kind": "text", "parent": "x"}]}})
        deep = {"kind": "spacer"}
        for _ in range(200):
            deep = {"kind": "vstack", "children": [deep]}
        with self.assertRaises(ValueError):
            flatten_document({"root": deep})


class LayoutTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fit = FitClient()

    def test_nested_example_with_rows(self):
        with open(os.path.join(EXAMPLES, "template-cells.json")) as file:
            document = json.load(file)
        result = self.fit.layout(document)
        self.assertEqual(result["order"][:2], ["week", "cell#0"])
        cells = [result["frames"][f"cell#{row}"] for row in range(3)]
        # Every cell is the hidden "190" plus padding, whatever its value.
        self.assertTrue(all(c["width"] == cells[0]["width"] > 8 for c in cells))
        self.assertEqual(cells[1]["x"], cells[0]["width"] + 8)
        self.assertTrue(result["frames"]["widest#0"]["hidden"] and not result["frames"]["rate#0"]["hidden"])
        # Baselines come before the extras: a text has both, within its frame.
        rate = result["frames"]["rate#0"]
        self.assertTrue(0 < rate["first_baseline"] <= rate["last_baseline"] <= rate["height"])
        self.assertFalse(result["truncated"])

    def test_decisions_and_bad_documents(self):
        with open(os.path.join(EXAMPLES, "first-fit-card.json")) as file:
            card = json.load(file)
        self.assertEqual(self.fit.layout(card, width=1000)["decisions"]["card"]["candidate_id"], "row")
        self.assertEqual(self.fit.layout(card, width=10)["decisions"]["card"]["candidate_id"], "column")
        with self.assertRaises(FitError) as caught:
            self.fit.layout({"root": {"kind": "text", "text": "x", "colour": "red"}})
        self.assertEqual(caught.exception.name, "org.fitd.Fit1.Error.InvalidDocument")

    def test_layout_text_options_reach_the_measurer(self):
        label = {"root": {"kind": "text", "text": "<b>Save</b> changes", "font": "DejaVu Sans 10"}}
        plain = self.fit.layout(label)["size"][0]
        # markup is a boolean on the wire; the tags are not measured, the bold stretch is wider.
        marked = self.fit.layout(label, markup=True)["size"][0]
        self.assertAlmostEqual(marked, 96.58, places=2)  # as Measure's markup (Pango's width)
        self.assertNotEqual(plain, marked)
        gtk3 = self.fit.layout({"root": {"kind": "text", "text": "Hello World", "font": "DejaVu Sans 10"}},
                               metrics="gtk3", language="en-US")
        self.assertEqual(gtk3["size"], (75.0, 17.0))
        with self.assertRaises(FitError) as caught:
            self.fit.layout(label, language="en US")
        self.assertEqual(caught.exception.name, "org.fitd.Fit1.Error.InvalidArgument")
        self.assertIn("language", caught.exception.message)

    def test_breakpoints_give_each_decisions_widths_and_the_content_widths(self):
        with open(os.path.join(EXAMPLES, "first-fit-card.json")) as file:
            card = json.load(file)
        found = self.fit.layout(card, width=320, breakpoints=(100, 600))["breakpoints"]
        self.assertEqual(found["range"], (100.0, 600.0))
        # The row (icon, label) is 206.36 px wide: the column up to 206, the row from 207.
        self.assertEqual(found["decisions"]["card"], [
            {"from": 100.0, "to": 206.0, "candidate": 1, "axis": None},
            {"from": 207.0, "to": 600.0, "candidate": 0, "axis": None},
        ])
        self.assertAlmostEqual(found["max_content_width"], 206.36, places=2)
        self.assertLess(found["min_content_width"], found["max_content_width"])
        self.assertFalse(found["truncated"])
        self.assertIsNone(self.fit.layout(card, width=320)["breakpoints"])
        for bad in [(600, 100), (0, float("inf")), (float("nan"), 1), (0, 2e6)]:
            with self.assertRaises(FitError) as caught:
                self.fit.layout(card, width=320, breakpoints=bad)
            self.assertEqual(caught.exception.name, "org.fitd.Fit1.Error.InvalidArgument")
            self.assertIn("breakpoints", caught.exception.message)


if __name__ == "__main__":
    unittest.main()
