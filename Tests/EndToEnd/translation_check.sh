#!/usr/bin/env bash
# fitctl check through the D-Bus-activated daemon: GTK's own file-chooser strings
# (protocol/examples/translations/gtk-new-folder-dialog.json, msgids of the gtk40 catalog) laid out in
# installed languages; the table, --json, --junit, --output pictures, exit statuses, and bad
# translation input named by file and line. Pinned fonts.
source "$(dirname "$0")/lib.bash"
[ -f /usr/share/locale/de/LC_MESSAGES/gtk40.mo ] && [ -f /usr/share/locale/tg/LC_MESSAGES/gtk40.mo ] \
  || skip "GTK 4's catalogs (/usr/share/locale/*/LC_MESSAGES/gtk40.mo, package libgtk-4-common) are not installed"
on_private_bus "$@"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
doc=protocol/examples/translations/gtk-new-folder-dialog.json
status() { "$@" >"$work/out" 2>"$work/err" && echo 0 || echo $?; }

# Tajik's filter hint is longer than the source's: at 360 px it is cut where English is not.
assert_eq "$(status "$FITCTL" check "$doc" --translations gtk40 --languages de,tg,ar --categories large --widths 240,360)" 1 \
  "exit status when a text does not fit"
grep -qE '^  tg  large  360 px  hint  truncated: ellipsized at its line limit \(1\) in 360 px  "Интихоб' "$work/out" || fail "table: $(cat "$work/out")"
grep -q 'languages × 1 categories × 2 widths' "$work/out" || fail "summary: $(head -1 "$work/out")"
ok "fitctl check: exit 1, the table names the language, category, width, node and the translation that is cut"

assert_eq "$(status "$FITCTL" check "$doc" --translations gtk40 --languages de --categories large --widths 1000)" 0 \
  "exit status when everything fits"
grep -qx 'everything fits' "$work/out" || fail "fitting check: $(cat "$work/out")"
ok "fitctl check: exit 0 when every language fits"

"$FITCTL" check "$doc" --translations gtk40 --languages de,tg,ar,ja --categories large,accessibility1 --widths 240,360 --json \
  --junit "$work/junit.xml" --output "$work/pictures" >"$work/json" && fail "--json check exited 0" || true
"$PY" - "$work" <<'PY' || fail "--json, --junit and --output"
import json, math, os, re, sys
import xml.etree.ElementTree as ET
work = sys.argv[1]
d = json.load(open(f"{work}/json"))
assert d["languages"] == ["ar", "de", "ja", "tg"] and not d["fits"], d["languages"]
cut = [f for f in d["findings"] if f["kind"] == "truncated"]
assert any(f["language"] == "tg" and f["node"] == "hint" and f["width"] == 360 for f in cut), cut
# Every language's widest one-line text, against its room.
assert {w["language"] for w in d["worst_strings"]} == {"ar", "de", "ja", "tg"}, d["worst_strings"]
# Each decision's preferred candidate: the width it needs (exact, to 1/1024 px), in px and sp, and
# a libadwaita condition that falls back at every whole px below it; null where some language
# does not reach it within the range searched (0 to the widest width).
rows = [c for c in d["candidate_widths"] if c["candidate"] == 0]
assert {c["decision"] for c in rows} == {"nameRow", "buttons"}, rows
assert any(c["decision"] == "buttons" and c["category"] == "large" and c["px"] for c in rows), rows
for c in rows:
    if c["px"] is None:
        assert "fallback_condition" not in c, c
        continue
    assert c["px"] * 1024 == int(c["px"] * 1024) and abs(c["sp"] - c["px"] / d["text_scale"]) < 1e-9, c
    assert re.fullmatch(r"max-width: [0-9.]+sp", c["fallback_condition"]), c
    assert c["fallback_condition_px"] == f"max-width: {math.ceil(c['px']) - 1}px", c
# JUnit: a suite per language, a case per category and width and one for its messages, failures
# where the report has them.
root = ET.parse(f"{work}/junit.xml").getroot()
suites = {s.get("name"): s for s in root.findall("testsuite")}
assert set(suites) == {"ar", "de", "ja", "tg"} and all(len(s.findall("testcase")) == 5 for s in suites.values())
assert all(s.findall("testcase")[0].get("name") == "messages" for s in suites.values())
failed = {(s.get("name"), c.get("name")) for s in suites.values() for c in s.findall("testcase") if c.find("failure") is not None}
assert ("tg", "large at 360 px") in failed, failed
assert int(root.get("failures")) == len(failed)
# --output: a picture per failing case and an index that shows them all.
pictures = sorted(p for p in os.listdir(f"{work}/pictures") if p.endswith(".svg"))
assert "tg-large-360.svg" in pictures and len(pictures) == len(failed), (pictures, failed)
index = open(f"{work}/pictures/index.html").read()
assert all(f'src="{p}"' in index for p in pictures), index[:500]
svg = open(f"{work}/pictures/tg-large-360.svg").read()
assert "tg · large · width 360" in svg and "en · large · width 360" in svg
PY
ok "--json (findings, worst strings, exact candidate widths with their libadwaita condition), --junit and --output agree"

# A message the catalog does not have is reported and laid out in the source language.
sed 's/"msgid": "Folder Name"/"msgid": "No such message in gtk40"/' "$doc" >"$work/missing.json"
status "$FITCTL" check "$work/missing.json" --translations gtk40 --languages de --categories large --widths 1000 >/dev/null
grep -q 'de: no translation of "No such message in gtk40"; measured in the source language' "$work/out" \
  || fail "missing message: $(cat "$work/out")"
ok "a msgid missing from a catalog is reported, measured in the source language"

# Printf conversions filled with the document's args: the source's and each translation's in
# its own order (gtk40's German wraps the name in »«); a translation that needs more arguments
# than given fails, by node, in the table and in JUnit's "messages" case.
cat >"$work/args.json" <<'JSON'
{"version": 1, "root": {"id": "col", "kind": "vstack", "children": [
  {"id": "exists", "kind": "text", "lineLimit": 1, "msgid": "%s already exists in the bookmarks list", "args": ["Reports"]},
  {"id": "job", "kind": "text", "lineLimit": 1, "msgid": "%s job #%d", "args": ["Print"]}]}}
JSON
assert_eq "$(status "$FITCTL" check "$work/args.json" --translations gtk40 --widths 1000 --languages de --local)" 1 "a source text needing more args"
grep -q 'job: the text needs argument 2 and "args" gives 1' "$work/err" || fail "args refused: $(cat "$work/err")"
sed -i 's/"args": \["Print"\]/"args": ["Print", "7"]/' "$work/args.json"
assert_eq "$(status "$FITCTL" check "$work/args.json" --translations gtk40 --widths 1000 --languages de --local --json)" 0 "args filled"
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if not d["findings"] and d["worst_strings"][0]["text"] == "»Reports« existiert bereits in der Lesezeichenliste" else 1)' "$work/out" \
  || fail "args: $(cat "$work/out")"
mkdir -p "$work/args-po"
echo de >"$work/args-po/LINGUAS"
printf 'msgid "%%s already exists in the bookmarks list"\nmsgstr "»%%s« existiert bereits"\n\nmsgid "%%s job #%%d"\nmsgstr "%%s-Auftrag #%%d von %%s"\n' >"$work/args-po/de.po"
assert_eq "$(status "$FITCTL" check "$work/args.json" --translations "$work/args-po" --widths 1000 --local --junit "$work/args-junit.xml")" 1 "a translation needing more args"
grep -q 'job  placeholders: the translation of "%s job #%d" needs argument 3 and "args" gives 2; measured as written' "$work/out" \
  || fail "placeholders finding: $(cat "$work/out")"
grep -q '<testcase classname=".*" name="messages">' "$work/args-junit.xml" || fail "no failing messages case: $(cat "$work/args-junit.xml")"
ok "args fill printf conversions in the source and each translation; a translation needing more fails by node (table, JUnit)"

# Bad translation input: the file and line, exit 1; usage errors exit 64.
mkdir -p "$work/po"
echo de >"$work/po/LINGUAS"
printf 'msgid "_Cancel"\nmsgstr "_Abbrechen\n' >"$work/po/de.po"
assert_eq "$(status "$FITCTL" check "$doc" --translations "$work/po" --widths 300)" 1 "a .po with a syntax error"
grep -q "$work/po/de.po:2: a string without its closing quote" "$work/err" || fail "syntax error: $(cat "$work/err")"
printf 'msgid ""\nmsgstr "Plural-Forms: nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;\\n"\n\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] "x"\nmsgstr[1] "y"\n' >"$work/po/de.po"
assert_eq "$(status "$FITCTL" check "$doc" --translations "$work/po" --widths 300)" 1 "a .po missing a plural form"
grep -q "$work/po/de.po:4: msgid \"a\" has 2 plural forms but Plural-Forms says nplurals=3" "$work/err" || fail "plural: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" check "$doc" --translations gtk40 --languages xx --widths 300)" 1 "an unknown language"
grep -q 'no translation into "xx"; it has ' "$work/err" || fail "unknown language: $(cat "$work/err")"
assert_eq "$(status "$FITCTL" check "$doc" --translations gtk40)" 64 "no --widths"
assert_eq "$(status "$FITCTL" check "$doc" --widths 300)" 64 "no --translations"
ok "bad input: a .po's syntax error and missing plural form by file and line, an unknown language (exit 1); usage (exit 64)"

# The same document serves fitctl fit: laid out in its source language, the message keys left out.
"$FITCTL" fit "$doc" --flatten >"$work/flat.json" || fail "fitctl fit --flatten of a document with msgids"
grep -q '"msgid"' "$work/flat.json" && fail "the flat form still has msgid keys"
grep -q '"text" : "Create"' "$work/flat.json" || fail "the mnemonic's source text: $(grep -m2 Create "$work/flat.json")"
"$FITCTL" fit "$doc" --width 320 >/dev/null || fail "fitctl fit of a document with msgids"
ok "fitctl fit lays a document with msgids out in its source language"
