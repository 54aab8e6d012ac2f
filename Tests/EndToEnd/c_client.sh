#!/usr/bin/env bash
# libfitd-client (clients/c) from scratch: meson builds it from protocol/org.fitd.Fit1.xml
# (gdbus-codegen, g-ir-scanner, vapigen) and installs it into a temporary prefix; the
# generated names are the XML's (UIFont -> fit_client_get_ui_font), the DocStrings reach
# the DocBook, the header and the GIR, FIT_ERROR maps every org.fitd.Fit1.Error.* name FitNames.swift
# declares. Then on a private bus with the built fitd: the C example (compiled with the
# installed fitd-client.pc), the GJS example (the installed typelib), a Vala program (the
# VAPI) and PyGObject print the widths `fitctl measure --json` prints, and a bad font or
# argument is a GError in FIT_ERROR with the code of the daemon's error name.
source "$(dirname "$0")/lib.bash"

if [ -z "${E2E_INNER:-}" ]; then
  # The build runs before the private bus and outside its time limit (about 20 s on 2 cores).
  c_client_build client
  for f in lib/libfitd-client.so lib/pkgconfig/fitd-client.pc include/fitd-client/fit-client.h \
    include/fitd-client/fit-client-generated.h lib/girepository-1.0/Fitd-1.0.typelib \
    share/gir-1.0/Fitd-1.0.gir share/vala/vapi/fitd-client.vapi; do
    [ -e "$prefix/$f" ] || fail "meson install left out $f"
  done
  readelf -d "$prefix/lib/libfitd-client.so" | grep -q 'SONAME.*\[libfitd-client\.so\.0\]' || fail "SONAME is not libfitd-client.so.0"
  assert_eq "$(pkg-config --modversion fitd-client)" "$(cat VERSION)" "pkg-config --modversion fitd-client"
  ok "built from scratch and installed: libfitd-client.so.0, fitd-client.pc $(cat VERSION), headers, GIR, typelib, VAPI"

  # Every generated name is the member's name in snake case with acronyms kept together
  # (UIFont -> ui_font, MeasureBatch -> measure_batch), the interface FitClient.
  "$PY" - protocol/org.fitd.Fit1.xml "$prefix/include/fitd-client/fit-client-generated.h" <<'PY' || fail "generated C names"
import re, sys
import xml.etree.ElementTree as ET
iface = ET.parse(sys.argv[1]).getroot().find("interface")
header = open(sys.argv[2]).read()
snake = lambda name: re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
want = ["FitClient *fit_client_proxy_new_sync", "FitClientProxy", "FitClientIface"]
want += [f"fit_client_call_{snake(m.get('name'))}_sync" for m in iface.findall("method")]
want += [f"fit_client_get_{snake(p.get('name'))} " for p in iface.findall("property")]
want += [f"(*{snake(s.get('name'))})" for s in iface.findall("signal")]
missing = [w for w in want if w not in header]
# A name run together from an acronym (the old fit_fit1_get_uifont).
run_together = sorted(set(re.findall(r"\bfit_\w*(?:uifont|fit1)\w*", header)))
for problem in missing + run_together:
    print("  " + problem, file=sys.stderr)
sys.exit(1 if missing or run_together else 0)
PY
  ok "generated names: fit_client_call_measure_sync … fit_client_get_ui_font, every member in snake case"

  # The DocStrings: every one in gdbus-codegen's DocBook; every method's and property's in the
  # installed header (above its declarations) and in the GIR (the sync call's and the
  # property's docs; every argument's on its parameter), which clients/c/docstrings.py put
  # there (GLib 2.74's gdbus-codegen writes them only into DocBook and rst).
  "$PY" - protocol/org.fitd.Fit1.xml "$C_WORK/build/fitd-client-doc-org.fitd.Fit1.xml" \
    "$prefix/include/fitd-client/fit-client-generated.h" "$prefix/share/gir-1.0/Fitd-1.0.gir" <<'PY' || fail "DocStrings missing"
import html, re, sys
import xml.etree.ElementTree as ET
iface = ET.parse(sys.argv[1]).getroot().find("interface")
doc = lambda e: next((a.get("value") for a in e.findall("annotation") if a.get("name") == "org.gtk.GDBus.DocString"), None)
norm = lambda s: re.sub(r"\s+", " ", s).strip()
docbook = norm(html.unescape(re.sub(r"<[^>]+>", " ", open(sys.argv[2]).read())))
header = norm(open(sys.argv[3]).read())
gir = ET.parse(sys.argv[4]).getroot()
core = "{http://www.gtk.org/introspection/core/1.0}"
gir_docs = {}  # method or property name -> its doc, and name.param -> the parameter's
for e in gir.iter():
    if e.tag in (core + "method", core + "property") and e.find(core + "doc") is not None:
        gir_docs.setdefault(e.get("name"), norm(e.find(core + "doc").text))
        for p in e.iter(core + "parameter"):
            if p.find(core + "doc") is not None:
                gir_docs[e.get("name") + "." + p.get("name")] = norm(p.find(core + "doc").text)
cname = lambda e: next((a.get("value") for a in e.findall("annotation") if a.get("name") == "org.gtk.GDBus.C.Name"),
                       re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", e.get("name")).lower())
problems = []
everything = [e for e in iface.iter() if doc(e)]
for e in everything:
    if not all(norm(p) in docbook for p in doc(e).split("\n\n")):
        problems.append(f"DocBook lacks {e.tag} {e.get('name')}")
for m in iface.findall("method"):
    if norm(doc(m)) not in header: problems.append(f"header lacks {m.get('name')}()")
    sync = f"call_{cname(m)}_sync"
    if norm(doc(m)) not in gir_docs.get(sync, ""): problems.append(f"GIR {sync} lacks its DocString")
    for a in m.findall("arg"):
        param = ("arg_" if a.get("direction") == "in" else "out_") + a.get("name")
        if norm(doc(a)) not in gir_docs.get(f"{sync}.{param}", ""): problems.append(f"GIR {sync} {param} lacks its DocString")
for p in iface.findall("property"):
    if norm(doc(p)) not in header: problems.append(f"header lacks property {p.get('name')}")
    if norm(doc(p)) not in gir_docs.get(cname(p).replace("_", "-"), ""): problems.append(f"GIR property {p.get('name')} lacks its DocString")
for problem in problems:
    print("  " + problem, file=sys.stderr)
assert len(everything) >= 30, f"only {len(everything)} DocStrings"
sys.exit(1 if problems else 0)
PY
  ok "DocStrings: all $(grep -c 'GDBus.DocString"' protocol/org.fitd.Fit1.xml) in the DocBook; methods' and properties' in the header and the GIR, arguments' on the GIR's parameters"

  # FIT_ERROR's table and FitNames.swift name the same errors, and the GIR knows the domain.
  mapped=$(grep -oE '"org\.fitd\.Fit1\.Error\.[A-Za-z]+"' clients/c/fit-client.c | tr -d '"' | sort)
  declared=$(grep -oE '"org\.fitd\.Fit1\.Error\.[A-Za-z]+"' Sources/FitProtocol/FitNames.swift | tr -d '"' | sort)
  assert_eq "$mapped" "$declared" "error names mapped by fit-client.c vs declared in FitNames.swift"
  grep -q 'glib:error-domain="fit-error-quark"' "$prefix/share/gir-1.0/Fitd-1.0.gir" || fail "the GIR has no fit-error-quark domain"
  ok "FIT_ERROR maps all $(echo "$mapped" | wc -l) error names of FitNames.swift; the GIR declares the domain"

  # The C example against the installed .pc, the Vala one against the installed VAPI.
  c_client_compile measure clients/c/examples/measure.c clients/c/examples/measure.vala
  ok "examples/measure.c compiles with pkg-config --cflags --libs fitd-client (-Wall -Wextra -Werror), measure.vala with --pkg fitd-client"
fi
on_private_bus "$@"

prefix=$C_WORK/prefix
export LD_LIBRARY_PATH=$prefix/lib GI_TYPELIB_PATH=$prefix/lib/girepository-1.0
c_example() { "$C_WORK/measure" "$@"; }
gjs_example() { gjs -m clients/c/examples/measure.js "$@"; }
out=$C_WORK/out; mkdir -p "$out"

# The toolkit of the calling process, found at run time: none before GTK is loaded, GTK 4's
# line once it is (what fit_client_default_options() then sends as "metrics"), GTK 3's.
cat >"$C_WORK/toolkit4.js" <<'JS'
import Fitd from 'gi://Fitd';
const before = Fitd.client_toolkit();
const Gtk = (await import('gi://Gtk?version=4.0')).default;
const sent = Fitd.client_default_options().lookup_value('metrics', null)?.unpack();
print(`${before} ${Fitd.client_toolkit()} ${sent} ${Gtk.get_major_version()}.${Gtk.get_minor_version()}`);
JS
cat >"$C_WORK/toolkit3.js" <<'JS'
import Fitd from 'gi://Fitd';
await import('gi://Gtk?version=3.0');
print(`${Fitd.client_toolkit()}`);
JS
# stderr apart: a GLib or GTK warning must not take the place of the answer.
read -r before after sent gtk < <(gjs -m "$C_WORK/toolkit4.js" 2>"$C_WORK/toolkit4.err")
assert_eq "$before $after $sent" "null gtk-4.${gtk#4.} gtk-4.${gtk#4.}" "fit_client_toolkit() before and after GTK 4 is loaded"
assert_eq "$(gjs -m "$C_WORK/toolkit3.js" 2>"$C_WORK/toolkit3.err")" gtk3 "fit_client_toolkit() with GTK 3 ($(cat "$C_WORK/toolkit3.err"))"
ok "fit_client_toolkit(): null without GTK, gtk-$gtk with GTK $gtk loaded (and sent as metrics), gtk3 with GTK 3"

# The same figures as fitctl (which asks the same daemon), to the last bit: the examples print
# %.17g / the shortest round-trip form, compared as doubles.
compare() {  # compare NAME TEXT FONT [MAX_WIDTH]
  local name=$1 text=$2 font=$3 width=${4:-}
  local fitctl_args=("$text" --font "$font" --json)
  [ -z "$width" ] || fitctl_args+=(--max-width "$width")
  "$FITCTL" measure "${fitctl_args[@]}" >"$out/$name.json" 2>"$out/$name.fitctl.err" || fail "fitctl measure $name: $(cat "$out/$name.fitctl.err")"
  [ -s "$out/$name.fitctl.err" ] && fail "fitctl measure $name said: $(cat "$out/$name.fitctl.err")"
  c_example "$text" "$font" ${width:+"$width"} >"$out/$name.c" 2>&1 || fail "measure.c $name: $(cat "$out/$name.c")"
  gjs_example "$text" "$font" ${width:+"$width"} >"$out/$name.gjs" 2>&1 || fail "measure.js $name: $(cat "$out/$name.gjs")"
  cmp -s "$out/$name.c" "$out/$name.gjs" || fail "measure.c and measure.js differ for $name: $(diff "$out/$name.c" "$out/$name.gjs")"
  "$PY" - "$out/$name.json" "$out/$name.c" <<'PY' || fail "measure.c vs fitctl for $name"
import json, sys
want = json.load(open(sys.argv[1]))
got = dict(line.split(" ", 1) for line in open(sys.argv[2]).read().splitlines())
checks = {"width": float(got["width"]) == want["width"], "height": float(got["height"]) == want["height"],
          "baseline": float(got["baseline"]) == want["baseline"], "lines": int(got["lines"]) == want["lines"],
          "truncated": got["truncated"] == str(want["truncated"]).lower(), "fonts": got["fonts"].split(", ") == want["fonts"]}
bad = [k for k, good in checks.items() if not good]
if bad:
    print(f"  {bad}: example {got}, fitctl {want}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
  echo "$(sed -n 's/^width //p' "$out/$name.c")"
}
w1=$(compare hello "Hello, world" "DejaVu Sans 12")
assert_eq "$w1" 94.78125 "width of 'Hello, world' in DejaVu Sans 12"
w2=$(compare wrapped "The quick brown fox jumps over the lazy dog" "DejaVu Sans 10" 100)
w3=$(compare scripts "مرحبا · 你好 · 👍🏽" "sans-serif 11")
ok "measure.c, measure.js and fitctl measure --json agree: $w1, $w2 (wrapped at 100), $w3 (Arabic, CJK, emoji)"
grep -q '^family DejaVu Sans$' "$out/hello.c" && grep -q '^file /.*DejaVuSans\.ttf$' "$out/hello.c" \
  || fail "ResolveFont in measure.c: $(cat "$out/hello.c")"
assert_eq "$(sed -n 's/^ui-font //p' "$out/hello.c")" "$(busctl --user get-property "$BUS" "$OBJ" "$IFACE" UIFont | cut -d'"' -f2)" \
  "UIFont through fit_client_get_ui_font"
ok "ResolveFont and the UIFont property through the generated proxy"

vala_width=$("$C_WORK/vala/measure-vala" "Hello, world" "DejaVu Sans 12" | sed -n 's/^width //p')
assert_eq "$vala_width" 94.78125 "the Vala example's width"
ok "the Vala example (VAPI) measures $vala_width"

# Errors: a GError in FIT_ERROR ("fit-error-quark", GIR's name for the domain) whose code
# is the daemon's error name's position in FitError (fit-client.h).
code_of() { grep -oE 'FIT_ERROR_[A-Z_]+,' clients/c/fit-client.h | grep -n "^$1," | cut -d: -f1 | awk '{print $1 - 1}'; }
expect_error() {  # expect_error EXAMPLE NAME CONST TEXT FONT [MAX_WIDTH]
  local example=$1 name=$2 const=$3 status=0; shift 3
  "$example" "$@" >"$out/err.out" 2>"$out/err" || status=$?
  assert_eq "$status" 1 "$example $* exit status ($(cat "$out/err"))"
  grep -q "fit-error-quark $(code_of "$const"): " "$out/err" || fail "$example $*: not FIT_ERROR $const: $(cat "$out/err")"
  grep -qx "fit error org.fitd.Fit1.Error.$name" "$out/err" || fail "$example $*: not org.fitd.Fit1.Error.$name: $(cat "$out/err")"
}
for example in c_example gjs_example; do
  expect_error $example InvalidFont FIT_ERROR_INVALID_FONT "Hello" "DejaVu Sans 99999"
  expect_error $example InvalidArgument FIT_ERROR_INVALID_ARGUMENT "Hello" "DejaVu Sans 12" -5
done
ok "a 99999 pt font is FIT_ERROR_INVALID_FONT ($(code_of FIT_ERROR_INVALID_FONT)), a negative width FIT_ERROR_INVALID_ARGUMENT ($(code_of FIT_ERROR_INVALID_ARGUMENT)), in C and GJS"

# PyGObject on the typelib: the call, the property, an unknown option as Fitd.Error, the signal.
"$PY" - <<'PY' || fail "PyGObject on the Fitd typelib"
import gi
gi.require_version("Fitd", "1.0")
from gi.repository import Fitd, GLib
fit = Fitd.Client.new_sync(None)
metrics = fit.call_measure_sync("Hello, world", "DejaVu Sans 12", GLib.Variant("a{sv}", {}), None)
assert metrics.unpack()[0] == 94.78125, metrics
assert fit.props.ui_font, "no UIFont"
try:
    fit.call_measure_sync("x", "DejaVu Sans 12", GLib.Variant("a{sv}", {"bogus": GLib.Variant("b", True)}), None)
    raise SystemExit("an unknown option was accepted")
except GLib.Error as e:
    assert e.matches(Fitd.error_quark(), Fitd.Error.UNKNOWN_OPTION), (e.domain, e.code, e.message)

# The generated signal and property cache: another client (fitctl) sets the text scale; the
# proxy hears GenerationChanged and its TextScale follows PropertiesChanged.
import subprocess, os
heard = []
loop = GLib.MainLoop()
fit.connect("generation-changed", lambda _, generation, reasons: (heard.append((generation, list(reasons))), loop.quit()))
before = fit.props.generation
subprocess.run([os.environ["FITCTL"], "scale", "set", "1.25"], check=True, stdout=subprocess.DEVNULL)
GLib.timeout_add_seconds(5, loop.quit)
loop.run()
assert heard and heard[0][0] > before and "text-scale" in heard[0][1], (before, heard)
assert fit.props.text_scale == 1.25, fit.props.text_scale
assert fit.props.generation == heard[0][0], (fit.props.generation, heard)
subprocess.run([os.environ["FITCTL"], "scale", "reset"], check=True, stdout=subprocess.DEVNULL)
print(f"generation {before} -> {heard[0][0]} {heard[0][1]}")
PY
ok "PyGObject: Fitd.Client.new_sync measures 94.78125; an unknown option is Fitd.Error.UNKNOWN_OPTION; generation-changed and TextScale follow fitctl scale set 1.25"
