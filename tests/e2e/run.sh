#!/usr/bin/env bash
# Runs every tests/e2e/t*.sh (or those matching $2) against the litmus
# binary $1; prints one line per test, in name order, and a closing count.
#
# Tests run LT_E2E_JOBS at a time (default 2), the slowest first (from the
# durations the last run kept beside the binary); the tests listed in
# SERIAL measure timing and run alone afterwards.  (t0051, -j1 = -j2 on the
# whole corpus, runs in the parallel part: its verdicts must not feel the
# load.)
# make test runs each test on one build, chosen by what it checks:
#  - under a sanitizer build (LT_SANITIZED=1), every test but those in
#    RELEASE_ONLY: the C paths, under ASan and UBSan, and counted for
#    coverage;
#  - on the release build with LT_E2E_PART=release, only RELEASE_ONLY
#    (the Python side, and the same C paths on more inputs: the whole
#    corpus, the dataset generators, the project shapes, the differential
#    inputs and mutation sampling of patches) and SERIAL (the
#    timing tests, which must also hold at release speed; the hostile
#    ones also run under the sanitizers, while t0030's resume is t0065's
#    there and the budgets and timeouts of t0061-t0063 are the unit
#    tests' of the executor).
# Without either (make e2e), every test runs.
set -u
LITMUS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export LITMUS
dir=$(cd "$(dirname "$0")" && pwd)
pattern=${2:-t}
jobs=${LT_E2E_JOBS:-2}
durations=$(dirname "$LITMUS")/e2e-durations.txt

SERIAL=" t0030-resume-after-sigkill t0100-hostile-loop-sleep t0109-hostile-sigstop t0061-budget-after-apply t0062-timeout-per-test-budget t0063-timeout-rest-kills "
RELEASE_ONLY=" t0030-resume-after-sigkill t0218-patches-repo-order t0219-patches-repo-ci-tests t0220-patches-repo-new-name t0221-patches-repo-two-files t0061-budget-after-apply t0062-timeout-per-test-budget t0063-timeout-rest-kills t0210-patches-repo t0216-patches-repo-django t0552-class-readers t0553-import-generators t0215-patches-repo-probes t0213-patches-repo-shards t0650-progress-log t0300-dataset-select t0520-fresh-namedtuple-pickle t0528-fresh-fallback-jobs t0051-jobs-identical-corpus t0200-patches-corpus t0203-patches-resume t0208-patches-exponential t0301-dataset-typed t0302-dataset-faults t0303-dataset-rewrite t0304-dataset-resume t0549-groundtruth-corpus t0413-shape-namespace-pkg t0414-shape-venv-dep t0415-shape-conftest-fixtures t0416-shape-unittest-classes t0417-shape-doctests t0419-shape-skip-xfail t0420-shape-cov-xdist t0421-shape-metadata-editable t0426-shape-venv-link t0422-shape-pythonpath-env t0423-shape-unittest-runner t0442-shape-cli-subprocess t0443-shape-localhost-server t0424-shape-doctest-runner t0521-fresh-total-ordering t0522-fresh-init-subclass-registry t0524-fresh-module-comprehension t0525-fresh-multiline-literal t0526-fresh-isinstance t0527-fresh-corner-cases t0811-dataset-shard-merge t0812-patches-shard-merge t0207-patches-judgement t0212-patches-single-file t0206-patches-mutation-budget t0418-shape-hypothesis t0310-dataset-java t0930-install t0940-python-versions t0600-store-full-disk "

out=$(mktemp -d "${TMPDIR:-/tmp}/litmus-e2e-run-XXXXXX")
trap 'rm -rf "$out"' EXIT
# What several tests need, made once by the first (lib.sh, shared).
export LT_E2E_SHARED=$out/shared
mkdir -p "$LT_E2E_SHARED"

names=() elsewhere=()
for t in "$dir"/${pattern}*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .sh)
  if { [ "${LT_SANITIZED:-0}" = 1 ] && [[ $RELEASE_ONLY == *" $name "* ]]; } ||
     { [ "${LT_E2E_PART:-}" = release ] && [[ "$RELEASE_ONLY$SERIAL" != *" $name "* ]]; }; then
    elsewhere+=("$name")
    continue
  fi
  names+=("$name")
done

# Each test's wall time and CPU time (in ms) go to the durations file: the
# CPU time is what a test costs the suite.  It is read from a cpuacct
# cgroup of the test's own where the machine lets us make one (every
# process the test starts, reaped by whoever, is counted); otherwise from
# `times`, which misses processes that litmus' zygotes reap themselves.
cgroot=/sys/fs/cgroup/cpuacct
# LT_E2E_SLOTS (make test sets it): a directory of lock files, one per
# test the machine runs at once, shared with the other suites: a test
# holds one while it runs, so that a suite whose neighbour ended takes
# its places.
# The slot's fd is closed in the test itself, so that nothing the test
# leaves behind holds it, and by run_one once the test is done.
take_slot() {
  if [ -z "${LT_E2E_SLOTS:-}" ]; then
    exec {slot_fd}</dev/null
    return 0
  fi
  local s
  while :; do
    for s in "$LT_E2E_SLOTS"/slot.*; do
      exec {slot_fd}>>"$s" || continue
      flock -n "$slot_fd" && return 0
      exec {slot_fd}>&-
    done
    sleep 0.2
  done
}
run_one() { # name
  take_slot
  local name=$1 start rc ms cpu cg=""
  if [ -w "$cgroot" ] && mkdir "$cgroot/litmus-e2e-$$-$name" 2>/dev/null; then
    cg=$cgroot/litmus-e2e-$$-$name
  fi
  start=$(date +%s%N)
  ( [ -n "$cg" ] && echo $BASHPID >"$cg/cgroup.procs"
    bash "$dir/$name.sh" {slot_fd}>&- >"$out/$name.log" 2>&1
    rc=$?
    [ -n "$cg" ] || times >"$out/$name.cpu"
    exit $rc )
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  if [ -n "$cg" ]; then
    cpu=$(( $(cat "$cg/cpuacct.usage") / 1000000 ))
    # Processes a test killed may still be exiting (zygotes die with
    # their litmus): the group goes once they are gone.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      rmdir "$cg" 2>/dev/null && break
      sleep 0.2
    done
  else
    # `times`' second line: the children's user and system time, "XmY.ZZZs".
    cpu=$(awk 'NR == 2 {
        split($1, u, /[ms]/); split($2, s, /[ms]/)
        printf "%d", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }' "$out/$name.cpu" 2>/dev/null)
  fi
  echo "$rc $ms ${cpu:-0}" >"$out/$name.rc"
  exec {slot_fd}>&-
}

# The parallel part, slowest first: by the larger of the last run's wall
# and CPU time (a test run alone has a short wall time but the same CPU
# time); a test with no figure yet (a fresh clone) by its place in LONG,
# the tests that took longest (release part, then sanitizer part, each
# slowest first; a long test started last is the suite's tail), else last.
LONG=" t0210-patches-repo t0200-patches-corpus t0301-dataset-typed t0310-dataset-java t0549-groundtruth-corpus t0208-patches-exponential t0600-store-full-disk t0051-jobs-identical-corpus t0300-dataset-select t0302-dataset-faults t0811-dataset-shard-merge t0303-dataset-rewrite t0812-patches-shard-merge t0207-patches-judgement t0213-patches-repo-shards t0203-patches-resume t0206-patches-mutation-budget t0940-python-versions t0443-shape-localhost-server t0442-shape-cli-subprocess t0654-baseline-monitoring t0714-baseline-reuse t0810-shard-merge t0706-report-html-browser t0214-patches-repo-methods t0201-patches-single-program t0713-incremental-reuse t0204-patches-reasons t0311-dataset-java-hostile t0705-report-survivor-gate t0801-fs-view-degraded t0070-pyproject-config t0548-groundtruth-tool "
ordered=$(for n in "${names[@]}"; do
  [[ $SERIAL == *" $n "* ]] && continue
  d=$(awk -v n="$n" '$1 == n {print ($3 > $2 ? $3 : $2)}' "$durations" 2>/dev/null | tail -n 1)
  if [ -z "$d" ] && [[ $LONG == *" $n "* ]]; then
    rest=${LONG#*" $n "}
    d=$((100000 + $(echo "$rest" | wc -w)))
  fi
  echo "${d:-0} $n"
done | sort -rn | awk '{print $2}')
running=0
for n in $ordered; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_one "$n" &
  running=$((running + 1))
done
wait
for n in "${names[@]}"; do
  [[ $SERIAL == *" $n "* ]] && run_one "$n"
done

pass=0 failn=0 skipn=0
: >"$out/durations"
for n in "${names[@]}"; do
  read -r rc ms cpu <"$out/$n.rc"
  dur=$(printf "%d.%02d" $((ms / 1000)) $(((ms % 1000) / 10)))
  echo "$n $ms $cpu" >>"$out/durations"
  case $rc in
    0) pass=$((pass + 1))
       printf 'ok    %-45s %6ss  (cpu %d.%01ds)\n' "$n" "$dur" $((cpu / 1000)) $(((cpu % 1000) / 100)) ;;
    77) skipn=$((skipn + 1)); printf 'skip  %-45s %s\n' "$n" "$(tail -n 1 "$out/$n.log")" ;;
    *) failn=$((failn + 1)); printf 'FAIL  %-45s %6ss\n' "$n" "$dur"; sed 's/^/      /' "$out/$n.log" | tail -n 30 ;;
  esac
done
# The durations file keeps the newest figure of every test that has run.
if [ -e "$durations" ]; then
  awk 'NR == FNR {ran[$1] = 1; print; next} !($1 in ran)' "$out/durations" \
    "$durations" >"$out/merged" 2>/dev/null && cp "$out/merged" "$durations"
else
  cp "$out/durations" "$durations" 2>/dev/null
fi
if [ ${#elsewhere[@]} -gt 0 ]; then
  if [ "${LT_SANITIZED:-0}" = 1 ]; then
    echo "run on the release build only: ${elsewhere[*]}"
  else
    echo "run under the sanitizers only: ${#elsewhere[@]} tests"
  fi
fi
echo "e2e: $pass passed, $failn failed, $skipn skipped"
[ $failn -eq 0 ]
