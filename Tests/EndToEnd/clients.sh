#!/usr/bin/env bash
# The shell client in clients/ against the built fitd on a private bus (the Python package
# has its own: python_client.sh, python_install.sh).
source "$(dirname "$0")/lib.bash"
on_private_bus "$@"
out=$(mktemp); trap 'rm -f "$out"' EXIT

# The shell example: exact figures, wrapping, and an error's exit status.
line=$(clients/shell/measure.sh "Hello, world" "DejaVu Sans 12")
assert_eq "$line" "width=94.78125 height=18.625 baseline=14.8515625 lines=1 truncated=false" "measure.sh"
eval "$(clients/shell/measure.sh "The quick brown fox jumps over the lazy dog" "DejaVu Sans 10" 100)"
[ "$lines" -ge 3 ] && [ "${width%.*}" -le 100 ] || fail "measure.sh with max_width 100: lines=$lines width=$width"
clients/shell/measure.sh "x" "DejaVu Sans 12" -5 >/dev/null 2>"$out" && fail "measure.sh with a negative width succeeded"
grep -q "max_width" "$out" || fail "measure.sh's error does not name max_width: $(cat "$out")"
ok "clients/shell/measure.sh: $line; wraps at 100 px into $lines lines; a bad width exits 1"
