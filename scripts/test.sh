#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what is missing, builds once, then runs
#   1. every test target on the embedded backend (SQLite + a folder), with the shared corpus;
#   2. the server's route suite and 3. its end-to-end suite again, with every server on
#      PostgreSQL + an S3 bucket (one run each: the end-to-end suite waits on server processes,
#      which would starve the route tests' in-process pools);
#   4. another package depending on PhotoPipeline by a version tag (scripts/check-library-consumer.sh).
# The tests start their own PostgreSQL cluster, S3 emulator and nginx on free ports.
# Each stage has a time limit well above its usual length; a stage that passes it is a hang:
# the threads of the test process are printed (gdb) before it is killed, so the log says where.
# Extra arguments go to every `swift test` (e.g. --filter Name to run fewer tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/install-test-deps.sh
export PETSPOT_CORPUS="${PETSPOT_CORPUS:-../shared/corpus}"
# The pipeline and its C shims optimised in this debug build (Package.swift says why).
export PETSPOT_OPTIMIZED_DEBUG=1
# At most this many tests at once (Swift Testing starts every test at once otherwise): many start
# servers, databases, Chromium or schemathesis, and on two cores a few hundred such processes
# together starved the tests that wait for an answer within a bound.
export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH="${SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH:-6}"

swift build --build-tests

# The test bundle's processes (read from /proc: no procps needed).
test_processes() {
  local entry
  for entry in /proc/[0-9]*; do
    if tr '\0' ' ' < "$entry/cmdline" 2>/dev/null | grep -q 'PetSpotPackageTests.xctest'; then
      echo "${entry#/proc/}"
    fi
  done
}

# run_stage SECONDS COMMAND...: runs COMMAND; past SECONDS, prints the test process's threads and
# kills it.
run_stage() {
  local limit=$1
  shift
  echo "== $* (limit ${limit}s)"
  local log
  log=$(mktemp)
  "$@" > >(tee "$log") 2>&1 &
  local stage=$!
  (
    sleep "$limit"
    echo "== over ${limit}s: a test hangs; the test process's threads:" >&2
    for pid in $(test_processes); do
      if command -v gdb >/dev/null 2>&1; then
        gdb -p "$pid" -batch -ex 'thread apply all bt 25' 2>&1 | grep -E '^(Thread|#)' | head -1500 >&2 || true
      fi
      kill -KILL "$pid" 2>/dev/null || true
    done
  ) &
  local watchdog=$!
  local status=0
  wait "$stage" || status=$?
  kill "$watchdog" 2>/dev/null || true
  wait "$watchdog" 2>/dev/null || true
  # A failure's own lines, again at the end: a log read from its tail still says what failed.
  if [ "$status" -ne 0 ]; then
    sleep 1
    echo "== failed (exit $status): $*; what failed, from the log above:" >&2
    grep -E '✘ Test .*(recorded an issue|failed)|error: |Fatal error|Test Case .* failed' "$log" | head -60 >&2 || true
  fi
  rm -f "$log"
  return "$status"
}

run_stage 1200 swift test --skip-build "$@"
run_stage 600 env PETSPOT_TEST_BACKEND=postgres-s3 swift test --skip-build --filter PetSpotServerTests "$@"
run_stage 1200 env PETSPOT_TEST_BACKEND=postgres-s3 swift test --skip-build --filter EndToEndTests "$@"
run_stage 600 scripts/check-library-consumer.sh
