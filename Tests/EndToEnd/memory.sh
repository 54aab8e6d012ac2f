#!/usr/bin/env bash
# Tests/Reliability/memory.sh at a size an end-to-end test can afford (about a minute on the
# debug build; idle_release_seconds 13, the least that keeps the caches through its step 5
# wait): the over-limit reply is refused as TooLarge with no multi-GB peak, and RSS tracks
# what GetStats accounts for after a few thousand distinct sizes, families and texts. The
# full 50,000 / 50,000 / 100,000 run is `bash Tests/Reliability/memory.sh` (make stress).
export SIZES=${SIZES:-1500} FAMILIES=${FAMILIES:-1000} TEXTS=${TEXTS:-10000} SINGLES=${SINGLES:-3000} IDLE_RELEASE=${IDLE_RELEASE:-13} E2E_TIMEOUT=${E2E_TIMEOUT:-120}
exec bash "$(dirname "$0")/../Reliability/memory.sh" "$@"
