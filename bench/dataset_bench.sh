#!/usr/bin/env bash
# Throughput of `litmus dataset` (issue 5), printed as ratios:
#   1. rewrite --no-verify: variants per second on one core (target >=
#      5,000/s), wall and CPU time, for strength 1 and 3;
#   2. rewrite with verification and select: the time of their runs
#      against the runners' floor measured in the same run (--floor: per
#      run, the cost of a trivial job on the same zygotes, plus the
#      in-process time of the same work: every call-evaluation item again
#      in ONE child, and the tests' own time as the children measured it).
#
#   bench/dataset_bench.sh [LITMUS] [--jobs N] [--variants N]
#
# LITMUS defaults to build/litmus; --jobs to the number of cores.  Nothing
# is cached (--no-db).  See docs/datasets.md, "Performance".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
litmus=$repo/build/litmus
jobs=$(nproc)
nv=20000
while [ $# -gt 0 ]; do
  case $1 in
    --jobs) jobs=$2; shift ;;
    --variants) nv=$2; shift ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) litmus=$1 ;;
  esac
  shift
done
[ -x "$litmus" ] || { echo "no litmus binary at $litmus (make build)" >&2; exit 2; }
PY=/usr/bin/python3
work=$(mktemp -d "${TMPDIR:-/tmp}/litmus-dbench-XXXXXX")
trap 'rm -rf "$work"' EXIT
fx=$repo/tests/fixtures/dataset
echo "litmus dataset benchmark: $(nproc) cores, --jobs $jobs, load $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. Generation only, one core.
echo "{\"id\": \"merge_sort\", \"path\": \"$repo/bench/corpus/merge_sort/merge_sort.py\"}" > "$work/ms.jsonl"
for k in 1 3; do
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$litmus" dataset rewrite \
    "$work/ms.jsonl" --no-verify --variants "$nv" --ops c,v,d --strength $k \
    --seed 1 -j 1 --no-progress -o "$work/rw$k.jsonl" 2>"$work/err$k" ||
    { cat "$work/err$k" >&2; exit 3; }
  read -r wall user sys < "$work/time"
  n=$(wc -l < "$work/rw$k.jsonl")
  $PY - "$n" "$wall" "$user" "$sys" "$k" <<'PY'
import sys
n, wall, user, sys_, k = int(sys.argv[1]), *map(float, sys.argv[2:5]), sys.argv[5]
cpu = user + sys_
print("rewrite --no-verify, merge_sort, ops c,v,d, strength %s, one core: "
      "%d variants in %.2f s wall (%.2f s CPU): %.0f variants/s wall, "
      "%.0f/s CPU (target >= 5000/s: %.2fx)"
      % (k, n, wall, cpu, n / wall, n / cpu, (n / wall) / 5000))
PY
done

# 2. Verified runs against the floor.
floor_line() { # NAME SUMMARY.json
  $PY - "$@" <<'PY'
import json, sys
name, s = sys.argv[1], json.load(open(sys.argv[2]))
f = s["floor"]
print("%s: %d items from %d runs (%d cases, %d test runs), runs took %.2f s "
      "with %d jobs" % (name, s["items"], f["runs"] + 0, f["runs_cases"],
                        f["runs_tests"], f["runs_s"], s["jobs"]))
print("  floor: %.2f ms a run (trivial job: fork to reaped child%s) x %d + "
      "%.3f s in-process = %.3f s / %d jobs; runs that hit a limit: %.2f s"
      % (f["fork_ms"], "" if not (f["runs_cases"] and f["runs_tests"]) else
         ", tests lanes %.2f ms" % f["fork_tests_ms"], f["runs"],
         f["inproc_s"], f["floor_s"] * s["jobs"], s["jobs"], f["timeouts_s"]))
print("  runs / floor: %.2fx; with runs that hit a limit charged at their "
      "time: %.2fx (target <= 2x)" % (f["ratio"], f["ratio_with_timeouts"]))
PY
}

"$litmus" dataset rewrite "$fx/programs.jsonl" --variants 40 --ops c,v,d \
  --strength 2 --seed 1 -j "$jobs" --no-db --no-progress --floor \
  --summary "$work/rw.json" -o "$work/rwv.jsonl" 2>"$work/err" ||
  { cat "$work/err" >&2; exit 3; }
floor_line "rewrite verified (5 corpus programs x 40 variants, tests and inputs)" "$work/rw.json"

"$litmus" dataset select "$fx/select.jsonl" --seed 1 -j "$jobs" --no-db \
  --no-progress --floor --summary "$work/sel.json" -o "$work/sel.jsonl" \
  2>"$work/err" || { cat "$work/err" >&2; exit 3; }
floor_line "select (20 corpus records, every algo1 mutant)" "$work/sel.json"

if [ "$jobs" != 1 ]; then
  "$litmus" dataset select "$fx/select.jsonl" --seed 1 -j 1 --no-db \
    --no-progress --floor --summary "$work/sel1.json" -o "$work/sel1.jsonl" \
    2>"$work/err" || { cat "$work/err" >&2; exit 3; }
  floor_line "select, --jobs 1" "$work/sel1.json"
fi

# For reference: a bare os.fork() of Debian's Python with pytest imported
# (what docs/performance.md calls the fork), against the runner's trivial
# job above (which adds the sandbox, pipes and frames).
$PY - <<'PY'
import os, time, pytest
n = 300
t = time.perf_counter()
for _ in range(n):
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
print("reference: bare os.fork + exit + wait of a Python with pytest: %.2f ms"
      % ((time.perf_counter() - t) / n * 1000))
PY
