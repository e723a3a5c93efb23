#!/usr/bin/env bash
# Verdicts and killing tests of two litmus binaries on the whole corpus:
# each program of bench/corpus scored by both, one after the other, and
# every mutant's (verdict, killing test) compared.  For changes to the
# engine that must not change what it decides.
#
#   bench/compare_verdicts.sh OLD_LITMUS NEW_LITMUS [WORKDIR]
#
# The reports too: each side renders its own store through its own
# binary in every format, with the timings (durations, run figures)
# masked, and the texts must be equal.
#
# Prints the programs whose results differ (with the first differences)
# and closing lines "mutants: N, differing: M" and "reports: N, differing:
# M"; exits 1 when either M > 0.
set -u
[ $# -ge 2 ] || { sed -n '2,10p' "$0"; exit 2; }
# Absolute paths: each program is scored from its own directory.
old=$(realpath "$1") new=$(realpath "$2")
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/litmus-cmp-XXXXXX")}
mkdir -p "$out"
corpus=$(cd "$(dirname "$0")" && pwd)/corpus
diffs=0 n=0 rdiffs=0 nr=0
# What differs from run to run is masked: timings (durations, the run's
# figures, JUnit's times, the text report's throughput lines), object
# addresses and scratch paths in failure texts, and a timeout's detail
# (which limit struck first, how many tests it completed, depends on the
# machine's load).
mask() {
  sed -E 's/("[a-zA-Z_]*(duration|_ms|_s|rss_kb|per_s|seconds|setup|initialRun|mutation)[a-zA-Z_]*"): *[0-9.e+-]+/\1: X/g
          s/time="[0-9.]+"/time="X"/g; s/[0-9.]+ (s|tasks\/s|tasks\/CPU-s)\b/X \1/g
          s/0x[0-9a-f]+/0xX/g; s/\.\.\.[0-9a-f]{6,}/...X/g; s#/tmp/litmus-[A-Za-z0-9]+/[0-9]+/litmus-[A-Za-z0-9]+#TMP#g
          s/(wall-clock limit|CPU time limit)[^"<]*/LIMIT/g; s/ +/ /g' |
    /usr/bin/python3 -c '
import json, sys
text = sys.stdin.read()
try:
    doc = json.loads(text)
except ValueError:
    sys.stdout.write(text)
    sys.exit(0)
def walk(v):
    if isinstance(v, dict):
        if v.get("status") == "Timeout" or v.get("verdict") == "timeout":
            for k in ("testsCompleted", "tests_run"):
                v.pop(k, None)
        for x in v.values():
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
walk(doc)
json.dump(doc, sys.stdout, indent=1, sort_keys=True)'
}
for dir in "$corpus"/*/; do
  p=$(basename "$dir")
  [ "$p" = patches ] && continue
  [ "$p" = projects ] && continue
  case $p in patch_labels*) continue ;; esac # patch sets, not programs
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
  for fmt in text json stryker junit sarif github; do
    nr=$((nr + 1))
    ra=$("$old" report --db "$out/$p-old.db" --format "$fmt" 2>&1 | mask)
    rb=$("$new" report --db "$out/$p-new.db" --format "$fmt" 2>&1 | mask)
    if [ "$ra" != "$rb" ]; then
      rdiffs=$((rdiffs + 1))
      echo "$p: the $fmt reports differ"
      diff <(echo "$ra") <(echo "$rb") | head -6
    fi
  done
done
echo "mutants: $n, differing: $diffs"
echo "reports: $nr, differing: $rdiffs"
[ "$diffs" -eq 0 ] && [ "$rdiffs" -eq 0 ]
