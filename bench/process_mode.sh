#!/bin/sh
# The cost of process mode for children that start no process: the same
# corpus programs (whose tests start none) scored by two litmus builds,
# alternately, ROUNDS times; prints the CPU time (of litmus and every
# process it started) per mutant of each and their ratio.  Since
# process mode the baseline runs in its own namespaces and reports what
# each test needed; mutants whose tests need nothing run as before.
# Then, for the new build alone, the cost per mutant of the process-mode
# projects (tests that start processes or serve on loopback).
#   bench/process_mode.sh OLD_LITMUS NEW_LITMUS [PROGRAM...]  (ROUNDS=3)
set -eu
[ $# -ge 2 ] || { echo "usage: bench/process_mode.sh OLD_LITMUS NEW_LITMUS [PROGRAM...]" >&2; exit 2; }
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
old=$(abs "$1"); new=$(abs "$2"); shift 2
here=$(cd "$(dirname "$0")" && pwd)
progs=${*:-"merge_sort knapsack lru_cache bank_account"}
rounds=${ROUNDS:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# CPU time of a run and every process it started, reaped by whoever: a
# cpuacct cgroup where the machine lets us make one (a litmus without a
# child subreaper lets its zygotes' copies and servers die unwaited, and
# /usr/bin/time then misses their time), else /usr/bin/time.
cgroot=/sys/fs/cgroup/cpuacct
cpu() { # litmus dir paths... -> "cpu_seconds mutants"
  bin=$1; dir=$2; shift 2
  db=$tmp/run.db; rm -f "$db"*
  cg=$cgroot/litmus-bench-$$
  if [ -w "$cgroot" ] && mkdir "$cg" 2>/dev/null; then
    (sh -c 'echo $$ >"$1/cgroup.procs"; shift; cd "$1"; shift; exec "$@"' \
      sh "$cg" "$dir" "$bin" score "$@" --db "$db" --no-progress -j 1 \
      >/dev/null 2>&1) || true
    sleep 0.3
    secs=$(awk '{printf "%.4f", $1 / 1e9}' "$cg/cpuacct.usage")
    for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$cg" 2>/dev/null && break; sleep 0.2; done
  else
    (cd "$dir" && /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" score "$@" \
      --db "$db" --no-progress -j 1 >/dev/null 2>&1) || true
    secs=$(awk '{printf "%.4f", $1 + $2}' "$tmp/time")
  fi
  n=$(sqlite3 "$db" "SELECT count(*) FROM results WHERE verdict NOT IN ('equivalent','invalid')")
  echo "$secs $n"
}
to=0; no=0; tn=0; nn=0
for r in $(seq "$rounds"); do
  for p in $progs; do
    d=$here/corpus/$p
    set -- $(cpu "$old" "$d" "$d" --tests "$d"); to=$(awk -v a="$to" -v b="$1" 'BEGIN{print a+b}'); no=$((no + $2))
    set -- $(cpu "$new" "$d" "$d" --tests "$d"); tn=$(awk -v a="$tn" -v b="$1" 'BEGIN{print a+b}'); nn=$((nn + $2))
  done
done
awk -v to="$to" -v tn="$tn" -v no="$no" -v nn="$nn" 'BEGIN {
  printf "no process started, old build: %.2f ms CPU per mutant (%d mutant runs)\n", 1000 * to / no, no
  printf "no process started, new build: %.2f ms CPU per mutant (%d mutant runs)\n", 1000 * tn / nn, nn
  printf "ratio new/old: %.3f\n", (tn / nn) / (to / no) }'
for shape in cli_subprocess:wordtool localhost_server:linecalc; do
  proj=${shape%%:*}; pkg=${shape#*:}
  cp -r "$here/corpus/projects/$proj" "$tmp/$proj"
  set -- $(cpu "$new" "$tmp/$proj" "$pkg" --tests tests)
  awk -v t="$1" -v n="$2" -v p="$proj" 'BEGIN {
    printf "process mode, %s: %.2f ms CPU per mutant (%d mutants)\n", p, 1000 * t / n, n }'
done
