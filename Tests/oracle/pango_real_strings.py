#!/usr/bin/python3
"""fitd against Pango set up as the installed GTK draws, on real translated UI strings.

The cases of gtk_corpus.jsonl (strings from the gettext catalogs installed on the machine, in
their own language, with and without a font, plain / ellipsized / wrapped / line-limited) are
measured by Pango (pango_measure.py, its "gtk-4.N" setup: what GTK 4.N draws with Debian 12's
cairo) and by the engine, with the system's fonts. A case's width, when it has one, is its
fraction of Pango's own natural width (ellipsize, lines) or a point between the widest word
and the natural width (wrap), as gtk_corpus.py describes; the text with no font is in
"Sans 10", GTK's default, as the engine's UI font is on a machine without settings.

A case is fully right when width and height agree to 1/1024 px, and the line count and the
ellipsized flag are equal. Prints a Markdown report (per mode and overall), the worst cases,
and "pango real strings: N passed, N failed"; exits 1 below --target (percent fully right).

    Tests/oracle/pango_real_strings.py --engine ".build/debug/fitctl measure --batch --local" --target 99.8
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PYTHON = "/usr/bin/python3"


def run(command, lines, env, shell=False):
    p = subprocess.run(command, input="".join(json.dumps(q) + "\n" for q in lines).encode("utf-8"),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, shell=shell)
    if p.returncode not in (0, 2):  # 2: fitctl's "some lines failed", each with its error
        sys.exit("pango_real_strings: %s failed (exit %d): %s" % (command, p.returncode, p.stderr.decode()[-2000:]))
    out = [json.loads(line) for line in p.stdout.decode("utf-8").splitlines() if line.strip()]
    if len(out) != len(lines):
        sys.exit("pango_real_strings: %s answered %d lines for %d" % (command, len(out), len(lines)))
    return out


def pango(lines, env):
    return run([PYTHON, os.path.join(HERE, "pango_measure.py")], lines, env)


def request(case, metrics, width=None):
    q = {"text": case["text"], "font": case.get("font") or "Sans 10", "language": case["language"], "metrics": metrics}
    mode = case.get("mode", "plain")
    if width is not None and mode != "plain":
        q["max_width"] = width
        if mode == "ellipsize":
            q["ellipsize"] = case.get("ellipsize", "end")
        elif mode == "wrap":
            q["wrap"] = case.get("wrap", "word")
        elif mode == "lines":
            q["wrap"] = case.get("wrap", "word")
            q["ellipsize"] = case.get("ellipsize", "end")
            q["max_lines"] = int(case.get("lines", 2))
    return q


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, ".build", "debug", "fitctl") + " measure --batch --local")
    ap.add_argument("--corpus", default=os.path.join(HERE, "gtk_corpus.jsonl"))
    ap.add_argument("--metrics", default="gtk-4.8", help="the GTK 4 line (pango_measure.py's gtk-4.N)")
    ap.add_argument("--target", type=float, default=None)
    ap.add_argument("--report", default=None)
    args = ap.parse_args()
    cases = [json.loads(line) for line in open(args.corpus, encoding="utf-8") if line.strip()]
    env = dict(os.environ, FONTCONFIG_FILE="/etc/fonts/fonts.conf", LANG="C.UTF-8")
    env.pop("FITD_TOOLKIT", None)
    env["XDG_CACHE_HOME"] = os.environ.get("XDG_CACHE_HOME") or tempfile.mkdtemp(prefix="fitd-pango-real-")
    # An empty configuration directory: no settings.ini, so the engine's UI font is GTK's Sans 10.
    env["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="fitd-pango-real-config-")
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    # First Pango's natural widths, and its widest words for the wrapped cases.
    natural = pango([request(c, args.metrics) for c in cases], env)
    narrow = pango([dict(request(c, args.metrics), max_width=0, wrap=c.get("wrap", "word")) for c in cases], env)
    final = []
    for c, n, w in zip(cases, natural, narrow):
        width = None
        if c.get("mode", "plain") != "plain" and "width" in n and "width" in w:
            if c.get("width_span") is not None:
                width = w["width"] + float(c["width_span"]) * (n["width"] - w["width"])
            else:
                width = float(c.get("width_fraction", 0.6)) * n["width"]
            width = float(round(width))
        q = request(c, args.metrics, width)
        q["id"] = c["id"]
        final.append(q)
    truth = pango(final, env)
    engine = run(args.engine, [dict(q) for q in final], env, shell=True)
    stats = {}
    failures = []
    for c, q, p, e in zip(cases, final, truth, engine):
        mode = c.get("mode", "plain") + (" (no font)" if not c.get("font") else "")
        s = stats.setdefault(mode, [0, 0])
        s[1] += 1
        if "error" in p:
            ok = "error" in e
            why = "Pango refused it: %s" % p["error"]
        elif "error" in e:
            ok, why = False, "engine error: %s" % e["error"]
        else:
            dw, dh = e["width"] - p["width"], e["height"] - p["height"]
            ok = abs(dw) < 0.0005 and abs(dh) < 0.0005 and e["lines"] == p["lines"] and bool(e.get("ellipsized")) == bool(p.get("ellipsized"))
            why = "width %+.3f, height %+.3f, lines %s/%s, ellipsized %s/%s" % (
                dw, dh, p["lines"], e["lines"], p.get("ellipsized"), e.get("ellipsized"))
        if ok:
            s[0] += 1
        else:
            failures.append((c, q, why))
    total = [sum(v[0] for v in stats.values()), sum(v[1] for v in stats.values())]
    lines = ["# fitd against Pango as GTK %s draws, on real translated strings" % args.metrics[4:], "",
             "%d cases from `%s`, %d languages; Pango 1.50 (`pango_measure.py`, metrics %s), system fonts." % (
                 len(cases), os.path.relpath(args.corpus, ROOT), len({c["language"] for c in cases}), args.metrics), "",
             "| mode | cases | fully right |", "|---|---|---|"]
    for mode in sorted(stats):
        ok, n = stats[mode]
        lines.append("| %s | %d | %.2f %% |" % (mode, n, 100.0 * ok / n))
    lines.append("| **all** | %d | **%.2f %%** |" % (total[1], 100.0 * total[0] / total[1]))
    lines += ["", "## Failures (first 40)", "", "| id | language | font | request | text | what |", "|---|---|---|---|---|---|"]
    for c, q, why in failures[:40]:
        options = {k: v for k, v in q.items() if k in ("max_width", "wrap", "ellipsize", "max_lines")}
        lines.append("| %s | %s | %s | `%s` | %s | %s |" % (c["id"], c["language"], c.get("font") or "(none)",
                                                          json.dumps(options), json.dumps(c["text"][:60], ensure_ascii=False), why))
    report = "\n".join(lines) + "\n"
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(report)
    print("\n".join(lines[:len(stats) + 8]))
    print("pango real strings: %d passed, %d failed" % (total[0], total[1] - total[0]))
    if args.target is not None and 100.0 * total[0] / total[1] < args.target:
        print("below the target of %.1f %% fully right" % args.target)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
