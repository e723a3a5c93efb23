#!/bin/sh
# Builds the fuzz targets of the parsers of untrusted input with clang in
# build-fuzz/ and runs them for SECONDS in all (default 20; split between
# them) on scratch copies of their seed corpora: the runners' wire decoder
# (fuzz_wire_decoder), the Java workers' (fuzz_jvm_wire) and the readers
# of unified diffs, a model's patches (fuzz_diff).  Exits
# non-zero on a crash; prints one line per target with the number of
# executions.
# Usage: tests/fuzz/run.sh [SECONDS]   SPDX-License-Identifier: MIT
set -eu

secs=${1:-20}
case $secs in
''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build-fuzz
cd "$top"

# New inputs go to scratch dirs so the checked-in seeds stay small;
# crash reproducers land in build-fuzz/artifacts/.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
log=$work/fuzz.log

if ! CC=clang cmake -S . -B "$build" -DLT_FUZZ=ON >"$log" 2>&1 ||
   ! cmake --build "$build" --target fuzz_wire_decoder fuzz_jvm_wire fuzz_diff \
       -j2 >>"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz targets: build failed" >&2
    exit 1
fi
mkdir -p "$build/artifacts"
# The older decoder gets the larger share (more frame kinds).
third=$((secs / 3))
[ "$third" -ge 1 ] || third=1
rest=$((secs - 2 * third))
[ "$rest" -ge 1 ] || rest=1
fail=0
for spec in "fuzz_wire_decoder $rest wire" "fuzz_jvm_wire $third -" \
            "fuzz_diff $third diff"; do
    set -- $spec
    target=$1 t=$2 seeds=$3
    mkdir -p "$work/$target"
    set -- "$work/$target"
    [ "$seeds" = - ] || set -- "$@" "$top/tests/fuzz/corpus/$seeds"
    rc=0
    "$build/tests/fuzz/$target" -max_total_time="$t" \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
        "$@" >"$log" 2>&1 || rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [ "$rc" -ne 0 ]; then
        tail -n 60 "$log" >&2
        echo "$target: CRASH after ${execs:-?} executions in ${t}s" \
             "(reproducers in $build/artifacts/)"
        fail=1
        continue
    fi
    echo "$target: ${execs:-?} executions in ${t}s, no crash"
done
exit $fail
