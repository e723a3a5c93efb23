#!/usr/bin/env bash
# Every test of the project: unit tests (ctest) and end-to-end tests on the
# normal build, then the same under ASan+UBSan.  Ends with one line
# "N passed, N failed".
set -u
build=${1:-build}
asan=${2:-}
total_pass=0 total_fail=0

count_ctest() { # log -> adds to totals
  local log=$1 p f
  p=$(grep -Eo '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n1)
  if [ -z "$p" ]; then total_fail=$((total_fail + 1)); return; fi
  f=$(echo "$p" | sed -E 's/.*passed, ([0-9]+) tests failed out of ([0-9]+)/\1/')
  local n
  n=$(echo "$p" | sed -E 's/.*out of ([0-9]+)/\1/')
  total_pass=$((total_pass + n - f))
  total_fail=$((total_fail + f))
}
count_e2e() {
  local log=$1 line
  line=$(grep -E '^e2e: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
  if [ -z "$line" ]; then total_fail=$((total_fail + 1)); return; fi
  total_pass=$((total_pass + $(echo "$line" | sed -E 's/e2e: ([0-9]+) passed.*/\1/')))
  total_fail=$((total_fail + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
}

log=$(mktemp)
echo "== unit tests ($build)"
(cd "$build" && ctest --output-on-failure --timeout 300) 2>&1 | tee "$log"
count_ctest "$log"

echo "== end-to-end tests ($build)"
tests/e2e/run.sh "$build/litmus" 2>&1 | tee "$log"
count_e2e "$log"

if [ -n "$asan" ]; then
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  echo "== unit tests under ASan+UBSan ($asan)"
  (cd "$asan" && ctest --output-on-failure --timeout 600) 2>&1 | tee "$log"
  count_ctest "$log"
  echo "== end-to-end tests under ASan+UBSan ($asan)"
  LT_SANITIZED=1 tests/e2e/run.sh "$asan/litmus" 2>&1 | tee "$log"
  count_e2e "$log"
fi
if command -v clang >/dev/null 2>&1; then
  echo "== fuzzing the wire decoder (20 s)"
  if tests/fuzz/run.sh 20; then
    total_pass=$((total_pass + 1))
  else
    total_fail=$((total_fail + 1))
  fi
fi
rm -f "$log"
echo
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
