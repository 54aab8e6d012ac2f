#!/usr/bin/env bash
# The units, rendered with real paths as `make install` renders them: systemd-analyze verify
# accepts them (and rejects a broken copy, so the check is real), the hardening keeps the
# exposure at 1.5 or less (systemd-analyze security --offline) with the X server's socket
# directory bound into the private /tmp, and the D-Bus activation file
# names the same bus name and unit.
source "$(dirname "$0")/lib.bash"
command -v systemd-analyze >/dev/null || fail "systemd-analyze is missing (apt-get install systemd)"
[ -x "$FITD" ] || fail "no fitd at $FITD"

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# systemd-analyze --user wants a runtime directory of our own (mode 0700).
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 0700 "$XDG_RUNTIME_DIR" "$work/units"
bindir=$(dirname "$FITD")
render() { sed -e "s|@bindir@|$bindir|g" -e "s|@docdir@|$ROOT|g" "$1"; }
render systemd/fitd.service.in >"$work/units/fitd.service"
render systemd/org.fitd.Fit1.service.in >"$work/units/org.fitd.Fit1.service"
grep -qE '@[a-z]+@' "$work"/units/* && fail "a placeholder is left: $(grep -E '@[a-z]+@' "$work"/units/*)"

(cd "$work/units" && systemd-analyze verify --user fitd.service) >"$work/verify.out" 2>&1 \
  || fail "systemd-analyze verify: $(cat "$work/verify.out")"
[ -s "$work/verify.out" ] && fail "systemd-analyze verify complained: $(cat "$work/verify.out")"
ok "systemd-analyze verify --user fitd.service: no complaints"

# A copy with a missing binary must fail verify, or the check above proves nothing.
sed "s|^ExecStart=.*|ExecStart=$work/no-such-fitd|" "$work/units/fitd.service" >"$work/broken.service"
mkdir "$work/broken" && mv "$work/broken.service" "$work/broken/fitd.service"
if (cd "$work/broken" && systemd-analyze verify --user fitd.service) >/dev/null 2>&1; then
  fail "systemd-analyze verify accepted a unit whose ExecStart does not exist"
fi
ok "verify rejects a copy whose ExecStart does not exist"

(cd "$work/units" && systemd-analyze security --offline=true --user fitd.service) >"$work/security.out" 2>&1 \
  || fail "systemd-analyze security: $(tail -5 "$work/security.out")"
line=$(grep 'Overall exposure level' "$work/security.out") || fail "no exposure line: $(tail -5 "$work/security.out")"
exposure=$(echo "$line" | grep -oE '[0-9]+\.[0-9]+' | head -1)
"$PY" -c "import sys; sys.exit(0 if float('$exposure') <= 1.5 else 1)" \
  || fail "exposure $exposure > 1.5; the worst settings: $(grep '✗' "$work/security.out" | head -5)"
ok "$(echo "$line" | sed 's/^→ *//')"
# With that hardening the X display (Xft.dpi) must stay reachable: PrivateNetwork= hides the
# X server's abstract socket, PrivateTmp= its socket file, so /tmp/.X11-unix is bound back
# (unit_sandbox_x11.sh runs fitd in these namespaces against Xvfb).
grep -q '^PrivateTmp=yes$' "$work/units/fitd.service" && ! grep -qx 'BindReadOnlyPaths=-/tmp/.X11-unix' "$work/units/fitd.service" \
  && fail "PrivateTmp=yes without BindReadOnlyPaths=-/tmp/.X11-unix: fitd cannot reach the X server"
ok "PrivateTmp=yes with BindReadOnlyPaths=-/tmp/.X11-unix (the X server's socket file) at exposure $exposure"

unit=$work/units/fitd.service act=$work/units/org.fitd.Fit1.service
assert_eq "$(sed -n 's/^Type=//p' "$unit")" dbus "Type= in fitd.service"
assert_eq "$(sed -n 's/^BusName=//p' "$unit")" "$BUS" "BusName= in fitd.service"
assert_eq "$(sed -n 's/^PrivateUsers=//p' "$unit")" yes "PrivateUsers= (must be explicit on systemd 252)"
assert_eq "$(sed -n 's/^ExecStart=//p' "$unit")" "$FITD" "ExecStart= in fitd.service"
assert_eq "$(sed -n '1,/^\[/p' "$act" | grep -c '^\[D-BUS Service\]')" 1 "the activation file's group"
assert_eq "$(sed -n 's/^Name=//p' "$act")" "$BUS" "Name= in org.fitd.Fit1.service"
assert_eq "$(sed -n 's/^Exec=//p' "$act")" "$FITD" "Exec= in org.fitd.Fit1.service"
assert_eq "$(sed -n 's/^SystemdService=//p' "$act")" fitd.service "SystemdService= in org.fitd.Fit1.service"
ok "fitd.service (Type=dbus, BusName=$BUS) and org.fitd.Fit1.service agree"

# fitd writes fitd.conf: the unit must give it a writable directory that exists for a new
# account (ConfigurationDirectory= creates it below the manager's $XDG_CONFIG_HOME and binds
# it writable), and no ReadWritePaths= under %h that a missing directory would skip.
assert_eq "$(sed -n 's/^ConfigurationDirectory=//p' "$unit")" fitd "ConfigurationDirectory= in fitd.service"
assert_eq "$(sed -n 's/^ConfigurationDirectoryMode=//p' "$unit")" 0700 "ConfigurationDirectoryMode= in fitd.service"
grep -q '^ReadWritePaths=.*%h' "$unit" && fail "ReadWritePaths= under %h is skipped while the directory does not exist"
# The daemon takes the unit's directory from $CONFIGURATION_DIRECTORY: under systemd a Set
# lands there even when the manager's $XDG_CONFIG_HOME is not the shell's.
cfg=$work/unit-config/fitd
mkdir -p "$cfg"
out=$(CONFIGURATION_DIRECTORY=$cfg XDG_CONFIG_HOME=$work/other-config E2E_TIMEOUT=30 \
  "$ROOT/scripts/private-bus" --fitd "$FITD" -- \
  busctl --user set-property "$BUS" "$OBJ" "$IFACE" TextScale d 1.25 2>&1) || fail "Set TextScale under CONFIGURATION_DIRECTORY: $out"
grep -qx 'scale = 1.25' "$cfg/fitd.conf" || fail "fitd.conf not written to \$CONFIGURATION_DIRECTORY: $(ls -la "$cfg" "$work/other-config" 2>&1)"
[ -e "$work/other-config/fitd/fitd.conf" ] && fail "fitd.conf written under \$XDG_CONFIG_HOME too"
ok "fitd writes fitd.conf to systemd's \$CONFIGURATION_DIRECTORY ($cfg)"
