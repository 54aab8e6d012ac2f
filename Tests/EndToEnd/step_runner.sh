#!/usr/bin/env bash
# scripts/steps.bash, the runner of `make test` and `make stress`: a skipped step is counted
# and listed as skipped, never as passed; with FITD_REQUIRE_ALL_STEPS=1 (CI) it fails the run;
# a failure's lines are repeated under "what failed".
source "$(dirname "$0")/lib.bash"

run_steps() {  # run_steps REQUIRE: three steps (pass, skip, fail) through the runner, summarized
  FITD_REQUIRE_ALL_STEPS=$1 bash -c '
    source scripts/steps.bash
    step passing true
    step missing-tool bash -c "echo \"missing-tool: SKIP: frobnicate is not installed\"; exit 77"
    step broken bash -c "echo \"broken: FAIL: 2 != 3\"; exit 1"
    summarize runner' 2>&1
}

out=$(run_steps 0)
grep -qx 'runner: 1 passed, 1 failed' <<<"$out" || fail "a skip was counted as passed or failed: $(tail -3 <<<"$out")"
grep -qx 'runner: 1 skipped' <<<"$out" || fail "the skip was not counted"
grep -q '^  missing-tool: missing-tool: SKIP: frobnicate is not installed' <<<"$out" || fail "the skip's reason is not listed"
grep -q '^  broken: FAIL: 2 != 3' <<<"$out" || fail "the failure's line is not repeated under 'what failed'"
ok "a skip is listed with its reason and counted as neither passed nor failed"

out=$(run_steps 1)
grep -qx 'runner: 1 passed, 2 failed' <<<"$out" || fail "with FITD_REQUIRE_ALL_STEPS=1 a skip did not fail: $(tail -3 <<<"$out")"
grep -q 'missing-tool: skipped where every step must run: missing-tool: SKIP: frobnicate' <<<"$out" \
  || fail "the required step's skip is not named under 'what failed'"
ok "with FITD_REQUIRE_ALL_STEPS=1 a skip fails the run, with its reason"
