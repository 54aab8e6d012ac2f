#!/usr/bin/env bash
# Font variations against Pango on the system's fonts (/etc/fonts): Inter (fonts-inter-
# variable, a variable font with named instances) and Cantarell, GNOME's UI font. Each case
# is measured by Pango 1.50 (the oracle's GTK 4 setup) and by fitctl --local; widths must
# agree to 0.01 px. Needs the fonts scripts/bootstrap installs: a missing one fails.
source "$(dirname "$0")/lib.bash"
export FONTCONFIG_FILE=/etc/fonts/fonts.conf
for family in "Inter" "Cantarell"; do
  fc-list "$family" family | grep -q . || fail "font $family is not installed (scripts/bootstrap installs it)"
done
fc-list ':variable=true' family | grep -qi inter || fail "Inter is not installed as a variable font (fonts-inter-variable)"

"$PY" - "$FITCTL" <<'PY' || fail "variations differ from Pango"
import json, subprocess, sys
sys.path.insert(0, "Tests/oracle")
import pango_measure as pm
from gi.repository import Pango
cases = [
    "Inter 11", "Inter Bold 11", "Inter 11 @wght=650", "Inter Italic 11 @wght=300",
    "Inter 11 @wght=650,opsz=32", "Inter weight=550 11", "Inter Semi-Bold 11", "Inter @wght=650 11",
    "Inter Display 11", "Cantarell 11", "Cantarell Bold 11", "Cantarell 11 @wght=650",
    "Cantarell weight=650 11", "Inter 11 @wdth=80", "Inter 11 @",
]
text = "Settings 12:45"
ctx = pm.make_context()
lines = "\n".join(json.dumps({"text": text, "font": f}) for f in cases) + "\n"
out = subprocess.run([sys.argv[1], "measure", "--batch", "--local"], input=lines, capture_output=True, text=True, check=True)
bad = 0
for font, line in zip(cases, out.stdout.splitlines()):
    lay = Pango.Layout.new(ctx)
    desc = Pango.FontDescription.from_string("sans-serif 12")
    desc.merge(Pango.FontDescription.from_string(font), True)
    lay.set_font_description(desc)
    lay.set_text(text, -1)
    _, log = lay.get_extents()
    pango = (log.width / 1024, log.height / 1024)
    fitd = json.loads(line)
    ok = "error" not in fitd and abs(fitd["width"] - pango[0]) < 0.01 and abs(fitd["height"] - pango[1]) < 0.01
    bad += not ok
    print("%s %-28s pango %.3f x %.3f  fitd %s" % ("ok  " if ok else "DIFF", font, pango[0], pango[1],
          fitd.get("error") or "%.3f x %.3f" % (fitd["width"], fitd["height"])))
sys.exit(1 if bad else 0)
PY
ok "variations and named instances match Pango on the system's fonts"
