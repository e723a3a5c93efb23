#!/bin/sh
# Batch throughput of `litmus similarity` on generated pairs of 200-line
# Python files: builds a Release tree, runs the in-process benchmark
# (pairs/s per metric set) and times the CLI's --pairs mode end to end.
# Usage: bench/similarity_bench.sh [PAIRS]    (default 500)
# SPDX-License-Identifier: MIT
set -eu
n=${1:-500}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LT_BENCH_BUILD:-/tmp/build-sim-bench}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 --target similarity_bench litmus-similarity >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tests/unit/similarity/similarity_bench" "$n" --jsonl "$tmp/pairs.jsonl"
drv="$build/tests/unit/similarity/litmus-similarity"
for m in all codebleu,meteor,rouge-l,ctses,levenshtein; do
    t0=$(date +%s.%N)
    "$drv" --pairs "$tmp/pairs.jsonl" --metric "$m" --format json >"$tmp/out"
    t1=$(date +%s.%N)
    lines=$(wc -l <"$tmp/out")
    echo "cli --pairs --metric $m: $lines pairs in $(echo "$t1 - $t0" | bc) s:" \
         "$(echo "scale=1; $lines / ($t1 - $t0)" | bc) pairs/s"
done
