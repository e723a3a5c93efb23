#!/usr/bin/env bash
# Verdicts and killing tests of two litmus binaries on the whole corpus:
# each program of bench/corpus scored by both, one after the other, and
# every mutant's (verdict, killing test) compared.  For changes to the
# engine that must not change what it decides.
#
#   bench/compare_verdicts.sh OLD_LITMUS NEW_LITMUS [WORKDIR]
#
# Prints the programs whose results differ (with the first differences)
# and a closing line "mutants: N, differing: M"; exits 1 when M > 0.
set -u
[ $# -ge 2 ] || { sed -n '2,10p' "$0"; exit 2; }
old=$1 new=$2
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/litmus-cmp-XXXXXX")}
mkdir -p "$out"
corpus=$(cd "$(dirname "$0")" && pwd)/corpus
diffs=0 n=0
for dir in "$corpus"/*/; do
  p=$(basename "$dir")
  [ "$p" = patches ] && continue
  [ "$p" = projects ] && continue
  args=("$dir" --tests "$dir")
  [ "$p" = quix_gcd ] && args=("$dir/correct_programs/gcd.py" --tests "$dir/test_gcd.py" -- --correct)
  for side in old new; do
    bin=${!side}
    rm -f "$out/$p-$side.db"*
    (cd "$dir" && "$bin" score --db "$out/$p-$side.db" --no-progress "${args[@]}" \
      >/dev/null 2>"$out/$p-$side.err")
  done
  q="SELECT mutant_id || ' ' || verdict || ' ' || coalesce(killed_by, '') FROM results ORDER BY 1"
  a=$(sqlite3 "$out/$p-old.db" "$q")
  b=$(sqlite3 "$out/$p-new.db" "$q")
  m=$(printf '%s\n' "$a" | grep -c .)
  n=$((n + m))
  if [ "$a" != "$b" ]; then
    d=$(diff <(echo "$a") <(echo "$b") | grep -c '^<')
    diffs=$((diffs + d))
    echo "$p: $d of $m differ"
    diff <(echo "$a") <(echo "$b") | head -6
  fi
done
echo "mutants: $n, differing: $diffs"
[ "$diffs" -eq 0 ]
