#!/usr/bin/python3
"""Self-tests of the GTK label oracle: the corpus regenerates byte-identically, the settings
variants are in effect, an engine that answers with GTK's own numbers passes 100 %, and a
wrong engine, an engine without widget sizes and a GTK error all fail.

    /usr/bin/python3 -m unittest Tests/oracle/test_gtk_oracle.py      (~30 s)

Needs Xvfb, xsettingsd, xrdb, GTK 4 and 3's typelibs and the desktop fonts (no skipping:
a missing piece is a failure).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gtk_compare  # noqa: E402
import gtk_corpus  # noqa: E402

PY = "/usr/bin/python3"
LABELS = os.path.join(HERE, "gtk_labels.py")
FAKE = "%s %s --as-engine" % (PY, LABELS)
CACHE = None


def setUpModule():
    global CACHE
    CACHE = tempfile.mkdtemp(prefix="gtk-oracle-test-")


def tearDownModule():
    shutil.rmtree(CACHE, ignore_errors=True)


def compare(*args, env=None):
    p = subprocess.run([PY, os.path.join(HERE, "gtk_compare.py"), "--cache", CACHE, *args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def edited(field_code):
    """The fake engine, its results changed by a line of Python on r (a result dict)."""
    return ("%s | %s -c \"import json,sys\nfor l in sys.stdin:\n r=json.loads(l)\n %s\n print(json.dumps(r))\"" %
            (FAKE, PY, field_code))


class Corpus(unittest.TestCase):
    def test_committed_corpus_is_what_the_generator_writes(self):
        lines = "".join(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n" for c in gtk_corpus.generate())
        with open(os.path.join(HERE, "gtk_corpus.jsonl"), encoding="utf-8") as f:
            committed = f.read()
        self.assertEqual(committed, lines, "regenerate: /usr/bin/python3 Tests/oracle/gtk_corpus.py > "
                         "Tests/oracle/gtk_corpus.jsonl (or the installed catalogs changed)")
        cases = [json.loads(l) for l in lines.splitlines()]
        self.assertGreaterEqual(len({c["language"] for c in cases}), 45)
        self.assertEqual({c["mode"] for c in cases}, {"plain", "ellipsize", "wrap", "lines"})
        self.assertEqual({c["font"] for c in cases},
                         {None, "Cantarell 11", "Noto Sans 10", "DejaVu Sans 9", "Cantarell Bold 15"})
        self.assertEqual(len({c["id"] for c in cases}), len(cases))

    def test_language_tags(self):
        for loc, tag in (("pt_BR", "pt-BR"), ("sr@latin", "sr-Latn"), ("zh_TW", "zh-TW"), ("de", "de"),
                         ("uz@cyrillic", "uz-Cyrl"), ("ca@valencia", "ca-valencia"), ("en@shaw", "en-Shaw")):
            self.assertEqual(gtk_corpus.bcp47(loc), tag)

    def test_mnemonics_as_a_use_underline_label_shows_them(self):
        s = gtk_corpus.strip_mnemonic
        self.assertEqual(s("_Open"), "Open")
        self.assertEqual(s("Select _All"), "Select All")
        self.assertEqual(s("キャンセル(_C)"), "キャンセル(C)")
        self.assertEqual(s("a__b"), "a_b")
        self.assertEqual(s("end_"), "end")
        m = gtk_corpus.has_mnemonic
        self.assertTrue(m("_Cancel") and m("Cance_l") and m("C_ollate") and m("Show T_ype Column"))
        self.assertFalse(m("Page_Down") or m("KP_Begin") or m("GDK_DEBUG") or m("g_try_realloc () failed"))

    def test_sample_is_fixed_and_keeps_a_string_s_widths_together(self):
        with open(os.path.join(HERE, "gtk_corpus.jsonl"), encoding="utf-8") as f:
            cases = [json.loads(l) for l in f]
        a = gtk_compare.sample(cases, 200)
        self.assertEqual(a, gtk_compare.sample(cases, 200))
        self.assertTrue(200 <= len(a) <= 204)
        wraps = {c["id"].split("-w")[0] for c in a if "-w" in c["id"]}
        for b in wraps:
            self.assertEqual(sum(1 for c in a if c["id"].startswith(b + "-w")),
                             sum(1 for c in cases if c["id"].startswith(b + "-w")))


class Judge(unittest.TestCase):
    gtk = {"widget": {"minimum_width": 10, "natural_width": 100, "minimum_height": 19, "natural_height": 19},
           "lines": 1}

    def test_exact_or_not(self):
        j = gtk_compare.judge
        same = {"widget": dict(self.gtk["widget"]), "lines": 1}
        self.assertEqual(j(self.gtk, same)[0], "pass")
        self.assertEqual(j(self.gtk, dict(same, lines=2))[0], "fail")
        off = {"widget": dict(self.gtk["widget"], natural_width=101), "lines": 1}
        self.assertEqual(j(self.gtk, off)[:2], ("fail", "nat w +1"))
        self.assertEqual(j(self.gtk, {"width": 100, "height": 19, "lines": 1})[:2], ("fail", "no widget sizes"))
        self.assertEqual(j(self.gtk, {"error": "x"})[0], "fail")
        self.assertEqual(j({"error": "GTK broke"}, same)[0], "error")


class EndToEnd(unittest.TestCase):
    def test_gtk_as_the_engine_passes_under_every_settings_variant(self):
        code, out, err = compare("--engine", FAKE, "--sample", "50", "--settings", "all", "--target", "100")
        self.assertEqual(code, 0, out + err)
        self.assertIn("100.00 % exact overall", out)
        self.assertRegex(out.strip().splitlines()[-1], r"^gtk oracle: \d+ passed, 0 failed$")
        self.assertNotIn("warning", err)  # every variant was in effect (the font and dpi GTK saw)
        for seen in ("| Sans 10 | 96.0 |", "| Cantarell 13 | 96.0 |", "| Sans 10 | 144.0 |", "| Noto Sans 12 | 144.0 |"):
            self.assertIn(seen, out)

    def test_a_variant_stops_what_it_started(self):
        v = gtk_compare.Variant("xsettings", gtk_compare.SYSTEM_FONTS_CONF, CACHE).start()
        pids = [p.pid for p in v.procs]
        self.assertEqual(len(pids), 2)  # Xvfb, xsettingsd
        self.assertTrue(os.path.isdir(v.root))
        v.stop()
        for pid in pids:
            self.assertFalse(os.path.exists("/proc/%d" % pid), pid)  # ended and reaped
        self.assertFalse(os.path.exists(v.root))

    def test_a_wrong_engine_fails(self):
        code, out, err = compare("--engine", edited("r['widget']['natural_width']+=1"), "--sample", "50",
                                 "--settings", "none", "--toolkits", "gtk4", "--target", "99")
        self.assertEqual(code, 1, out + err)
        self.assertIn("gtk oracle: 0 passed,", out)

    def test_an_engine_without_widget_sizes_fails_every_case(self):
        failures = os.path.join(CACHE, "f.jsonl")
        code, out, err = compare("--engine", edited("r.pop('widget', None)"), "--sample", "50", "--settings", "none",
                                 "--toolkits", "gtk3", "--failures", failures)
        self.assertEqual(code, 0, out + err)  # no --target: figures only
        self.assertIn("gtk oracle: 0 passed,", out)
        with open(failures, encoding="utf-8") as f:
            whats = {json.loads(l)["what"] for l in f}
        self.assertEqual(whats, {"no widget sizes"})

    def test_a_gtk_error_is_never_a_pass(self):
        corpus = os.path.join(CACHE, "bad.jsonl")
        with open(corpus, "w", encoding="utf-8") as f:
            f.write(json.dumps({"id": "ok-1", "language": "de", "text": "Öffnen", "font": None, "mode": "plain"}) + "\n")
            f.write(json.dumps({"id": "bad-1", "language": "de", "text": "Öffnen", "font": None, "mode": "bogus"}) + "\n")
        code, out, err = compare("--engine", FAKE, "--corpus", corpus, "--settings", "none", "--toolkits", "gtk4",
                                 "--target", "0")
        self.assertEqual(code, 1, out + err)
        self.assertIn("gtk oracle: 1 passed, 1 failed", out)
        self.assertIn("1 GTK errors", out)

    def test_no_x_server_is_exit_2(self):
        env = dict(os.environ, PATH=os.path.join(CACHE, "no-such-bin"))
        code, out, err = compare("--engine", FAKE, "--sample", "5", "--settings", "none", env=env)
        self.assertEqual(code, 2, out + err)
        self.assertIn("Xvfb", err)
        self.assertNotIn("passed", out)


if __name__ == "__main__":
    unittest.main()
