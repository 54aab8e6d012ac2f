#!/usr/bin/env bash
# The Python package (clients/python) against the built fitd on a private bus: its pytest
# suite (every method, sync and async, errors, GenerationChanged, layouts equal to fitctl
# fit --json), then DaemonUnavailable on a bus where org.fitd.Fit1 cannot be activated.
source "$(dirname "$0")/lib.bash"
[ -x "$FITD_PY" ] || fail "no $FITD_PY: scripts/bootstrap makes it"
if [ -z "${E2E_INNER:-}" ]; then
  # No daemon to be had: a bus without the service file. Outside the private bus below.
  out=$("$ROOT/scripts/private-bus" --no-service -- "$FITD_PY" - 2>&1 <<'PY'
import fitd
try:
    fitd.Client(timeout=10).measure("x")
except fitd.DaemonUnavailable as error:
    assert error.name == "org.freedesktop.DBus.Error.ServiceUnknown", error.name
    print(f"DaemonUnavailable: {error}")
else:
    raise SystemExit("measure succeeded on a bus without fitd")
PY
) || fail "no activatable daemon: $out"
  ok "a bus without org.fitd.Fit1: $(echo "$out" | grep -m1 "^DaemonUnavailable" | head -c 200)"
fi
on_private_bus "$@"
export FITCTL
log=$(mktemp); trap 'rm -f "$log"' EXIT
"$FITD_PY" -m pytest -q -p no:cacheprovider clients/python >"$log" 2>&1 || { cat "$log" >&2; fail "pytest clients/python"; }
ok "pytest clients/python: $(tail -n 1 "$log")"
