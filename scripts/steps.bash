# The step runner scripts/test and scripts/stress share. `step NAME COMMAND...` runs one
# part, counts it, and keeps the lines of a failed part that say what failed ("NAME: FAIL:
# …" from the test libraries, Swift's "error:" and "✘" lines), so `summarize` can repeat
# them next to the closing line: CI shows only the end of a long log, and a failure
# 10,000 lines up is otherwise invisible there.
passed=0
failed=0
failure_lines=()
step() {
  local name=$1 start=$SECONDS log; shift
  log=$(mktemp)
  echo "=== $name"
  # The command runs in this shell (not in a pipeline's subshell), so a step may set
  # variables, as scripts/test's Swift step does; tee copies its output to the log.
  local status=0
  "$@" > >(tee "$log") 2>&1 || status=$?
  wait $! 2>/dev/null || true
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1)); echo "--- $name: ok ($((SECONDS - start)) s)"
  else
    failed=$((failed + 1)); echo "--- $name: FAILED ($((SECONDS - start)) s)"
    failure_lines+=("$name:")
    local line
    while IFS= read -r line; do failure_lines+=("  $line"); done < <(
      grep -aE ': FAIL|error:|✘|FAILED|Traceback|Error:' "$log" | grep -av '^---' | head -n 12)
  fi
  rm -f "$log"
}
summarize() {  # summarize LABEL: the failed parts' lines, then "LABEL: N passed, N failed"
  echo
  if [ "${#failure_lines[@]}" -gt 0 ]; then
    echo "what failed:"
    printf '%s\n' "${failure_lines[@]}"
  fi
  echo "$1: $passed passed, $failed failed"
}
