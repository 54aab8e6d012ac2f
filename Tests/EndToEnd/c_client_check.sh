#!/usr/bin/env bash
# libfitd-client's translation check as application developers meet it (clients/c/README.md,
# "Will every translation fit?"): a C program (clients/c/tests/check.c), a GJS script
# (check.js), a Vala program (check.vala) and PyGObject check GTK's own file-chooser strings
# (protocol/examples/translations/gtk-new-folder-dialog.json) against the installed gtk40
# catalog in es and ta, at large and accessibilityLarge, 240 and 360 px, through the daemon on
# a private bus and with local; the typed report is `fitctl check --json`'s (every finding in
# order: kind, language, category, width, node, text, detail), Spanish's "Nombre de la
# carpeta" is cut at accessibilityLarge in 240 px, Tamil lacks messages. Bad input: an unknown
# category is FIT_ERROR_INVALID_ARGUMENT in fitctl's words, a broken document
# FIT_ERROR_INVALID_DOCUMENT naming the file, no fitctl G_IO_ERROR_NOT_FOUND, a cancelled
# check G_IO_ERROR_CANCELLED; a report that is not as fitctl writes it is FIT_ERROR_INTERNAL
# naming the place, never a crash (3,000 mutated reports).
source "$(dirname "$0")/lib.bash"

if [ -z "${E2E_INNER:-}" ]; then
  for language in es ta; do
    [ -f "/usr/share/locale/$language/LC_MESSAGES/gtk40.mo" ] \
      || skip "GTK 4's $language catalog (/usr/share/locale/$language/LC_MESSAGES/gtk40.mo, package libgtk-4-common) is not installed"
  done
  command -v gjs >/dev/null || skip "gjs is missing (scripts/bootstrap installs it)"
  command -v valac >/dev/null || skip "valac is missing (scripts/bootstrap installs it)"
  pkg-config --exists json-glib-1.0 || skip "json-glib is missing (scripts/bootstrap installs libjson-glib-dev)"
  [ -x "$FITCTL" ] || fail "no fitctl at $FITCTL (swift build first, or set FITCTL)"
  # Built and installed from scratch, outside the private bus's time limit (as c_client.sh).
  c_client_build check
  [ -e "$prefix/include/fitd-client/fit-check.h" ] || fail "meson install left out fit-check.h"
  for name in CheckReport CheckFinding WorstString CandidateWidth; do
    grep -q "public sealed class $name : GLib.Object" "$prefix/share/vala/vapi/fitd-client.vapi" || fail "the VAPI has no Fitd.$name"
    grep -q "<class name=\"$name\"" "$prefix/share/gir-1.0/Fitd-1.0.gir" || fail "the GIR has no Fitd.$name"
  done
  c_client_compile check clients/c/tests/check.c clients/c/tests/check.vala
  ok "installed: fit-check.h; Fitd.CheckReport, CheckFinding, WorstString, CandidateWidth in the GIR and VAPI; tests/check.c (-Wall -Wextra -Werror) and check.vala compile against them"
fi
on_private_bus "$@"

prefix=$C_WORK/prefix
export LD_LIBRARY_PATH=$prefix/lib GI_TYPELIB_PATH=$prefix/lib/girepository-1.0
out=$C_WORK/out; mkdir -p "$out"
doc=protocol/examples/translations/gtk-new-folder-dialog.json
args=("$doc" gtk40 240,360 es,ta large,accessibilityLarge)

# 1. The typed report is fitctl's own: C through the daemon (sync and async, which check.c
#    compares) and with local, against `fitctl check --json` the same way.
compare_report() {  # compare_report TYPED-LINES FITCTL-JSON WHAT
  "$PY" - "$1" "$2" "$3" <<'PY'
import json, sys
rows = [line.split("\t") for line in open(sys.argv[1], encoding="utf-8").read().splitlines()]
want = json.load(open(sys.argv[2], encoding="utf-8"))
what = sys.argv[3]
problems = []
def check(name, got, expected):
    if got != expected: problems.append(f"{name}: typed {got!r}, fitctl {expected!r}")
num = lambda text: float(text)
opt = lambda text: None if text == "-" else text
minus = lambda value: -1.0 if value is None else float(value)
report = next(r for r in rows if r[0] == "report")
check("report", (report[1], report[2].split(","), report[3].split(","), [num(w) for w in report[4].split(",")],
                 int(report[5]), report[6] == "1", num(report[7])),
      (want["source_language"], want["languages"], want["categories"], [float(w) for w in want["widths"]],
       want["layouts"], want["fits"], float(want["text_scale"])))
findings = [r for r in rows if r[0] == "finding"]
check("findings", [(r[1], r[2], opt(r[3]), num(r[4]), opt(r[5]), opt(r[6]), r[7], num(r[8]), r[9] == "1") for r in findings],
      [(f["kind"], f["language"], f.get("category"), minus(f.get("width")), f.get("node"), f.get("text"), f["detail"],
        minus(f.get("frame_width")), f["failing"]) for f in want["findings"]])
check("failures", int(next(r for r in rows if r[0] == "failures")[1]), sum(f["failing"] for f in want["findings"]))
check("worst strings", [(r[1], r[2], r[3], num(r[4]), num(r[5]), r[6], num(r[7])) for r in rows if r[0] == "worst"],
      [(w["language"], w["node"], w["text"], float(w["natural_width"]), float(w["room"]), w["category"], minus(w.get("width")))
       for w in want["worst_strings"]])
check("candidate widths", [(r[1], r[2], int(r[3]), opt(r[4]), opt(r[5]), num(r[6]), num(r[7]), opt(r[8]), opt(r[9]))
                           for r in rows if r[0] == "candidate"],
      [(c["decision"], c["category"], c["candidate"], c.get("candidate_id"), c.get("language"), minus(c.get("px")),
        minus(c.get("sp")), c.get("fallback_condition"), c.get("fallback_condition_px")) for c in want["candidate_widths"]])
# What the brief of this check promises a reader: Spanish's new-folder label is cut at the
# accessibility size in 240 px, and fails the check; Tamil's catalog lacks messages.
cut = [r for r in findings if r[1] == "truncated" and r[2] == "es"]
check("es cut", [(r[3], num(r[4]), r[6], r[9]) for r in cut], [("accessibilityLarge", 240.0, "Nombre de la carpeta", "1")])
missing = {r[6] for r in findings if r[1] == "missing" and r[2] == "ta"}
if "Folder Name" not in missing: problems.append(f"ta's missing messages: {sorted(missing)}")
if not any(r[0] == "candidate" and r[8] != "-" for r in rows): problems.append("no candidate width with a fallback condition")
for p in problems: print(f"  {what}: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}
status=0
"$FITCTL" check "$doc" --translations gtk40 --languages es,ta --categories large,accessibilityLarge --widths 240,360 --json \
  >"$out/fitctl.json" 2>"$out/fitctl.err" || status=$?
assert_eq "$status" 1 "fitctl check's status ($(cat "$out/fitctl.err"))"
"$C_WORK/check" "${args[@]}" >"$out/c" 2>&1 || fail "check.c: $(cat "$out/c")"
compare_report "$out/c" "$out/fitctl.json" "C through the daemon" || fail "C's report is not fitctl's"
status=0
"$FITCTL" check "$doc" --translations gtk40 --languages es,ta --categories large,accessibilityLarge --widths 240,360 --json \
  --local >"$out/fitctl-local.json" 2>"$out/fitctl.err" || status=$?
assert_eq "$status" 1 "fitctl check --local's status ($(cat "$out/fitctl.err"))"
"$C_WORK/check" "${args[@]}" local >"$out/c-local" 2>&1 || fail "check.c local: $(cat "$out/c-local")"
compare_report "$out/c-local" "$out/fitctl-local.json" "C, local" || fail "C's local report is not fitctl's"
ok "C: fit_check_run_sync and _async give fitctl check --json's report through the daemon and local: $(grep -c '^finding' "$out/c") findings in order (kinds, languages, texts, details), es's 'Nombre de la carpeta' cut at accessibilityLarge 240 px, ta's missing messages, worst strings, candidate widths"

# 2. GJS (awaited, promisified) and Vala (async) print the same lines.
gjs -m clients/c/tests/check.js "${args[@]}" >"$out/gjs" 2>&1 || fail "check.js: $(cat "$out/gjs")"
cmp -s "$out/c" "$out/gjs" || fail "C and GJS differ: $(diff "$out/c" "$out/gjs")"
"$C_WORK/vala/check-vala" "${args[@]}" local >"$out/vala" 2>&1 || fail "check.vala: $(cat "$out/vala")"
cmp -s "$out/c-local" "$out/vala" || fail "C and Vala differ: $(diff "$out/c-local" "$out/vala")"
ok "GJS (Fitd.check_run_async promisified) and Vala (Fitd.check_run_async.begin) read the same report as C"

# 3. Bad input, in C, GJS and Vala: the same error line.
same_error() {  # same_error WHAT EXPECTED-REGEX ARGS…
  local what=$1 expected=$2 lang status
  shift 2
  for lang in c gjs vala; do
    status=0
    case $lang in
      c) "$C_WORK/check" "$@" ;;
      gjs) gjs -m clients/c/tests/check.js "$@" ;;
      vala) "$C_WORK/vala/check-vala" "$@" ;;
    esac >"$out/err.$lang" 2>&1 || status=$?
    assert_eq "$status" 1 "$lang $what: exit status ($(cat "$out/err.$lang"))"
    head -1 "$out/err.$lang" | grep -qE "$expected" || fail "$lang $what: $(cat "$out/err.$lang"), expected /$expected/"
  done
  cmp -s <(head -1 "$out/err.c") <(head -1 "$out/err.gjs") || fail "$what: C and GJS say differently: $(cat "$out/err.c" "$out/err.gjs")"
  cmp -s <(head -1 "$out/err.c") <(head -1 "$out/err.vala") || fail "$what: C and Vala say differently: $(cat "$out/err.c" "$out/err.vala")"
}
code() { grep -oE 'FIT_ERROR_[A-Z_]+,' clients/c/fit-client.h | grep -n "^$1,\$" | cut -d: -f1 | awk '{print $1 - 1}'; }
# fitctl's words for the unknown category, from fitctl itself.
"$FITCTL" check "$doc" --translations gtk40 --widths 240 --categories enormous --local >/dev/null 2>"$out/usage.err" && fail "fitctl took --categories enormous"
words=$(sed -n 's/^Error: //p' "$out/usage.err")
[ -n "$words" ] || fail "fitctl's usage error: $(cat "$out/usage.err")"
same_error "an unknown category" "^error fit-error-quark $(code FIT_ERROR_INVALID_ARGUMENT): $(printf '%s' "$words" | sed 's/[][\.*^$(){}?+|/]/\\&/g')\$" \
  "$doc" gtk40 240 es enormous local
grep -qx 'matches Fitd.Error.INVALID_ARGUMENT' "$out/err.gjs" || fail "GJS: an unknown category is not Fitd.Error.INVALID_ARGUMENT"
grep -qx 'matches Fitd.Error.INVALID_ARGUMENT' "$out/err.vala" || fail "Vala: an unknown category is not caught as Fitd.Error.INVALID_ARGUMENT"
printf '{"version": 1, "root": {"kind": "text", ' >"$out/broken.json"
same_error "a broken document" "^error fit-error-quark $(code FIT_ERROR_INVALID_DOCUMENT): $out/broken\.json:1:[0-9]+: " \
  "$out/broken.json" gtk40 240 es - local
same_error "an unknown language" "^error fit-error-quark $(code FIT_ERROR_INVALID_DOCUMENT): gtk40: no translation into \"xx\"" \
  "$doc" gtk40 240 xx - local
# No fitctl: none in $FITCTL, none on PATH.
for lang in c gjs; do
  status=0
  case $lang in
    c) env -u FITCTL PATH=/nonexistent "$C_WORK/check" "$doc" gtk40 240 es - local ;;
    gjs) env -u FITCTL PATH=/nonexistent "$(command -v gjs)" -m clients/c/tests/check.js "$doc" gtk40 240 es - local ;;
  esac >"$out/none.$lang" 2>&1 || status=$?
  assert_eq "$status" 1 "$lang without fitctl: exit status ($(cat "$out/none.$lang"))"
  grep -qE '^error g-io-error-quark 1: fitctl is not installed' "$out/none.$lang" || fail "$lang without fitctl: $(cat "$out/none.$lang")"
done
grep -qx 'matches Gio.IOErrorEnum.NOT_FOUND' "$out/none.gjs" || fail "GJS without fitctl: not Gio.IOErrorEnum.NOT_FOUND"
status=0
"$C_WORK/check" "$doc" gtk40 240 es - cancel >"$out/cancel" 2>&1 || status=$?
grep -qE '^error g-io-error-quark 19: ' "$out/cancel" || fail "a cancelled check: $(cat "$out/cancel")"
# fitctl's other endings, from stand-ins: no engine (status 69) is G_DBUS_ERROR_SERVICE_UNKNOWN
# in its words; a signal, output that is not UTF-8 and a report missing a member FIT_ERROR_INTERNAL.
fake=$C_WORK/fake; mkdir -p "$fake"
printf '#!/bin/sh\necho "fitctl check: no daemon: nothing answers" >&2\nexit 69\n' >"$fake/unavailable"
printf '#!/bin/sh\nkill -9 $$\n' >"$fake/killed"
printf '#!/bin/sh\nprintf "\\377\\376"\n' >"$fake/not-utf8"
printf '%s\n' '#!/bin/sh' "echo '{\"source_language\": \"en\"}'" >"$fake/partial"
chmod +x "$fake"/*
for stand_in in "unavailable|^error g-dbus-error-quark 2: fitctl check: no daemon: nothing answers\$" \
  "killed|^error fit-error-quark $(code FIT_ERROR_INTERNAL): fitctl check was killed by signal 9\$" \
  "not-utf8|^error fit-error-quark $(code FIT_ERROR_INTERNAL): fitctl check's output could not be read: " \
  "partial|^error fit-error-quark $(code FIT_ERROR_INTERNAL): fitctl check's report is not as this library reads it: the report has no \"languages\"\$"; do
  status=0
  FITCTL=$fake/${stand_in%%|*} "$C_WORK/check" "$doc" gtk40 240 es - >"$out/stand-in" 2>&1 || status=$?
  assert_eq "$status" 1 "a fitctl that ends ${stand_in%%|*}: exit status ($(cat "$out/stand-in"))"
  grep -qE "${stand_in#*|}" "$out/stand-in" || fail "a fitctl that ends ${stand_in%%|*}: $(cat "$out/stand-in")"
done
ok "an unknown category is FIT_ERROR_INVALID_ARGUMENT in fitctl's words; a broken document and an unknown language FIT_ERROR_INVALID_DOCUMENT naming the file or catalog; no fitctl G_IO_ERROR_NOT_FOUND; a cancelled check G_IO_ERROR_CANCELLED — alike in C, GJS and Vala; fitctl reaching no engine G_DBUS_ERROR_SERVICE_UNKNOWN, killed, not UTF-8 or a partial report FIT_ERROR_INTERNAL"

# 4. PyGObject, as clients/c/README.md shows it: the same report, the same errors; and a report
#    that is not fitctl's (untrusted text) is FIT_ERROR_INTERNAL naming the place, never a crash.
"$PY" - "$doc" "$out/fitctl.json" "$out/broken.json" <<'PY' || fail "PyGObject on the translation check"
import json, os, random, sys
import gi
gi.require_version("Fitd", "1.0")
from gi.repository import Fitd, GLib
doc, fitctl_json, broken = sys.argv[1:4]
want = json.load(open(fitctl_json, encoding="utf-8"))
report = Fitd.check_run_sync(doc, ["gtk40"], "240,360", ["es", "ta"], ["large", "accessibilityLarge"], False, None)
assert not report.get_fits() and list(report.get_languages()) == want["languages"]
got = [(f.get_kind(), f.get_language(), f.get_category(), f.get_text(), f.get_detail()) for f in report.get_findings()]
assert got == [(f["kind"], f["language"], f.get("category"), f.get("text"), f["detail"]) for f in want["findings"]], got
assert list(report.get_widths()) == [240.0, 360.0], report.get_widths()
cut = [f for f in report.get_failures() if f.get_language() == "es"]
assert [(f.get_category(), f.get_width(), f.get_text()) for f in cut] == [("accessibilityLarge", 240.0, "Nombre de la carpeta")]
for call, expected in ((lambda: Fitd.check_run_sync(doc, ["gtk40"], "240", None, ["enormous"], True, None), Fitd.Error.INVALID_ARGUMENT),
                       (lambda: Fitd.check_run_sync(broken, ["gtk40"], "240", None, None, True, None), Fitd.Error.INVALID_DOCUMENT)):
    try:
        call()
        raise SystemExit("bad input was accepted")
    except GLib.Error as e:
        assert e.matches(Fitd.error_quark(), expected), (e.domain, e.code, e.message)
# Untrusted reports: members missing or of another type, and random mutations of a real one.
text = open(fitctl_json, encoding="utf-8").read()
def refused(report_text, place=None):
    try:
        Fitd.CheckReport.new_from_json(report_text)
        return False
    except GLib.Error as e:
        assert e.matches(Fitd.error_quark(), Fitd.Error.INTERNAL), (e.message, report_text[:200])
        assert place is None or place in e.message, (place, e.message)
        return True
without_kind = json.loads(text); del without_kind["findings"][1]["kind"]
assert refused(json.dumps(without_kind), 'findings[1] has no "kind"')
wrong = json.loads(text); wrong["candidate_widths"][0]["px"] = [1]
assert refused(json.dumps(wrong), 'candidate_widths[0] member "px" is not a number')
assert refused(json.dumps(dict(json.loads(text), fits="yes")), 'member "fits" is not true or false')
assert refused("[" * 100000) and refused("") and refused('{"a": 1} {}') and refused("[]", "is not an object")
random.seed(7)
accepted = 0
for _ in range(3000):
    b = bytearray(text.encode())
    for _ in range(random.randint(1, 4)):
        i = random.randrange(len(b))
        choice = random.random()
        if choice < 0.4: b[i] = random.choice(b'{}[]",:0-9.enulltrue ')
        elif choice < 0.7: del b[i:i + random.randint(1, 40)]
        else: b[i:i] = random.choice([b'null', b'"x"', b'[]', b'{}', b'-1', b'1e999', b'"infinity"'])
    try:
        mutated = b.decode()
    except UnicodeDecodeError:
        continue
    accepted += not refused(mutated)
print(f"{len(got)} findings; 3000 mutated reports, {accepted} read, the rest refused as Fitd.Error.INTERNAL")
PY
ok "PyGObject: Fitd.check_run_sync gives fitctl's findings; bad input is Fitd.Error.INVALID_ARGUMENT / INVALID_DOCUMENT; a report missing a member or of another type, and 3,000 mutated reports, are read or refused as Fitd.Error.INTERNAL naming the place, never a crash"
