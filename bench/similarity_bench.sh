#!/bin/sh
# Batch throughput of `litmus similarity` on generated pairs of 200-line
# Python files: builds a Release tree, runs the in-process benchmark on one
# core (pairs/s per metric set, then the time per phase) and times the
# CLI's --pairs mode end to end.  Most sets use similar pairs (the
# candidate is the reference with 1-5 operators or digits changed); "all,
# unrelated" uses a candidate from another generated file, the figure for
# texts that share little (bench/similarity_bench.c says more).
#
# Usage: bench/similarity_bench.sh [PAIRS]          (default 500)
#
# LT_BENCH_BASELINE=DIR compares with the similarity code of another source
# tree DIR (a checkout of an earlier commit, say): the same benchmark
# source is built against DIR's library, both run in turn (twice each,
# best of two) on the same core, a table gives both rates and their
# ratio, and the two builds' --dump outputs (every field of every result,
# on varied inputs) must be identical.
# With LT_BENCH_INSTR=1 as well, it also counts the instructions per pair
# of each set under valgrind's callgrind (20 pairs; noise-free).
# LT_BENCH_CPU (default 0) is the core; LT_BENCH_BUILD the build directory.
# SPDX-License-Identifier: MIT
set -eu
n=${1:-500}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LT_BENCH_BUILD:-/tmp/build-sim-bench}
cpu=${LT_BENCH_CPU:-0}
pin=""
if command -v taskset >/dev/null 2>&1; then
    pin="taskset -c $cpu"
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 --target similarity_bench litmus-similarity >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench="$build/tests/unit/similarity/similarity_bench"

if [ -n "${LT_BENCH_BASELINE:-}" ]; then
    base=$(cd "$LT_BENCH_BASELINE" && pwd)
    bb="$build-baseline"
    cmake -S "$base" -B "$bb" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$bb" -j2 --target lt_similarity >/dev/null
    # The current benchmark source, public API only, on the old library.
    ${CC:-cc} -std=c17 -O2 -D_GNU_SOURCE -DLT_BENCH_PUBLIC_ONLY -I"$base" \
        "$root/bench/similarity_bench.c" \
        "$bb/engine/similarity/liblt_similarity.a" \
        "$bb/engine/similarity/liblt_ts_grammars.a" \
        "$bb/common/liblt_common.a" -ltree-sitter -ljansson -lm \
        -o "$tmp/bench-baseline"
    for round in 1 2; do
        $pin "$tmp/bench-baseline" "$n" >"$tmp/base.$round"
        $pin "$bench" "$n" >"$tmp/new.$round"
    done
    head -3 "$tmp/new.1"
    echo "one core ($pin), pairs/s of CPU time, best of 2 runs each:"
    # the sets are the lines with 4 fields after the header
    awk -v n=2 '
        FNR == 1 { f++ }
        FNR > 2 && NF >= 4 && $NF ~ /^[0-9.]+$/ && $0 !~ /^ / {
            name = $0; sub(/ +[0-9.]+ +[0-9.]+ +[0-9.]+$/, "", name)
            v = $(NF - 2) + 0
            if (!(name in order)) { order[name] = ++k; names[k] = name }
            if (f <= 2) { if (v > b[name]) b[name] = v }
            else { if (v > c[name]) c[name] = v }
        }
        END {
            printf "%-20s %14s %14s %8s\n", "metrics", "baseline", "now", "ratio"
            for (i = 1; i <= k; i++) {
                m = names[i]
                printf "%-20s %14.1f %14.1f %7.2fx\n", m, b[m], c[m], c[m] / b[m]
            }
        }' "$tmp/base.1" "$tmp/base.2" "$tmp/new.1" "$tmp/new.2"
    echo "this build, second run (phases of \"all metrics\"):"
    sed -n '/^phases/,$p' "$tmp/new.2"
    grep "result hash" "$tmp/base.1" "$tmp/new.1" | sed "s|$tmp/||"
    if [ "${LT_BENCH_INSTR:-0}" = 1 ] && command -v valgrind >/dev/null; then
        # Instructions per pair under callgrind: deterministic, unlike
        # the times on a shared machine.  The pair generation (--only
        # none) is subtracted.
        m=20
        instr() {
            valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
                sed -n 's/.*refs: *//p' | tr -d ,
        }
        echo "instructions per pair (callgrind, $m pairs):"
        printf "%-20s %14s %14s %8s\n" metrics baseline now ratio
        b0=$(instr "$tmp/bench-baseline" $m --only none)
        c0=$(instr "$bench" $m --only none)
        for set in "all metrics" "all but tree-edit" codebleu meteor \
                   rouge-l levenshtein tree-edit "all, 5 cands/ref" \
                   "all, unrelated" "no tree-edit, unrel."; do
            b=$(instr "$tmp/bench-baseline" $m --only "$set")
            c=$(instr "$bench" $m --only "$set")
            echo "$set $b $b0 $c $c0 $m" | awk '{
                m = $NF; c0 = $(NF - 1); c = $(NF - 2); b0 = $(NF - 3)
                b = $(NF - 4); name = $1
                for (i = 2; i <= NF - 5; i++) name = name " " $i
                x = (b - b0) / m / 1e6; y = (c - c0) / m / 1e6
                printf "%-20s %13.2fM %13.2fM %7.2fx\n", name, x, y, x / y }'
        done
    fi
    # Every field of every result, on varied inputs (slow: unrelated
    # files make the tree edit distance quadratic).
    "$tmp/bench-baseline" 6 --dump "$tmp/dump.base"
    "$bench" 6 --dump "$tmp/dump.new"
    if cmp -s "$tmp/dump.base" "$tmp/dump.new"; then
        echo "--dump: $(wc -l <"$tmp/dump.new") results, identical"
    else
        echo "--dump: results DIFFER from the baseline:"
        diff "$tmp/dump.base" "$tmp/dump.new" | head -20
        exit 1
    fi
else
    $pin "$bench" "$n"
fi

"$bench" "$n" --jsonl "$tmp/pairs.jsonl" --only none >/dev/null
drv="$build/tests/unit/similarity/litmus-similarity"
for m in all codebleu,meteor,rouge-l,ctses,levenshtein; do
    t0=$(date +%s.%N)
    $pin "$drv" --pairs "$tmp/pairs.jsonl" --metric "$m" --format json >"$tmp/out"
    t1=$(date +%s.%N)
    lines=$(wc -l <"$tmp/out")
    echo "cli --pairs --metric $m: $lines pairs in $(echo "$t1 - $t0" | bc) s:" \
         "$(echo "scale=1; $lines / ($t1 - $t0)" | bc) pairs/s"
done
