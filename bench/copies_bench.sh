#!/usr/bin/env bash
# Zygote copies: the CPU time and wall time of `litmus score` with copies
# (the default: a lane's first zygote is started, the others are forked
# from it) and with LITMUS_NO_COPIES=1 (every zygote started anew, as
# before copies), pair by pair in one run.  CPU time is the whole process
# tree's (a cpuacct cgroup when the machine has one, else the machine's
# busy time, which other load inflates).  Verdicts must be identical.
#
#   bench/copies_bench.sh [LITMUS] [JOBS...]     (default JOBS: 2 4)
set -u
LITMUS=$(realpath "${1:-build/litmus}")
shift
JOBS=("${@:-2}")
[ $# -eq 0 ] && JOBS=(2 4)
CORPUS=$(cd "$(dirname "$0")/corpus" && pwd)
PROGRAMS=${BENCH_PROGRAMS:-"merge_sort cache_info grade_report version_order word_stats bank_account"}
work=$(mktemp -d "${TMPDIR:-/tmp}/litmus-copies-XXXXXX")
cg=""
if [ -w /sys/fs/cgroup/cpuacct ] && mkdir "/sys/fs/cgroup/cpuacct/litmus-bench-$$" 2>/dev/null; then
  cg=/sys/fs/cgroup/cpuacct/litmus-bench-$$
fi
trap 'rm -rf "$work"; [ -n "$cg" ] && rmdir "$cg" 2>/dev/null' EXIT

busy_cs() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }

# Runs litmus score on a program; prints "CPU_S WALL_S".
measure() { # db program jobs [env...]
  local db=$1 p=$2 j=$3
  shift 3
  local t0 t1 c0 c1
  rm -f "$db"
  t0=$(date +%s%N)
  if [ -n "$cg" ]; then
    c0=$(cat "$cg/cpuacct.usage")
    (echo $BASHPID >"$cg/cgroup.procs"; cd "$CORPUS/$p" &&
      env "$@" "$LITMUS" score . --tests . --db "$db" --no-progress -j "$j" >/dev/null 2>&1)
    c1=$(cat "$cg/cpuacct.usage")
    t1=$(date +%s%N)
    awk -v c=$((c1 - c0)) -v w=$((t1 - t0)) 'BEGIN {printf "%.3f %.3f", c / 1e9, w / 1e9}'
  else
    c0=$(busy_cs)
    (cd "$CORPUS/$p" && env "$@" "$LITMUS" score . --tests . --db "$db" --no-progress -j "$j" >/dev/null 2>&1)
    c1=$(busy_cs)
    t1=$(date +%s%N)
    awk -v c=$((c1 - c0)) -v w=$((t1 - t0)) 'BEGIN {printf "%.3f %.3f", c / 100, w / 1e9}'
  fi
}

verdicts() { sqlite3 -batch "$1" "SELECT mutant_id || ' ' || verdict FROM results ORDER BY 1"; }

echo "CPU time from: ${cg:-/proc/stat (machine-wide)}"
printf '%-14s %4s %10s %10s %7s %10s %10s %7s\n' program jobs "cpu new" "cpu copy" ratio "wall new" "wall copy" ratio
status=0
for j in "${JOBS[@]}"; do
  sum_new=0 sum_copy=0
  for p in $PROGRAMS; do
    read -r cn wn < <(measure "$work/new.db" "$p" "$j" LITMUS_NO_COPIES=1)
    read -r cc wc < <(measure "$work/copy.db" "$p" "$j")
    if [ "$(verdicts "$work/new.db")" != "$(verdicts "$work/copy.db")" ]; then
      echo "$p -j $j: verdicts differ with copies" >&2
      status=1
    fi
    printf '%-14s %4s %9.2fs %9.2fs %7.2f %9.2fs %9.2fs %7.2f\n' "$p" "$j" "$cn" "$cc" \
      "$(awk -v a="$cn" -v b="$cc" 'BEGIN {print b / a}')" "$wn" "$wc" \
      "$(awk -v a="$wn" -v b="$wc" 'BEGIN {print b / a}')"
    sum_new=$(awk -v a="$sum_new" -v b="$cn" 'BEGIN {print a + b}')
    sum_copy=$(awk -v a="$sum_copy" -v b="$cc" 'BEGIN {print a + b}')
  done
  printf '%-14s %4s %9.2fs %9.2fs %7.2f   (CPU with copies / without, all programs)\n' total "$j" \
    "$sum_new" "$sum_copy" "$(awk -v a="$sum_new" -v b="$sum_copy" 'BEGIN {print b / a}')"
done
exit $status
