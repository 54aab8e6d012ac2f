#!/usr/bin/env bash
# Isolation between clients (docs/reliability.md): small calls of one client while two worst-case
# requests of others run; a pipelined flood of 1,000 x 1 MB calls; a client that leaves
# with heavy work queued. Prints p50/p99/max and RSS, asserts p99 <= 100 ms, a bounded
# flood and cancelled work (Tests/Reliability/isolation.py). PARTS="worst-case flood
# disconnect" (the default) picks parts, PROBE_SECONDS (10) the length of each probe.
source "$(dirname "${BASH_SOURCE[0]}")/../EndToEnd/lib.bash"
E2E_TIMEOUT=${E2E_TIMEOUT:-240} on_private_bus "$@"

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
PYTHONPATH="$ROOT/Tests/Reliability" "$PY" "$ROOT/Tests/Reliability/isolation.py" "$work" || fail "see above"
