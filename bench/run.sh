#!/bin/sh
# make bench: bench/run.sh LITMUS_BINARY
# Runs litmus (default --jobs and --jobs 1) on bench/corpus, the floor, and a
# process-per-mutant comparator; writes bench/results/YYYY-MM-DD.{json,txt}
# and prints the text. See docs/performance.md.
#   BENCH_PROGRAMS="a b c"  subset of the corpus
#   BENCH_SAMPLE=N          comparator sample size (default 120, 0 = skip)
set -eu
if [ $# -ne 1 ]; then
    echo "usage: bench/run.sh LITMUS_BINARY" >&2
    exit 2
fi
PYTHON=${BENCH_PYTHON:-/usr/bin/python3}
if ! "$PYTHON" -c 'import pytest' 2>/dev/null; then
    echo "bench: $PYTHON cannot import pytest (set BENCH_PYTHON)" >&2
    exit 2
fi
export BENCH_PYTHON="$PYTHON"
exec "$PYTHON" "$(dirname "$0")/bench.py" "$1"
