# The step runner scripts/test and scripts/stress share. `step NAME COMMAND...` runs one
# part, counts it, and keeps the lines of a failed part that say what failed ("NAME: FAIL:
# …" from the test libraries, Swift's "error:" and "✘" lines), so `summarize` can repeat
# them next to the closing line: CI shows only the end of a long log, and a failure
# 10,000 lines up is otherwise invisible there.
#
# A part that cannot run here (a tool or font missing) exits 77, automake's code for a
# skipped test, after a line saying why ("NAME: SKIP: …", lib.bash's `skip`): it is counted
# and listed as skipped, never as passed. With FITD_REQUIRE_ALL_STEPS=1 (.ci/run) a skip is a
# failure: CI's machine has everything scripts/bootstrap installs.
#
# STEP_ATTEMPTS (default 1) runs a failed step again, up to that many times in all:
# scripts/stress sets 2, because its figures are latencies and seconds on a shared 2-core
# machine, where a burst of other work can push one run past a bound; a real regression
# fails every attempt. A step that passed only on a later attempt is listed, with what
# failed first, so it is seen, never hidden.
passed=0
failed=0
skipped=0
skipped_lines=()
failure_lines=()
retried_lines=()
failing_lines() {  # failing_lines LOG: the lines of a log that say what failed
  grep -aE ': FAIL|error:|✘|FAILED|Traceback|Error:' "$1" | grep -av '^---' | head -n 12
}
step() {
  local name=$1 start=$SECONDS log fifo attempt=1 status line; shift
  local first=()
  log=$(mktemp)
  fifo="$log.fifo"
  echo "=== $name"
  while :; do
    # The command runs in this shell (not in a pipeline's subshell), so a step may set
    # variables, as scripts/test's Swift step does; a tee in the background copies its
    # output to the log through a FIFO. A daemon the step left running may hold the FIFO
    # open: tee gets 5 s to drain it, then goes.
    status=0
    rm -f "$fifo"; mkfifo "$fifo"
    tee "$log" <"$fifo" &
    local tee_pid=$!
    "$@" >"$fifo" 2>&1 || status=$?
    local waited=0
    while kill -0 "$tee_pid" 2>/dev/null && [ "$waited" -lt 50 ]; do sleep 0.1; waited=$((waited + 1)); done
    kill "$tee_pid" 2>/dev/null || true
    wait "$tee_pid" 2>/dev/null || true
    [ "$status" -ne 0 ] && [ "$status" -ne 77 ] && [ "$attempt" -lt "${STEP_ATTEMPTS:-1}" ] || break
    [ "${#first[@]}" -gt 0 ] || while IFS= read -r line; do first+=("  $line"); done < <(failing_lines "$log")
    attempt=$((attempt + 1))
    echo "--- $name: failed; attempt $attempt of ${STEP_ATTEMPTS:-1}"
  done
  if [ "$status" -eq 77 ] && [ "${FITD_REQUIRE_ALL_STEPS:-0}" = 1 ]; then
    # CI's machine is set up by scripts/bootstrap with everything every step needs: a skip
    # there means a step silently stopped testing, so it fails the run.
    failed=$((failed + 1)); echo "--- $name: FAILED: skipped where every step must run (FITD_REQUIRE_ALL_STEPS=1)"
    failure_lines+=("$name: skipped where every step must run: $(grep -a -m1 'SKIP' "$log" || echo 'no reason given')")
  elif [ "$status" -eq 77 ]; then
    skipped=$((skipped + 1)); echo "--- $name: SKIPPED ($((SECONDS - start)) s)"
    skipped_lines+=("$name: $(grep -a -m1 'SKIP' "$log" || echo 'no reason given')")
  elif [ "$status" -eq 0 ]; then
    passed=$((passed + 1)); echo "--- $name: ok ($((SECONDS - start)) s)"
    if [ "$attempt" -gt 1 ]; then retried_lines+=("$name (passed on attempt $attempt; the first said):" "${first[@]}"); fi
  else
    failed=$((failed + 1)); echo "--- $name: FAILED ($((SECONDS - start)) s)"
    failure_lines+=("$name:")
    while IFS= read -r line; do failure_lines+=("  $line"); done < <(failing_lines "$log")
  fi
  rm -f "$log" "$fifo"
}
summarize() {  # summarize LABEL: the failed parts' lines, then "LABEL: N passed, N failed"
  echo
  if [ "${#retried_lines[@]}" -gt 0 ]; then
    echo "passed only when run again:"
    printf '%s\n' "${retried_lines[@]}"
  fi
  if [ "${#failure_lines[@]}" -gt 0 ]; then
    echo "what failed:"
    printf '%s\n' "${failure_lines[@]}"
  fi
  if [ "${#skipped_lines[@]}" -gt 0 ]; then
    echo "skipped (not run here, not counted as passed):"
    printf '  %s\n' "${skipped_lines[@]}"
    echo "$1: $skipped skipped"
  fi
  echo "$1: $passed passed, $failed failed"
}
