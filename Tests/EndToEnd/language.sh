#!/usr/bin/env bash
# The context language as Pango 1.50.12 has it (classes 1 and 2, PANGO_RULES.md
# §10), on the system's fonts (a desktop's, scripts/bootstrap), against Pango itself
# (Tests/oracle/pango_measure.py): the daemon's default under C.UTF-8 is "c", the language
# option on Measure, MeasureBatch and fitctl, LANGUAGE's preferred languages, two languages
# at once in one daemon, and a bad value named.
source "$(dirname "$0")/lib.bash"
# The system's fontconfig, and a C.UTF-8 locale without LANGUAGE: what the daemon reads once.
export FONTCONFIG_FILE=/etc/fonts/fonts.conf LANG=C.UTF-8
unset LC_ALL LC_CTYPE LANGUAGE PANGO_LANGUAGE
on_private_bus "$@"
[ -x "$FITCTL" ] || fail "no fitctl at $FITCTL"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# pango LANGUAGE TEXT FONT: Pango's width and height, "W H".
pango() {
  printf '{"text": "%s", "font": "%s"}\n' "$2" "$3" | "$PY" Tests/oracle/pango_measure.py --language "$1" \
    | json_get '"%r %r" % (float(d["width"]), float(d["height"]))'
}
# fitd ARGS...: the daemon's width and height, "W H".
fitd_wh() { "$FITCTL" measure --json "$@" | json_get '"%r %r" % (float(d["width"]), float(d["height"]))'; }

assert_eq "$("$PY" -c 'import gi; gi.require_version("Pango", "1.0"); from gi.repository import Pango; print(Pango.Language.get_default().to_string())')" \
  c "Pango's default language under LANG=C.UTF-8"

# Class 1: under C the language is "c", which includes every script, so the Hebrew run
# keeps "c" and its font sort (fitd took C for en-us and derived "he": height 16.00).
expected=$(pango c "ש0" "Monospace 12")
assert_eq "$(fitd_wh "ש0" --font "Monospace 12")" "$expected" "ש0, Monospace 12, the daemon's default language"
ok "class 1: ש0 in Monospace 12 under C.UTF-8 measures as Pango's ($expected)"

# Class 2: bn-IN is written in Bengali only, so Latin gets "en" (fitd's old table did not
# know bn: 83.81 in FreeSans).
expected=$(pango bn-in "Settings 12:45" "Sans 10")
assert_eq "$(fitd_wh "Settings 12:45" --font "Sans 10" --language bn-IN)" "$expected" "Settings 12:45, Sans 10, bn-IN"
# wh FILE: "W H" per line of JSON results.
wh() { "$PY" -c 'import json,sys; [print("%r %r" % (float(d["width"]), float(d["height"]))) for d in map(json.loads, open(sys.argv[1]))]' "$1"; }
for text in "Settings 12:45" "设置 骨" "설정 設定" "ש0 abc" "नमस्ते x"; do
  for font in "Sans 10" "Monospace 12"; do printf '{"text": "%s", "font": "%s"}\n' "$text" "$font"; done
done >"$work/texts"
for language in ta-IN ka-GE ko zh-CN ar he hi ja ru de c; do
  "$PY" Tests/oracle/pango_measure.py --language "$language" <"$work/texts" >"$work/pango"
  "$FITCTL" measure --batch --language "$language" <"$work/texts" >"$work/fitd"
  assert_eq "$(wh "$work/fitd")" "$(wh "$work/pango")" "5 texts in Sans 10 and Monospace 12, language $language"
done
ok "class 2: Settings 12:45 in Sans 10 with bn-IN measures as Pango's ($expected); 5 texts x 2 fonts x 11 languages agree"

# LANGUAGE gives Pango's preferred languages: Han in an en-us context takes zh-cn's font.
font_of_han() {
  LANGUAGE=$1 "$FITCTL" measure "设置 骨" --font "Sans 10" --language en-us --json --local | json_get 'd["fonts"][0]'
}
pango_font_of_han() {
  echo '{"text": "设置 骨", "font": "Sans 10", "debug": true}' | "$PY" Tests/oracle/pango_measure.py --preferred-languages "$1" \
    | json_get '" ".join(d["runs"][0][0]["font"].split()[:-1])'
}
for preferred in zh_CN zh_TW:en C:ja; do
  assert_eq "$(font_of_han "$preferred")" "$(pango_font_of_han "$preferred")" "Han's font with LANGUAGE=$preferred"
done
assert_eq "$(font_of_han zh_CN)" "Noto Sans CJK SC" "Han's font with LANGUAGE=zh_CN"
ok "LANGUAGE=zh_CN picks Noto Sans CJK SC for Han, as Pango does (zh_TW: TC, C:ja: JP)"

# Two callers in different languages at once: each gets its own fonts, through the result
# cache (the same text and font, only the language differs).
for i in 1 2 3 4; do
  "$FITCTL" measure "骨直" --font "Sans 10" --language ja --json >"$work/ja$i" &
  "$FITCTL" measure "骨直" --font "Sans 10" --language zh-CN --json >"$work/zh$i" &
done
wait
for i in 1 2 3 4; do
  assert_eq "$(json_get 'd["fonts"]' <"$work/ja$i")" "['Noto Sans CJK JP']" "fonts of 骨直 in ja, caller $i"
  assert_eq "$(json_get 'd["fonts"]' <"$work/zh$i")" "['Noto Sans CJK SC']" "fonts of 骨直 in zh-CN, caller $i"
done
printf '{"text": "骨直", "font": "Sans 10", "language": "%s"}\n' ja zh-cn ja zh_CN >"$work/batch"
"$FITCTL" measure --batch <"$work/batch" >"$work/out"
assert_eq "$("$PY" -c 'import json,sys; print(",".join(json.loads(l)["fonts"][0] for l in open(sys.argv[1])))' "$work/out")" \
  "Noto Sans CJK JP,Noto Sans CJK SC,Noto Sans CJK JP,Noto Sans CJK SC" "fonts of a MeasureBatch alternating ja and zh-CN"
ok "ja and zh-CN at once (8 callers, and one batch) each get their own font"

# A bad language is InvalidArgument naming the option, on the bus and in fitctl.
"$PY" - <<'PY' || fail "see above"
import dbus
fit = dbus.Interface(dbus.SessionBus().get_object("org.fitd.Fit1", "/org/fitd/Fit1"), "org.fitd.Fit1")
for bad in ["en US", "", "x" * 65, "bn.IN"]:
    try:
        fit.Measure("x", "Sans 10", {"language": bad})
        raise SystemExit(f"language {bad!r} was accepted")
    except dbus.DBusException as e:
        assert e.get_dbus_name() == "org.fitd.Fit1.Error.InvalidArgument", (bad, e.get_dbus_name())
        assert "language" in e.get_dbus_message(), (bad, e.get_dbus_message())
try:
    fit.Measure("x", "Sans 10", {"language": dbus.UInt32(1)})
    raise SystemExit("a numeric language was accepted")
except dbus.DBusException as e:
    assert e.get_dbus_name() == "org.fitd.Fit1.Error.InvalidArgument", e.get_dbus_name()
PY
if "$FITCTL" measure x --language "en US" >/dev/null 2>"$work/err"; then fail "fitctl accepted --language 'en US'"; fi
grep -q language "$work/err" || fail "fitctl's error does not name the language: $(cat "$work/err")"
ok "a bad language is InvalidArgument naming language (bus and fitctl)"

# Layout takes the language too: a text's ideal width is Pango's in that language (and the
# layout cache keeps the two apart).
echo '{"version": 1, "nodes": [{"id": "t", "kind": "text", "text": "Settings 12:45 ש0"}]}' >"$work/doc.json"
for language in c bn-IN c; do
  expected=$(pango "$language" "Settings 12:45 ש0" "Sans 10" | cut -d' ' -f1)
  got=$("$FITCTL" fit "$work/doc.json" --ui-font "Sans 10" --language "$language" --json | json_get 'repr(float(d["size"]["width"]))')
  assert_eq "$got" "$expected" "layout width of Settings 12:45 ש0 in Sans 10, language $language"
done
ok "Layout with language c and bn-IN: Pango's widths (108.82 and 109.68)"
