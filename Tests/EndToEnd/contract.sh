#!/usr/bin/env bash
# protocol/org.fitd.Fit1.xml is the contract: what the running daemon introspects (gdbus
# introspect --xml) must declare the same methods, arguments (name, type, direction),
# properties (type, access, and the EmitsChangedSignal annotation: what a GDBus proxy caches and
# waits for) and signals, compared structurally (doc annotations and the standard
# org.freedesktop.DBus.* interfaces aside). And every error name protocol/README.md
# documents must exist in FitProtocol, and the reverse.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

live=$(mktemp); trap 'rm -f "$live"' EXIT
gdbus introspect --session --xml -d "$BUS" -o "$OBJ" >"$live" || fail "gdbus introspect failed"

"$PY" - "$live" protocol/org.fitd.Fit1.xml <<'PY' || fail "the running daemon does not match protocol/org.fitd.Fit1.xml"
import sys
import xml.etree.ElementTree as ET

def shape(path):
    """Interface name -> its members, without annotations; standard interfaces left out."""
    out = {}
    for iface in ET.parse(path).getroot().findall("interface"):
        name = iface.get("name")
        if name.startswith("org.freedesktop.DBus."):
            continue
        members = {}
        for kind in ("method", "signal"):
            for m in iface.findall(kind):
                # A signal's args have no direction attribute (introspect.dtd): "out".
                args = [(a.get("name"), a.get("type"), a.get("direction") or ("in" if kind == "method" else "out"))
                        for a in m.findall("arg")]
                members[f"{kind} {m.get('name')}"] = args
        for p in iface.findall("property"):
            # Absent means "true" (D-Bus specification, org.freedesktop.DBus.Properties).
            emits = {a.get("name"): a.get("value") for a in p.findall("annotation")}.get(
                "org.freedesktop.DBus.Property.EmitsChangedSignal", "true")
            members[f"property {p.get('name')}"] = (p.get("type"), p.get("access"), f"EmitsChangedSignal {emits}")
        out[name] = members
    return out

live, contract = shape(sys.argv[1]), shape(sys.argv[2])
problems = []
for iface in sorted(set(live) | set(contract)):
    if iface not in live:
        problems.append(f"interface {iface}: in the contract, not in the daemon"); continue
    if iface not in contract:
        problems.append(f"interface {iface}: in the daemon, not in the contract"); continue
    a, b = live[iface], contract[iface]
    for member in sorted(set(a) | set(b)):
        if member not in a: problems.append(f"{iface} {member}: in the contract, not in the daemon")
        elif member not in b: problems.append(f"{iface} {member}: in the daemon, not in the contract")
        elif a[member] != b[member]: problems.append(f"{iface} {member}: daemon {a[member]} != contract {b[member]}")
for p in problems:
    print("  " + p, file=sys.stderr)
count = sum(len(m) for m in contract.values())
if not problems:
    print(f"contract: ok: {count} members of {', '.join(sorted(contract))} match")
sys.exit(1 if problems else 0)
PY

# The standard interfaces are there too (FitBus answers them).
for std in Introspectable Peer Properties; do
  grep -q "interface name=\"org.freedesktop.DBus.$std\"" "$live" || fail "the daemon does not introspect org.freedesktop.DBus.$std"
done
ok "Introspectable, Peer and Properties are introspected"

# Error names: documented in protocol/README.md <-> declared in FitNames.swift.
documented=$(grep -oE 'org\.fitd\.Fit1\.Error\.[A-Za-z]+' protocol/README.md | sort -u)
declared=$(grep -oE '"org\.fitd\.Fit1\.Error\.[A-Za-z]+"' Sources/FitProtocol/FitNames.swift | tr -d '"' | sort -u)
[ -n "$documented" ] || fail "protocol/README.md documents no error names"
missing=$(comm -23 <(echo "$documented") <(echo "$declared"))
[ -z "$missing" ] || fail "documented in protocol/README.md but not in FitNames.swift: $missing"
undocumented=$(comm -13 <(echo "$documented") <(echo "$declared"))
[ -z "$undocumented" ] || fail "declared in FitNames.swift but not documented in protocol/README.md: $undocumented"
ok "$(echo "$documented" | wc -l) error names documented and declared alike"

# Every method, property and signal of the contract is documented in protocol/README.md (as
# `name`). Measure's option keys are checked against the README's table, key and type, by
# FitProtocolTests' MeasureOptionTableTests, from the table the codec reads them with.
undocumented=$("$PY" - protocol/org.fitd.Fit1.xml protocol/README.md <<'PY'
import sys
import xml.etree.ElementTree as ET
xml, readme = sys.argv[1], open(sys.argv[2]).read()
names = [m.get("name") for iface in ET.parse(xml).getroot().findall("interface")
         for kind in ("method", "property", "signal") for m in iface.findall(kind)]
print(" ".join(n for n in names if f"`{n}`" not in readme))
PY
)
[ -z "$undocumented" ] || fail "not documented in protocol/README.md: $undocumented"
ok "every method, property and signal is documented in protocol/README.md"
