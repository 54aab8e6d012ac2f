#!/usr/bin/python3
"""Self-tests of the desktop oracle: the oracle's fields reproduce Pango's numbers for the
minimal cases (desktop_corpus.MINIMAL) on the system fonts, the corpus is deterministic,
and the comparison can fail.

    /usr/bin/python3 -m unittest discover -s Tests/oracle -p 'test_*.py'

Needs the desktop font set (scripts/bootstrap desktop_font_packages).
"""

import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import desktop_compare  # noqa: E402
import desktop_corpus  # noqa: E402

ORACLE = os.path.join(HERE, "pango_measure.py")


def oracle(reqs, *extra):
    env = dict(os.environ, FONTCONFIG_FILE=desktop_compare.SYSTEM_FONTS_CONF)
    p = subprocess.run(["/usr/bin/python3", ORACLE, *extra], env=env, check=True, stdout=subprocess.PIPE,
                       input="".join(json.dumps(r) + "\n" for r in reqs).encode())
    return [json.loads(line) for line in p.stdout.decode().splitlines()]


def run_fonts(result):
    return [run["font"].rsplit(" ", 1)[0] for line in result["runs"] for run in line]


class OracleFields(unittest.TestCase):
    def test_language_c_claims_every_script(self):
        # Class 1: under LANG=C Pango's language is "c"; `ש0`, Monospace 12: 21.79 vs 16.00.
        c, en = oracle([{"text": "ש0", "font": "Monospace 12", "language": "c"},
                        {"text": "ש0", "font": "Monospace 12", "language": "en-us"}])
        self.assertAlmostEqual(c["height"], 21.79, places=2)
        self.assertAlmostEqual(en["height"], 16.00, places=2)

    def test_language_picks_latin_font_in_bn_in(self):
        # Class 2: `Settings 12:45`, Sans 10, bn-IN: 88.28 wide, as Pango measures it.
        (r,) = oracle([{"text": "Settings 12:45", "font": "Sans 10", "language": "bn-IN"}])
        self.assertAlmostEqual(r["width"], 88.28, places=2)

    def test_gtk3_metrics_round_ascent_descent_and_advances(self):
        gtk4, gtk3 = oracle([{"text": "Settings 12:45", "font": "Cantarell 11"},
                             {"text": "Settings 12:45", "font": "Cantarell 11", "metrics": "gtk3"}])
        self.assertEqual((round(gtk4["width"], 2), round(gtk4["height"], 2)), (91.26, 17.60))
        self.assertEqual((gtk3["width"], gtk3["height"]), (91.0, 19.0))

    def test_markup_measures_as_attributed_text(self):
        markup, plain = oracle([{"text": "<b>Save</b> &amp; quit", "font": "Cantarell 11", "markup": True},
                                {"text": "Save & quit", "font": "Cantarell 11"}])
        self.assertGreater(markup["width"], plain["width"])  # the bold part is wider
        (bad,) = oracle([{"text": "<b>Save</i>", "font": "Cantarell 11", "markup": True}])
        self.assertIn("Element", bad["error"])  # Pango's own message

    def test_variations_pass_through_pango(self):
        (r,) = oracle([{"text": "Save", "font": "Cantarell 11 @wght=700", "debug": True}])
        self.assertIn("@wght=700", r["runs"][0][0]["font"])

    def test_a_result_does_not_depend_on_the_requests_before_it(self):
        # "0" in Noto Sans 10, ar-eg, leaves DejaVu Sans 10 (its Arabic sample's fallback) with
        # approximate char width 0, and Pango's safe distance 0 (PANGO_RULES.md §12): the oracle
        # measures such a request again on a fresh font map.
        case = {"text": "الإشعارات", "font": "DejaVu Sans 10", "max_width": 30, "wrap": "char", "language": "ar-eg"}
        (alone,) = oracle([case])
        _, after = oracle([{"text": "0", "font": "Noto Sans 10", "language": "ar-eg"}, case])
        self.assertAlmostEqual(alone["width"], 26.48, places=2)
        self.assertEqual(after["line_widths"], alone["line_widths"])

    def test_preferred_languages_are_unset_unless_asked(self):
        os.environ["LANGUAGE"] = "zh_CN"  # the caller's shell must not leak in
        try:
            (default,) = oracle([{"text": "通", "font": "Sans 10", "debug": True}])
            (asked,) = oracle([{"text": "通", "font": "Sans 10", "debug": True}], "--preferred-languages", "zh_CN")
        finally:
            del os.environ["LANGUAGE"]
        self.assertEqual(run_fonts(default), ["Noto Sans CJK JP"])
        self.assertEqual(run_fonts(asked), ["Noto Sans CJK SC"])


class Corpus(unittest.TestCase):
    def test_committed_corpus_is_what_the_generator_writes(self):
        lines = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in desktop_corpus.generate())
        with open(os.path.join(HERE, "desktop_corpus.jsonl"), encoding="utf-8") as f:
            self.assertEqual(f.read(), lines)

    def test_corpus_size_and_groups(self):
        reqs = desktop_corpus.generate()
        self.assertGreaterEqual(len(reqs), 3000)
        groups = {desktop_compare.group_of(r["id"]) for r in reqs}
        self.assertEqual(groups, {"ui", "icon", "sym", "space", "num", "emoji", "markup", "var", "wrap", "ell", "min"})
        self.assertFalse([r for r in reqs if "language" in r or "metrics" in r])  # the locale set adds them


class Comparison(unittest.TestCase):
    def test_judge(self):
        p = {"width": 100.0, "height": 20.0, "lines": 1, "ellipsized": False}
        self.assertTrue(desktop_compare.judge(p, dict(p, width=100.49))[0])
        self.assertFalse(desktop_compare.judge(p, dict(p, width=100.51))[0])
        self.assertFalse(desktop_compare.judge(p, dict(p, height=21.01))[0])
        self.assertFalse(desktop_compare.judge(p, dict(p, ellipsized=True))[0])
        self.assertFalse(desktop_compare.judge(p, {"error": "x"})[0])
        self.assertTrue(desktop_compare.judge({"error": "bad markup"}, {"error": "y"})[0])
        self.assertFalse(desktop_compare.judge({"error": "bad markup"}, p)[0])

    def test_sample_is_fixed_stratified_and_keeps_min(self):
        cases = desktop_corpus.generate()
        a = desktop_compare.stratified_sample(cases, "bn", 500)
        self.assertEqual(a, desktop_compare.stratified_sample(cases, "bn", 500))
        self.assertTrue(450 <= len(a) <= 550)
        self.assertEqual(sum(desktop_compare.group_of(c["id"]) == "min" for c in a), len(desktop_corpus.MINIMAL))
        self.assertEqual({desktop_compare.group_of(c["id"]) for c in a},
                         {desktop_compare.group_of(c["id"]) for c in cases})

    def compare(self, engine, target="100"):
        p = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "desktop_compare.py"), "--engine", engine,
                            "--filter", "min-", "--locales", "en-us,c,bn", "--target", target],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return p.returncode, p.stdout.decode()

    def test_pango_as_the_engine_passes(self):
        code, out = self.compare("/usr/bin/python3 " + ORACLE)
        self.assertEqual(code, 0, out)
        self.assertIn("100.00 % ok overall", out)

    def test_a_wrong_engine_fails(self):
        # Pango, but every width 1 px off: must miss the target.
        wrong = ("/usr/bin/python3 %s | /usr/bin/python3 -c \"import json,sys\n"
                 "for l in sys.stdin:\n r=json.loads(l)\n if 'width' in r: r['width']+=1\n print(json.dumps(r))\"" % ORACLE)
        code, out = self.compare(wrong)
        self.assertEqual(code, 1, out)

    def test_a_minimal_case_off_fails_whatever_the_target(self):
        # Each class's minimal case must pass everywhere: a per-locale target of 0 does not excuse it.
        wrong = ("/usr/bin/python3 %s | /usr/bin/python3 -c \"import json,sys\n"
                 "for l in sys.stdin:\n r=json.loads(l)\n if 'width' in r: r['width']+=1\n print(json.dumps(r))\"" % ORACLE)
        code, out = self.compare(wrong, target="0")
        self.assertEqual(code, 1, out)
        self.assertIn("not ok everywhere", out)


if __name__ == "__main__":
    unittest.main()
