#!/usr/bin/env bash
# The cost of --telemetry per mutant: scores a corpus project ROUNDS times
# with and without it, alternating, and prints the mean wall time per
# mutant of each and their ratio.  Without BPF rights or support the
# telemetry run warns and measures nothing extra (the ratio is then ~1).
#
#   bench/telemetry_cost.sh LITMUS [PROJECT] [ROUNDS]
set -euo pipefail
litmus=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
project=${2:-$(dirname "$0")/corpus/merge_sort}
rounds=${3:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/litmus-tmcost-XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$project" "$work/p"
cd "$work/p"
one() { # extra-args... -> prints "seconds mutants"
  rm -f "$work/db"*
  local t0 t1
  t0=$(date +%s%N)
  "$litmus" score . --tests . --db "$work/db" --no-progress --jobs 1 "$@" \
    >/dev/null 2>"$work/err" || true
  t1=$(date +%s%N)
  local n
  n=$(sqlite3 "$work/db" "SELECT count(*) FROM results WHERE verdict NOT IN ('equivalent')")
  echo "$(( (t1 - t0) / 1000 )) $n"
}
off=0 on=0 n=0
for _ in $(seq "$rounds"); do
  read -r us m < <(one); off=$((off + us)); n=$m
  read -r us m < <(one --telemetry); on=$((on + us))
done
grep -m1 -- "--telemetry" "$work/err" >&2 || true
python3 - "$off" "$on" "$n" "$rounds" <<'PY'
import sys
off, on, n, rounds = (int(x) for x in sys.argv[1:])
per_off = off / rounds / max(n, 1) / 1000
per_on = on / rounds / max(n, 1) / 1000
print("mutants run: %d, rounds: %d" % (n, rounds))
print("per mutant: %.2f ms without, %.2f ms with --telemetry" % (per_off, per_on))
print("telemetry cost: ratio %.3f (%+.1f%%)" % (per_on / per_off, 100 * (per_on / per_off - 1)))
PY
