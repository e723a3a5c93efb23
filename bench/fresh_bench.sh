#!/bin/sh
# Cost of a module- or class-level mutant: fresh import (a child of the
# pre-import server imports the mutated subject and collects the tests
# anew) against the re-execution it replaced (LITMUS_FRESH=0).
#
#   bench/fresh_bench.sh [LITMUS] [PROGRAM_DIR...]
#
# LITMUS defaults to build/litmus; the programs default to the fresh_*
# fixtures and two corpus programs.  Prints, per program, the number of
# mutants outside function bodies that ran and the median of their child
# time (results.duration_ms: fork to verdict), old and new, and the ratio
# new/old.  See docs/design.md, "Module and class-level mutants".
set -eu
here=$(cd "$(dirname "$0")" && pwd)
litmus=${1:-$here/../build/litmus}
[ $# -gt 0 ] && shift
exec "${BENCH_PYTHON:-/usr/bin/python3}" "$here/fresh_bench.py" "$litmus" "$@"
