#!/bin/sh
# The cost of the file-system view per mutant: the same programs scored
# with and without it (--no-fs-view), alternately, ROUNDS times; prints
# the CPU time (user+sys of litmus and everything it waited for) per
# mutant both ways and the difference.  CPU time, not wall time: the
# machines are shared and noisy.
#   bench/sandbox_view.sh build/litmus [PROGRAM...]   (ROUNDS=3 by default)
set -eu
[ $# -ge 1 ] || { echo "usage: bench/sandbox_view.sh LITMUS [PROGRAM...]" >&2; exit 2; }
litmus=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); shift
here=$(cd "$(dirname "$0")" && pwd)
progs=${*:-"merge_sort knapsack lru_cache bank_account"}
rounds=${ROUNDS:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cpu() { # mode prog -> "cpu_seconds mutants"
  db=$tmp/$1-$2.db; rm -f "$db"*
  flag=""; [ "$1" = noview ] && flag=--no-fs-view
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$litmus" score "$here/corpus/$2" \
    --tests "$here/corpus/$2" --db "$db" --no-progress -j 1 $flag >/dev/null 2>&1
  n=$(sqlite3 "$db" "SELECT count(*) FROM results WHERE verdict NOT IN ('equivalent','invalid')")
  awk -v n="$n" '{printf "%.4f %d\n", $1 + $2, n}' "$tmp/time"
}
tv=0; tn=0; nv=0; nn=0
for r in $(seq "$rounds"); do
  for p in $progs; do
    set -- $(cpu view "$p"); tv=$(awk -v a="$tv" -v b="$1" 'BEGIN{print a+b}'); nv=$((nv + $2))
    set -- $(cpu noview "$p"); tn=$(awk -v a="$tn" -v b="$1" 'BEGIN{print a+b}'); nn=$((nn + $2))
  done
done
awk -v tv="$tv" -v tn="$tn" -v nv="$nv" -v nn="$nn" 'BEGIN {
  printf "view:    %.2f ms CPU per mutant (%d mutant runs)\n", 1000 * tv / nv, nv
  printf "no view: %.2f ms CPU per mutant (%d mutant runs)\n", 1000 * tn / nn, nn
  printf "difference: %+.2f ms per mutant (ratio %.3f)\n", 1000 * (tv / nv - tn / nn), (tv / nv) / (tn / nn) }'
