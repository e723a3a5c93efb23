#!/bin/sh
# Builds the wire-decoder fuzz target with clang in build-fuzz/ and runs it
# for SECONDS (default 20) on a scratch copy of the seed corpus.  Exits
# non-zero on a crash; prints one line with the number of executions.
# Usage: tests/fuzz/run.sh [SECONDS]   SPDX-License-Identifier: MIT
set -eu

secs=${1:-20}
case $secs in
''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build-fuzz
cd "$top"

# New inputs go to a scratch dir so the checked-in seeds stay small;
# crash reproducers land in build-fuzz/artifacts/.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
log=$work/fuzz.log

if ! CC=clang cmake -S . -B "$build" -DLT_FUZZ=ON >"$log" 2>&1 ||
   ! cmake --build "$build" --target fuzz_wire_decoder -j2 >>"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "fuzz_wire_decoder: build failed" >&2
    exit 1
fi
mkdir -p "$build/artifacts"
rc=0
"$build/tests/fuzz/fuzz_wire_decoder" -max_total_time="$secs" \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
    "$work" "$top/tests/fuzz/corpus/wire" >"$log" 2>&1 || rc=$?

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
if [ "$rc" -ne 0 ]; then
    tail -n 60 "$log" >&2
    echo "fuzz_wire_decoder: CRASH after ${execs:-?} executions in ${secs}s" \
         "(reproducers in $build/artifacts/)"
    exit 1
fi
echo "fuzz_wire_decoder: ${execs:-?} executions in ${secs}s, no crash"
