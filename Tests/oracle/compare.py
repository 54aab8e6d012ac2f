#!/usr/bin/python3
"""Compare a text engine with the Pango 1.50 oracle on the fitd corpus.

    Tests/oracle/compare.py --engine "swift run fitctl measure --batch --language en-us --json"
    Tests/oracle/compare.py --results engine-output.jsonl [--report report.md]
    Tests/oracle/compare.py --engine "CMD" --oracle-results cached-pango.jsonl

The engine reads the corpus JSON lines on stdin and writes one JSON result per
line (fields width, height, baseline, lines, ellipsized, error, id).  Results
are matched by id (falling back to line order when ids are missing).

Targets (exit status 1 when one is missed, 2 on usage/run errors):
    width   within max(0.5 px, 0.5 %) of Pango        >= 99 % of cases
    height  within 1 px of Pango                      >= 99 % of cases
    lines   same line count AND same ellipsized flag  >= 98 % of wrapped cases
            (wrapped = request has max_width)
A request with "line_texts": true also needs the same text shown on every line (the
engine is asked for "lines": true and its line_metrics' "text" is compared with the
oracle's line_texts, ellipsis included); a different text fails the lines check.
Requests that Pango rejects must be rejected ("error") by the engine too;
they are counted separately and are not part of the percentages.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FONTS_CONF = os.path.join(ROOT, "Tests", "fonts", "fonts.conf")
CORPUS = os.path.join(HERE, "corpus.jsonl")
ORACLE = os.path.join(HERE, "pango_measure.py")

TARGET_WIDTH = 99.0
TARGET_HEIGHT = 99.0
TARGET_LINES = 98.0


def env():
    e = dict(os.environ)
    e["FONTCONFIG_FILE"] = FONTS_CONF
    return e


def read_jsonl(text):
    out = []
    for i, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as exc:
            out.append({"error": "unparsable engine output line %d: %s" % (i + 1, exc)})
    return out


def run(cmd, stdin_text, shell):
    p = subprocess.run(cmd, input=stdin_text.encode("utf-8"), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env(), shell=shell)
    # fitctl measure --batch exits 2 when some lines were refused: each has an "error",
    # compared like any other result.
    if p.returncode not in (0, 2):
        sys.stderr.write(p.stderr.decode("utf-8", "replace")[-4000:])
        raise SystemExit("command failed (%d): %s" % (p.returncode, cmd))
    return read_jsonl(p.stdout.decode("utf-8"))


def index(results, reqs):
    by_id = {}
    for i, r in enumerate(results):
        if isinstance(r, dict) and r.get("id") is not None:
            by_id[str(r["id"])] = r
    out = []
    for i, q in enumerate(reqs):
        r = by_id.get(str(q.get("id")))
        if r is None and not by_id and i < len(results):
            r = results[i]
        out.append(r)
    return out


def width_ok(a, b):
    return abs(a - b) <= max(0.5, 0.005 * abs(b))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--engine", help="command reading JSON lines on stdin (run through the shell)")
    src.add_argument("--results", help="engine output already on disk (JSON lines)")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--oracle-results", help="use cached Pango results instead of running the oracle")
    ap.add_argument("--report", help="write a markdown report here")
    ap.add_argument("--worst", type=int, default=25, help="how many worst cases to list")
    ap.add_argument("--filter", help="only ids starting with this prefix (e.g. wrap-)")
    ap.add_argument("--line-texts", action="store_true",
                    help="compare the text of every line of each ellipsizing request too (\"line_texts\")")
    ap.add_argument("--metrics", choices=["gtk4", "gtk3"], default="gtk4",
                    help="gtk3: every request measured with GTK 3's metrics (Pango: hint metrics on, "
                         "rounded glyph positions; the engine: \"metrics\": \"gtk3\")")
    ap.add_argument("--fontconfig", help="fontconfig file for both sides instead of the pinned fonts "
                                         "(/etc/fonts/fonts.conf: the system's fonts)")
    args = ap.parse_args()
    if args.fontconfig:
        global FONTS_CONF
        FONTS_CONF = args.fontconfig

    with open(args.corpus, encoding="utf-8") as f:
        corpus_text = f.read()
    reqs = read_jsonl(corpus_text)
    if args.filter:
        reqs = [q for q in reqs if str(q.get("id", "")).startswith(args.filter)]
        corpus_text = "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in reqs)
    if args.metrics != "gtk4":
        reqs = [dict(q, metrics=args.metrics) for q in reqs]
        corpus_text = "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in reqs)
    if args.line_texts:
        reqs = [dict(q, line_texts=True) if q.get("ellipsize", "none") != "none" else q for q in reqs]
        corpus_text = "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in reqs)

    if args.oracle_results:
        with open(args.oracle_results, encoding="utf-8") as f:
            pango = index(read_jsonl(f.read()), reqs)
    else:
        pango = index(run(["/usr/bin/python3", ORACLE, "--metrics", args.metrics], corpus_text, False), reqs)

    if args.engine:
        # The engine's name for "give me each line's text" (fitctl: "lines").
        engine_text = "".join(
            json.dumps(dict({k: v for k, v in q.items() if k != "line_texts"}, lines=True) if q.get("line_texts") else q,
                       ensure_ascii=False) + "\n" for q in reqs)
        engine = index(run(args.engine, engine_text, True), reqs)
    else:
        with open(args.results, encoding="utf-8") as f:
            engine = index(read_jsonl(f.read()), reqs)

    n = n_w = n_h = 0
    n_wrapped = n_l = 0
    err_agree = err_total = 0
    missing = 0
    bad = []  # (score, id, what, req, pango, engine)
    for q, p, e in zip(reqs, pango, engine):
        if p is None:
            continue
        if "error" in p:
            err_total += 1
            if e is not None and "error" in e:
                err_agree += 1
            else:
                bad.append((1e9, q.get("id"), "Pango rejects, engine does not", q, p, e))
            continue
        n += 1
        if e is None or "error" in e or not isinstance(e.get("width"), (int, float)):
            missing += 1
            bad.append((1e8, q.get("id"), "engine error/missing: %s" % (e or {}).get("error"), q, p, e))
            if q.get("max_width") is not None:
                n_wrapped += 1
            continue
        dw = e["width"] - p["width"]
        dh = (e.get("height") or 0) - p["height"]
        wok = width_ok(e["width"], p["width"])
        hok = abs(dh) <= 1.0
        n_w += wok
        n_h += hok
        lok = True
        if q.get("max_width") is not None:
            n_wrapped += 1
            lok = e.get("lines") == p["lines"] and bool(e.get("ellipsized")) == bool(p["ellipsized"])
            n_l += lok
        texts_differ = False
        if q.get("line_texts") and "line_texts" in p:
            shown = [m.get("text") for m in e.get("line_metrics") or []]
            texts_differ = shown != p["line_texts"]
            if texts_differ and q.get("max_width") is not None and lok:
                n_l -= 1
            lok = lok and not texts_differ
        if not (wok and hok and lok):
            what = []
            if not wok:
                what.append("width %+.2f px" % dw)
            if not hok:
                what.append("height %+.2f px" % dh)
            if not lok:
                what.append("lines %s/%s ell %s/%s" % (e.get("lines"), p["lines"],
                                                      e.get("ellipsized"), p["ellipsized"]))
            if texts_differ:
                what.append("text %s / Pango %s" % (
                    json.dumps([m.get("text") for m in e.get("line_metrics") or []], ensure_ascii=False),
                    json.dumps(p["line_texts"], ensure_ascii=False)))
            score = abs(dw) + abs(dh) + (50 if not lok else 0)
            bad.append((score, q.get("id"), ", ".join(what), q, p, e))

    pct = lambda a, b: 100.0 * a / b if b else 100.0
    pw, ph, pl = pct(n_w, n), pct(n_h, n), pct(n_l, n_wrapped)
    ok = pw >= TARGET_WIDTH and ph >= TARGET_HEIGHT and pl >= TARGET_LINES and err_agree == err_total
    bad.sort(key=lambda t: -t[0])

    lines = []
    lines.append("# fitd engine vs Pango 1.50\n")
    lines.append("corpus: %s (%d requests, %d measurable, %d wrapped, %d invalid)\n"
                 % (os.path.relpath(args.corpus, ROOT), len(reqs), n, n_wrapped, err_total))
    lines.append("| check | result | target |")
    lines.append("|---|---|---|")
    lines.append("| width within max(0.5 px, 0.5 %%) | %.2f %% (%d/%d) | %.0f %% |" % (pw, n_w, n, TARGET_WIDTH))
    lines.append("| height within 1 px | %.2f %% (%d/%d) | %.0f %% |" % (ph, n_h, n, TARGET_HEIGHT))
    lines.append("| wrapped: lines + ellipsized equal | %.2f %% (%d/%d) | %.0f %% |" % (pl, n_l, n_wrapped, TARGET_LINES))
    lines.append("| invalid requests rejected | %d/%d | all |" % (err_agree, err_total))
    lines.append("| engine errors / missing results | %d | 0 |" % missing)
    lines.append("\n**%s**\n" % ("PASS" if ok else "FAIL"))
    if bad:
        lines.append("## Worst %d cases\n" % min(args.worst, len(bad)))
        lines.append("| id | difference | font | options | text | pango w×h/lines | engine w×h/lines |")
        lines.append("|---|---|---|---|---|---|---|")
        for score, rid, what, q, p, e in bad[: args.worst]:
            opts = {k: v for k, v in q.items() if k not in ("id", "text", "font")}
            fmt = lambda r: ("%.2f×%.2f/%s%s" % (r["width"], r["height"], r.get("lines"),
                                                 " …" if r.get("ellipsized") else "")
                             if r and "width" in r and isinstance(r["width"], (int, float)) else json.dumps(r))
            text = json.dumps(q.get("text"), ensure_ascii=False)
            lines.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                rid, what, q.get("font"), json.dumps(opts, ensure_ascii=False) if opts else "",
                text.replace("|", "\\|"), fmt(p), fmt(e)))
    report = "\n".join(lines) + "\n"
    print(report)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(report)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
