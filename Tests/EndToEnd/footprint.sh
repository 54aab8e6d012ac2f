#!/usr/bin/env bash
# What the daemon links (idle RSS at most 20 MB, README.md): no Foundation, whose libraries
# (Foundation, FoundationInternationalization, _FoundationICU) would be 6 MB of fitd's idle
# memory, neither as shared libraries (ldd) nor linked in statically (its symbols, nm); nor
# FoundationEssentials (3.9 MB of code and about 0.5 MB of idle RSS when swift-argument-parser
# brought it in: fitd parses its own options, DaemonOptions). The system libraries stay shared. Works on the debug build the tests use and on `make release`'s static one.
source "$(dirname "$0")/lib.bash"
[ -x "$FITD" ] || fail "no fitd at $FITD"

libraries=$(ldd "$FITD") || fail "ldd $FITD failed"
for lib in libFoundation.so libFoundationInternationalization.so lib_FoundationICU.so; do
  grep -qF "$lib" <<<"$libraries" && fail "fitd links $lib: $(grep -F "$lib" <<<"$libraries")"
done
grep -q "not found" <<<"$libraries" && fail "a library of fitd is missing: $(grep "not found" <<<"$libraries")"
for lib in libdbus-1.so libfontconfig.so libharfbuzz.so libicuuc.so; do
  grep -qF "$lib" <<<"$libraries" || fail "fitd does not load $lib from the system"
done
ok "ldd: no Foundation, FoundationInternationalization or _FoundationICU; libdbus, fontconfig, HarfBuzz, ICU shared"

# Swift mangles the module Foundation as "10Foundation" ($s10Foundation4DataV…) and
# FoundationEssentials as "20FoundationEssentials"; a static build would carry such symbols
# without any line in ldd.
foundation=$(nm "$FITD" 2>/dev/null | grep -cE '(^|[^0-9])(10Foundation|20FoundationEssentials)[A-Za-z0-9_]') || true
assert_eq "$foundation" 0 "symbols of the Foundation and FoundationEssentials modules in fitd"
ok "nm: no symbol of the Foundation or FoundationEssentials modules"
