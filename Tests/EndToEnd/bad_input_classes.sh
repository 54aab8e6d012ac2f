#!/usr/bin/env bash
# Bad input, table-driven (docs/reliability.md): ≥ 30 classes of bad calls, each with its exact
# named error and a message that names the problem, the same daemon answering a cheap call
# after every one, and its RSS back within 1.5 x of its start once it is idle. The table and the
# checks: Tests/Reliability/bad_input_classes.py.
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"

# Written before the first call activates the daemon (XDG_CONFIG_HOME is the test's own):
# caches emptied once quiet for 1 s instead of 60 (IdleTrim checks every 5 s, so 5 to 10 s after
# the last request), so that idle RSS is reached within the test's time.
mkdir -p "$XDG_CONFIG_HOME/fitd"
printf '[limits]\nidle_release_seconds = 1\n' >"$XDG_CONFIG_HOME/fitd/fitd.conf"

PYTHONPATH="$ROOT/Tests/Reliability" "$PY" "$ROOT/Tests/Reliability/bad_input_classes.py" || fail "see above"
