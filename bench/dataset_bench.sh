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
#   bench/dataset_bench.sh [LITMUS] --lang java [--jobs N] [--variants N]
#
# --lang java: Java programs (bench/corpus/java), every variant compiled
# and run by the warm JVM workers in the sandbox: verified variants per
# second and the share of the workers' CPU time spent in the compiler,
# beside the ad-hoc way (one `javac` process a variant) on a sample.
#
# LITMUS defaults to build/litmus; --jobs to the number of cores.  Nothing
# is cached (--no-db).  See docs/datasets.md, "Performance".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
litmus=$repo/build/litmus
jobs=$(nproc)
nv=20000
lang=python
while [ $# -gt 0 ]; do
  case $1 in
    --lang) lang=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --variants) nv=$2; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
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

if [ "$lang" = java ]; then
  jc=$repo/bench/corpus/java
  [ "$nv" = 20000 ] && nv=40
  java_line() { # NAME SUMMARY.json
    $PY - "$@" <<'PY'
import json, sys
name, s = sys.argv[1], json.load(open(sys.argv[2]))
j = s["java"]
busy = j["compile_ms"] + j["run_ms"]
print("%s: %d variants verified in %.2f s wall, %d runs (%d compiles): "
      "%.0f verified variants/s (target >= 100/s: %.2fx); compiler %.0f%% of "
      "the workers' CPU time (%.1f ms a compile)"
      % (name, s["items"], s["wall_s"], s["runs"], j["compiles"],
         s["items"] / s["wall_s"], s["items"] / s["wall_s"] / 100,
         100 * j["compile_ms"] / busy if busy else 0,
         j["compile_ms"] / max(1, j["compiles"])))
PY
  }
  sed "s|\"path\": \"|\"path\": \"$jc/|; s|\"tests\": \"|\"tests\": \"$jc/|" \
    "$jc/programs.jsonl" > "$work/p.jsonl"
  "$litmus" dataset rewrite "$work/p.jsonl" --variants "$nv" --ops c,v,d,r \
    --strength 2 --seed 1 -j "$jobs" --no-db --no-progress \
    --summary "$work/j1.json" -o "$work/j1.jsonl" 2>"$work/err" ||
    { cat "$work/err" >&2; exit 3; }
  java_line "rewrite, 12 Java programs with JUnit 4 tests x $nv variants" "$work/j1.json"
  grep -E '"id": "(matrix|intlist|textfmt)"' "$work/p.jsonl" > "$work/big.jsonl"
  "$litmus" dataset rewrite "$work/big.jsonl" --variants "$nv" --ops c,v,d,r \
    --strength 2 --seed 1 -j "$jobs" --no-db --no-progress \
    --summary "$work/j2.json" -o "$work/j2.jsonl" 2>"$work/err" ||
    { cat "$work/err" >&2; exit 3; }
  java_line "rewrite, the 3 programs of 220-264 lines x $nv variants" "$work/j2.json"
  # The same programs verified by compiling alone (records without tests).
  $PY -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l); r.pop("tests"); print(json.dumps(r))' "$work/big.jsonl" > "$work/bigc.jsonl"
  "$litmus" dataset rewrite "$work/bigc.jsonl" --variants "$nv" --ops c,v,d,r \
    --strength 2 --seed 1 -j "$jobs" --no-db --no-progress \
    --summary "$work/j4.json" -o "$work/j4.jsonl" 2>"$work/err" ||
    { cat "$work/err" >&2; exit 3; }
  java_line "rewrite, the same 3 programs verified by compiling alone" "$work/j4.json"
  "$litmus" dataset rewrite "$jc/methods.jsonl" --lang java --variants "$nv" \
    --ops c,v,d --strength 2 --seed 1 -j "$jobs" --no-db --no-progress \
    --summary "$work/j3.json" -o "$work/j3.jsonl" 2>"$work/err" ||
    { cat "$work/err" >&2; exit 3; }
  java_line "rewrite, 20 methods (compile-verified) x $nv variants" "$work/j3.json"
  # The ad-hoc way: javac on each variant (one JVM each), on a sample of
  # the big programs' variants, and the whole sample in one litmus run.
  $PY - "$work/j2.jsonl" "$work/adhoc" <<'PY'
import json, os, subprocess, sys, time
recs = [json.loads(l) for l in open(sys.argv[1])][:12]
os.makedirs(sys.argv[2])
t = time.perf_counter()
for k, r in enumerate(recs):
    d = os.path.join(sys.argv[2], str(k))
    os.makedirs(d)
    name = os.path.basename(r["path"])
    open(os.path.join(d, name), "w").write(r["code"])
    root = os.path.dirname(r["path"])
    subprocess.run(["javac", "-d", d, "-proc:none", "-sourcepath", root,
                    os.path.join(d, name)], check=True)
per = (time.perf_counter() - t) / len(recs)
print("ad-hoc: one javac process a variant (compile only, no tests, no "
      "sandbox): %.0f ms a variant, %.1f variants/s on one core"
      % (per * 1000, 1 / per))
PY
  exit 0
fi

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
