#!/usr/bin/python3
"""Classes 3-8 (itemization, font per run, baseline, the ellipsis' font; PANGO_RULES.md §14): each
minimal case (itemize_classes.jsonl) measured by live Pango and by an engine under the
SYSTEM fonts (/etc/fonts/fonts.conf, the desktop font set scripts/bootstrap installs), and
compared exactly: width and height within 0.01 px, the same lines and ellipsized flag.

    Tests/oracle/itemize_classes.py --engine ".build/debug/fitctl measure --batch --local --language en-us"

Exit 0 when every case matches, 1 otherwise (each case printed either way).
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "itemize_classes.jsonl")
ORACLE = os.path.join(HERE, "pango_measure.py")
TOLERANCE = 0.01


def env():
    e = dict(os.environ)
    e["FONTCONFIG_FILE"] = "/etc/fonts/fonts.conf"
    # The oracle pins the context language en-us; the engine command is given the same
    # (--language en-us): a locale such as en_US.UTF-8 need not be installed.
    e.pop("LANGUAGE", None)
    return e


def run(cmd, stdin_text):
    p = subprocess.run(cmd, input=stdin_text.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env())
    # fitctl measure --batch exits 2 when some lines were refused: each has an "error",
    # compared like any other result.
    if p.returncode not in (0, 2):
        sys.exit("%s failed: %s" % (cmd[0], p.stderr.decode(errors="replace")))
    return [json.loads(line) for line in p.stdout.decode().splitlines() if line.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True, help="command reading JSON lines, writing results")
    args = ap.parse_args()
    cases = open(CASES, encoding="utf-8").read()
    pango = {r["id"]: r for r in run(["/usr/bin/python3", ORACLE], cases)}
    engine = {r.get("id"): r for r in run(shlex.split(args.engine), cases)}
    failed = 0
    for line in cases.splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        p, e = pango[case["id"]], engine.get(case["id"], {"error": "no result"})
        same = ("error" not in e and abs(p["width"] - e["width"]) <= TOLERANCE
                and abs(p["height"] - e["height"]) <= TOLERANCE
                and p["lines"] == e["lines"] and p["ellipsized"] == e["ellipsized"])
        failed += not same
        print("%s %-24s pango %.4f x %.4f  engine %s" % (
            "ok  " if same else "FAIL", case["id"], p["width"], p["height"],
            e.get("error") or "%.4f x %.4f" % (e["width"], e["height"])))
    print("itemize classes: %d of %d match Pango" % (len(pango) - failed, len(pango)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
