#!/usr/bin/python3
"""fitctl check's findings against real GtkLabels: is a text GTK draws at that width cut
where fitd says it is, and whole where fitd says the source language's is?

    /usr/bin/python3 Tests/oracle/check_findings_gtk.py [--fitctl .build/debug/fitctl]

Runs `fitctl check --json --local` on protocol/examples/translations/gtk-new-folder-dialog.json (texts are
msgids of GTK 4's own gtk40 catalog) in a few installed languages at size category large, and
for every one-line text it reports truncated, asks a GtkLabel (Tests/oracle/gtk_labels.py
under its own Xvfb: ellipsize end, the label's language, the text style's font as `fitctl
scale show` gives it) whether it is ellipsized when allocated the text's frame width; the same
text in the source language at that width must not be. Exit 0 when GTK agrees on every case,
1 when not, 77 when GTK 4, Xvfb or the gtk40 catalogs are missing (skipped, not passed).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCUMENT = os.path.join(ROOT, "protocol/examples/translations/gtk-new-folder-dialog.json")
LANGUAGES = "de,tg,ml,ja,ar,fi"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fitctl", default=os.path.join(ROOT, ".build/debug/fitctl"))
    args = ap.parse_args()
    if not shutil.which("xvfb-run") or not os.path.exists("/usr/share/locale/tg/LC_MESSAGES/gtk40.mo"):
        print("check_findings_gtk: SKIP: needs xvfb-run and GTK 4's gtk40 catalogs")
        return 77
    env = dict(os.environ, FONTCONFIG_FILE=os.path.join(ROOT, "Tests/fonts/fonts.conf"))
    env.setdefault("XDG_CONFIG_HOME", os.path.join(ROOT, ".build/test-config"))
    env.setdefault("XDG_CACHE_HOME", os.path.join(ROOT, ".build/test-cache"))
    run = subprocess.run([args.fitctl, "check", DOCUMENT, "--translations", "gtk40", "--languages", LANGUAGES,
                          "--categories", "large", "--widths", "240,360,480", "--json", "--local"],
                         capture_output=True, text=True, env=env)
    if run.returncode not in (0, 1):
        sys.exit("fitctl check failed: " + run.stderr)
    report = json.loads(run.stdout)
    scale = json.loads(subprocess.run([args.fitctl, "scale", "show", "--json", "--local"], capture_output=True,
                                      text=True, env=env, check=True).stdout)
    fonts = {s["style"]: s["font"] for s in scale["styles"]}
    document = json.load(open(DOCUMENT))
    nodes = {n["id"]: n for n in document["nodes"]}
    cases = []
    for finding in report["findings"]:
        node = nodes.get(finding.get("node"), {})
        if finding["kind"] != "truncated" or node.get("lineLimit") != 1:
            continue
        width = int(finding["frame_width"])  # GTK allocates whole px; the frame is at least this
        font = fonts[node.get("textStyle", "body")]
        base = {"font": font, "mode": "ellipsize", "ellipsize": "end", "width": width}
        source = node.get("text", node["msgid"])
        cases.append(dict(base, id=f"{finding['language']}/{finding['node']}/{finding['width']}", text=finding["text"],
                          language=finding["language"].replace("_", "-").split("@")[0], expect=True))
        cases.append(dict(base, id=f"en/{finding['node']}/{finding['width']}", text=source, language="en", expect=False))
    if not cases:
        sys.exit("fitctl check reported no truncated one-line text to confirm")
    lines = "".join(json.dumps({k: v for k, v in c.items() if k != "expect"}) + "\n" for c in cases)
    gtk = subprocess.run(["xvfb-run", "-a", "/usr/bin/python3", os.path.join(ROOT, "Tests/oracle/gtk_labels.py"),
                          "--toolkit", "gtk4"], input=lines, capture_output=True, text=True, env=env)
    if gtk.returncode != 0:
        print("check_findings_gtk: SKIP: GTK 4 labels could not be measured: " + gtk.stderr[-400:])
        return 77
    results = [json.loads(line) for line in gtk.stdout.splitlines() if line.strip()]
    disagree = 0
    for case, result in zip(cases, results):
        if "error" in result:
            print(f"  {case['id']}: GTK error {result['error']}")
            disagree += 1
            continue
        agrees = result["ellipsized"] == case["expect"]
        disagree += not agrees
        natural = result["widget"]["natural_width"]
        print(f"  {'ok ' if agrees else 'BAD'} {case['id']}: GtkLabel natural {natural} px, allocated {case['width']} px, "
              f"ellipsized {result['ellipsized']} (fitd: {'cut' if case['expect'] else 'whole'}) “{case['text']}” [{case['font']}]")
    print(f"check_findings_gtk: {len(cases) - disagree} of {len(cases)} cases as fitd says")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
