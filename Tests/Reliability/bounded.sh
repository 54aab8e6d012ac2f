#!/usr/bin/env bash
# Every accepted request bounded: the heaviest request of each family fitd accepts answered
# within BOUND_SECONDS (1 s), one past its limit refused at once (Tests/Reliability/bounded.py).
# Timings of the shipped binary: scripts/stress runs it against the release build.
source "$(dirname "${BASH_SOURCE[0]}")/../EndToEnd/lib.bash"
E2E_TIMEOUT=${E2E_TIMEOUT:-240} on_private_bus "$@"

PYTHONPATH="$ROOT/Tests/Reliability" "$PY" "$ROOT/Tests/Reliability/bounded.py" || fail "see above"
