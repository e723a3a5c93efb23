#!/usr/bin/env bash
# The cost of a mutant under each CPython litmus finds here (3.9 to 3.13,
# tests/e2e/lib_pythons.sh), each through a venv made from it, one build
# of litmus for all: corpus programs scored on one core (--jobs 1), their
# CPU and wall time per mutant, beside what a user does without litmus,
# a fresh `python -m pytest` of the same tests per mutant (timed here on
# the unmutated suite: a lower bound of that way), and the ratio of each
# version's cost to the system interpreter's.
#
#   bench/pyversions_bench.sh [LITMUS] [--programs "a b c"]
#
# LITMUS defaults to build/litmus.  See docs/performance.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
litmus=$repo/build/litmus
programs="quicksort lru_cache expr_parser merge_sort heap_sort"
while [ $# -gt 0 ]; do
  case $1 in
    --programs) programs=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) litmus=$1 ;;
  esac
  shift
done
[ -x "$litmus" ] || { echo "no litmus binary at $litmus (make build)" >&2; exit 2; }
litmus=$(realpath "$litmus")
. "$repo/tests/e2e/lib_pythons.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/litmus-pybench-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/p"
subjects="" tests=""
for p in $programs; do
  cp -r "$repo/bench/corpus/$p"/. "$work/p/"
  subjects="$subjects $p.py"
  tests="$tests test_$p.py"
done
sys=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
lt_pythons >"$work/pythons"
now() { date +%s.%N; }
# CPU seconds of finished children so far (user + system).
child_cpu() { python3 -c 'import os; t = os.times(); print(t.children_user + t.children_system)'; }

printf '%-6s %8s %12s %12s %14s %8s %10s\n' version mutants "cpu ms/mut" "wall ms/mut" "pytest ms/run" "ratio" "vs $sys"
declare -A cost
while read -r v py; do
  lt_test_venv "$py" "$work/venv-$v" >/dev/null 2>&1 || { echo "$v: cannot make a venv of $py" >&2; continue; }
  cd "$work/p"
  # shellcheck disable=SC2086 # one word a subject
  out=$( { t0=$(now)
           /usr/bin/time -f '%U %S' -o "$work/time" "$litmus" score $subjects --tests . \
             --python "$work/venv-$v" --jobs 1 --db "$work/$v.db" --no-progress \
             --format json >"$work/$v.json" 2>"$work/$v.err" || true
           t1=$(now); echo "$t0 $t1"; } )
  n=$(sqlite3 "$work/$v.db" "SELECT count(*) FROM results WHERE verdict NOT IN ('equivalent','invalid')" 2>/dev/null || echo 0)
  [ "$n" -gt 0 ] || { echo "$v: no mutant ran: $(tail -n 2 "$work/$v.err")" >&2; continue; }
  # pytest as a user runs it once a mutant: five fresh runs, the mean.
  # shellcheck disable=SC2086
  pt=$( { t0=$(now); for _ in 1 2 3 4 5; do
            "$work/venv-$v/bin/python" -m pytest -q -p no:cacheprovider $tests >/dev/null 2>&1 || true
          done; t1=$(now); echo "$t0 $t1"; } )
  read -r a b <<<"$out"; read -r c d <<<"$pt"; read -r u s <"$work/time"
  python3 - "$v" "$n" "$a" "$b" "$c" "$d" "$u" "$s" >>"$work/rows" <<'PY'
import sys
v, n, a, b, c, d, u, s = sys.argv[1], int(sys.argv[2]), *map(float, sys.argv[3:])
print(v, n, (u + s) * 1000 / n, (b - a) * 1000 / n, (d - c) * 1000 / 5)
PY
  cd "$work"
done <"$work/pythons"
base=$(awk -v s="$sys" '$1 == s {print $3}' "$work/rows")
while read -r v n cpu wall pyt; do
  python3 - "$v" "$n" "$cpu" "$wall" "$pyt" "${base:-$cpu}" <<'PY'
import sys
v, n = sys.argv[1], int(sys.argv[2])
cpu, wall, pyt, base = map(float, sys.argv[3:])
print("%-6s %8d %12.1f %12.1f %14.1f %7.1fx %9.2fx" % (v, n, cpu, wall, pyt, pyt / wall, cpu / base))
PY
done <"$work/rows"
echo "ratio: a fresh pytest run (what one mutant costs without litmus, at least) over litmus's wall time a mutant"
echo "vs $sys: litmus's CPU time a mutant under that version over the system interpreter's"
