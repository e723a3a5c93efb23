#!/usr/bin/env bash
# Runs every tests/e2e/t*.sh (or those matching $2) against the litmus
# binary $1; prints one line per test, in name order, and a closing count.
#
# Tests run LT_E2E_JOBS at a time (default 2), the slowest first (from the
# durations the last run kept beside the binary); the tests listed in
# SERIAL measure timing and run alone afterwards.  (t0051, -j1 = -j2 on the
# whole corpus, runs in the parallel part: its verdicts must not feel the
# load.)
# Under a sanitizer build (LT_SANITIZED=1) the tests listed in
# PYTHON_ONLY are not run: they exercise the Python side, or more inputs,
# of C paths that the other tests already run under the sanitizers, at
# three times the cost (make test stays near 10 minutes on 2 cores).
set -u
LITMUS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export LITMUS
dir=$(cd "$(dirname "$0")" && pwd)
pattern=${2:-t}
jobs=${LT_E2E_JOBS:-2}
durations=$(dirname "$LITMUS")/e2e-durations.txt

SERIAL=" t0030-resume-after-sigkill t0050-jobs-identical t0100-hostile-loop-sleep t0109-hostile-sigstop t0061-budget-after-apply t0062-timeout-per-test-budget "
PYTHON_ONLY=" t0050-jobs-identical t0300-dataset-select t0520-fresh-namedtuple-pickle t0528-fresh-fallback-jobs t0051-jobs-identical-corpus t0200-patches-corpus t0203-patches-resume t0301-dataset-typed t0302-dataset-faults t0303-dataset-rewrite t0304-dataset-resume t0549-groundtruth-corpus t0413-shape-namespace-pkg t0414-shape-venv-dep t0415-shape-conftest-fixtures t0416-shape-unittest-classes t0417-shape-doctests t0419-shape-skip-xfail t0420-shape-cov-xdist t0421-shape-metadata-editable t0422-shape-pythonpath-env t0521-fresh-total-ordering t0522-fresh-init-subclass-registry t0524-fresh-module-comprehension t0525-fresh-multiline-literal t0526-fresh-isinstance t0527-fresh-corner-cases t0811-dataset-shard-merge t0812-patches-shard-merge "

out=$(mktemp -d "${TMPDIR:-/tmp}/litmus-e2e-run-XXXXXX")
trap 'rm -rf "$out"' EXIT

names=() skipped_asan=()
for t in "$dir"/${pattern}*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .sh)
  if [ "${LT_SANITIZED:-0}" = 1 ] && [[ $PYTHON_ONLY == *" $name "* ]]; then
    skipped_asan+=("$name")
    continue
  fi
  names+=("$name")
done

run_one() { # name
  local name=$1 start rc ms
  start=$(date +%s%N)
  bash "$dir/$name.sh" >"$out/$name.log" 2>&1
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "$rc $ms" >"$out/$name.rc"
}

# The parallel part, slowest first by the last run's durations.
ordered=$(for n in "${names[@]}"; do
  [[ $SERIAL == *" $n "* ]] && continue
  d=$(awk -v n="$n" '$1 == n {print $2}' "$durations" 2>/dev/null | tail -n 1)
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
  read -r rc ms <"$out/$n.rc"
  dur=$(printf "%d.%02d" $((ms / 1000)) $(((ms % 1000) / 10)))
  echo "$n $ms" >>"$out/durations"
  case $rc in
    0) pass=$((pass + 1)); printf 'ok    %-45s %6ss\n' "$n" "$dur" ;;
    77) skipn=$((skipn + 1)); printf 'skip  %-45s %s\n' "$n" "$(tail -n 1 "$out/$n.log")" ;;
    *) failn=$((failn + 1)); printf 'FAIL  %-45s %6ss\n' "$n" "$dur"; sed 's/^/      /' "$out/$n.log" | tail -n 30 ;;
  esac
done
[ "$pattern" = t ] && cp "$out/durations" "$durations" 2>/dev/null
if [ ${#skipped_asan[@]} -gt 0 ]; then
  echo "not run under the sanitizers (Python-side checks of C paths covered by the other tests): ${skipped_asan[*]}"
fi
echo "e2e: $pass passed, $failn failed, $skipn skipped"
[ $failn -eq 0 ]
