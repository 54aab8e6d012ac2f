#!/usr/bin/env bash
# Bad input, table-driven (docs/reliability.md): ≥ 30 classes of bad calls, each with its exact
# named error and a message that names the problem, the same daemon answering a cheap call
# after every one, and its RSS back within 1.5 x of its start at the end. The table and the
# checks: Tests/Reliability/bad_input_classes.py.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

PYTHONPATH="$ROOT/Tests/Reliability" "$PY" "$ROOT/Tests/Reliability/bad_input_classes.py" || fail "see above"
