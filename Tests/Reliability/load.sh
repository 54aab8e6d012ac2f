#!/usr/bin/env bash
# Guarantees under load: CLIENTS (16) x LOAD_SECONDS (20) of mixed requests with 0 errors
# and identical answers; kill -9 under load, re-activation by the next call, TextScale kept
# (Tests/Reliability/load.py).
source "$(dirname "${BASH_SOURCE[0]}")/../EndToEnd/lib.bash"
E2E_TIMEOUT=${E2E_TIMEOUT:-180} on_private_bus "$@"

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
PYTHONPATH="$ROOT/Tests/Reliability" "$PY" "$ROOT/Tests/Reliability/load.py" "$work" || fail "see above"
