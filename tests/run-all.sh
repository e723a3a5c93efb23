#!/usr/bin/env bash
# Every test of the project: unit tests (ctest) and end-to-end tests on the
# normal build and under ASan+UBSan, and the fuzzers of untrusted input.
# The suites are independent, so they run side by side (at most
# LT_TEST_PARALLEL at once, default: the number of cores); each one's log
# is printed whole, in the order below, once it is done.  Ends with one
# line "N passed, N failed".
#
#   tests/run-all.sh [BUILD [ASAN_BUILD]]
#
# LT_ASAN_BUILD_CMD (make test sets it): the command that makes (or
# brings up to date) ASAN_BUILD.  It runs beside the first suites, which
# need only BUILD; the suites of ASAN_BUILD start once it is done, and
# count as failed if it failed (its log is printed then).
set -u
build=${1:-build}
asan=${2:-}
slots=${LT_TEST_PARALLEL:-$(nproc 2>/dev/null || echo 2)}
ctest_jobs=${LT_CTEST_JOBS:-2}
# End-to-end tests at once, of all suites together (each suite may take
# every place; tests/e2e/run.sh's LT_E2E_SLOTS).  Each test's litmus runs
# two children, so three tests keep 2 cores busy: on a VM where page
# faults and context switches are slow, more at once made the work
# itself costlier (ten fresh-import tests: 75 s two at a time, 79 s
# three, 120 s five, with two false timeouts).
export LT_E2E_JOBS=${LT_E2E_JOBS:-3}
out=$(mktemp -d "${TMPDIR:-/tmp}/litmus-run-all-XXXXXX")
trap 'rm -rf "$out"' EXIT
if command -v flock >/dev/null 2>&1; then
  export LT_E2E_SLOTS=$out/slots
  mkdir -p "$LT_E2E_SLOTS"
  for k in $(seq 1 "$LT_E2E_JOBS"); do : >"$LT_E2E_SLOTS/slot.$k"; done
fi

# Each suite writes its log to $out/N.log and "PASSED FAILED" to
# $out/N.count; a suite that ends without a count counts as one failure.
count_ctest() { # log count
  local p
  p=$(grep -Eo '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$1" | tail -n1)
  [ -n "$p" ] || return 0
  local f n
  f=$(echo "$p" | sed -E 's/.*passed, ([0-9]+) tests failed out of ([0-9]+)/\1/')
  n=$(echo "$p" | sed -E 's/.*out of ([0-9]+)/\1/')
  echo "$((n - f)) $f" >"$2"
}
count_e2e() { # log count
  local line
  line=$(grep -E '^e2e: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n1)
  [ -n "$line" ] || return 0
  echo "$(echo "$line" | sed -E 's/e2e: ([0-9]+) passed.*/\1/') $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')" >"$2"
}

unit() { # dir timeout [ctest options]
  local dir=$1 timeout=$2
  shift 2
  (cd "$dir" && ctest -j "$ctest_jobs" --output-on-failure --timeout "$timeout" "$@")
}

names=() cmds=()
add() { names+=("$1"); cmds+=("$2"); }
# The fuzzers first: a short suite, which the end-to-end suites then
# overlap, rather than a tail of its own after them.
if command -v clang >/dev/null 2>&1; then
  add "fuzzing the parsers of untrusted input (3 s)" "tests/fuzz/run.sh 3; count=rc"
fi
# With a sanitizer build, each test runs on one build: the C paths under
# the sanitizers (which also count coverage), the Python side and the
# larger inputs on the release build (tests/e2e/run.sh says which).  The
# unit tests of the C code run under the sanitizers (which also count
# their coverage); the pytest suites of the embedded Python (label
# "python") do not depend on the build and run once, beside them (the two
# unit suites then end together); those labelled "release" run on the
# release build (a JVM's start-up, real zygotes, the Java tree module,
# whose cost the sanitizers double).  `make unit` runs every unit test on
# the release build.
# The two longest suites start first.
if [ -n "$asan" ]; then
  # The two parts share LT_E2E_JOBS places (above): the release part,
  # which holds the larger inputs, starts alone while the sanitizer
  # build is made, and the part that ends first leaves its places to the
  # other.  Not more: on a machine where page faults are slow (a VM that
  # shadows page tables), five or six at once on 2 cores doubled some
  # tests' CPU time, and mutants' CPU budgets ran out (false timeouts).
  add "end-to-end tests ($build)" "LT_E2E_PART=release tests/e2e/run.sh '$build/litmus'; count=e2e"
  add "end-to-end tests under ASan+UBSan ($asan)" "asan_ready && asan_env && LT_SANITIZED=1 tests/e2e/run.sh '$asan/litmus'; count=e2e"
  # The longer of the two unit suites goes first: it starts when the
  # first end-to-end suite ends, the shorter one when the second does.
  add "unit tests under ASan+UBSan, and the embedded Python's ($asan)" "asan_ready && asan_env && unit '$asan' 600 -LE release; count=ctest"
  add "unit tests on the release build only ($build)" "unit '$build' 300 -L release; count=ctest"
else
  add "unit tests ($build)" "unit '$build' 300; count=ctest"
  add "end-to-end tests ($build)" "tests/e2e/run.sh '$build/litmus'; count=e2e"
fi

# The sanitizer build, made beside the first suites (LT_ASAN_BUILD_CMD);
# then its old gcov counts go, so that the coverage is this run's.
# Suites of that build call asan_ready first.
asan_ready() {
  [ -n "${LT_ASAN_BUILD_CMD:-}" ] || return 0
  while [ ! -e "$out/asan-build.rc" ]; do sleep 0.5; done
  [ "$(cat "$out/asan-build.rc")" = 0 ] && return 0
  echo "the sanitizer build failed ($LT_ASAN_BUILD_CMD):"
  tail -n 60 "$out/asan-build.log"
  return 1
}

asan_env() {
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
}

# Runs suite i: its command's output to the log, then its count.
run_suite() {
  local i=$1 log=$out/$1.log cmd kind t0
  cmd=${cmds[$i]%; count=*}
  kind=${cmds[$i]##*; count=}
  t0=$(date +%s)
  ( eval "$cmd" ) >"$log" 2>&1
  local rc=$?
  echo "$(( $(date +%s) - start )) s after the start, $(( $(date +%s) - t0 )) s long" >"$out/$i.time"
  case $kind in
    ctest) count_ctest "$log" "$out/$i.count" ;;
    e2e) count_e2e "$log" "$out/$i.count" ;;
    rc) if [ $rc -eq 0 ]; then echo "1 0" >"$out/$i.count"; else echo "0 1" >"$out/$i.count"; fi ;;
  esac
  touch "$out/$i.done"
}

start=$(date +%s)
if [ -n "$asan" ] && [ -n "${LT_ASAN_BUILD_CMD:-}" ]; then
  # Not a job of this shell (a child's child): `wait -n` below counts
  # suites only.
  ( ( t0=$(date +%s)
      ( eval "$LT_ASAN_BUILD_CMD" && find "$asan" -name '*.gcda' -delete ) \
        >"$out/asan-build.log" 2>&1
      rc=$?
      echo "sanitizer build ($asan): exit $rc, $(( $(date +%s) - t0 )) s long" \
        >"$out/asan-build.time"
      echo $rc >"$out/asan-build.rc" ) & )
fi
running=0
for i in "${!names[@]}"; do
  if [ "$running" -ge "$slots" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_suite "$i" &
  running=$((running + 1))
done

# Print each log in order as soon as it and every one before it is done.
total_pass=0 total_fail=0
if [ -n "$asan" ] && [ -n "${LT_ASAN_BUILD_CMD:-}" ]; then
  while [ ! -e "$out/asan-build.rc" ]; do sleep 1; done
  echo "== $(cat "$out/asan-build.time")"
fi
for i in "${!names[@]}"; do
  while [ ! -e "$out/$i.done" ]; do sleep 1; done
  echo "== ${names[$i]} (ended $(cat "$out/$i.time"))"
  cat "$out/$i.log"
  if [ -s "$out/$i.count" ]; then
    read -r p f <"$out/$i.count"
  else
    p=0 f=1
  fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
done
wait
# The sanitizer build also counts lines: its per-module table, checked
# against the floors in .ci/coverage-floor, is one more check.
if [ -n "$asan" ] && [ -x scripts/coverage-report.sh ]; then
  echo
  echo "line coverage (tests under ASan+UBSan, $asan):"
  if scripts/coverage-report.sh "$asan" --floor .ci/coverage-floor; then
    total_pass=$((total_pass + 1))
  else
    total_fail=$((total_fail + 1))
  fi
fi
echo
echo "wall time: $(( $(date +%s) - start )) s"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
