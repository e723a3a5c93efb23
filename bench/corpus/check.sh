#!/bin/sh
# Run every corpus suite with Debian's Python and pytest; one line per program,
# then "N passed, N failed". Exit status 1 if any program failed.
#
#   bench/corpus/check.sh            # from anywhere
#   PYTHON=/path/to/python3 bench/corpus/check.sh
#
# quix_gcd is run twice: with --correct (must pass) and without it, against the
# buggy python_programs/gcd.py (must fail).
set -u
PYTHON=${PYTHON:-/usr/bin/python3}
CORPUS=$(cd "$(dirname "$0")" && pwd)
export PYTHONDONTWRITEBYTECODE=1
passed=0
failed=0

run() {  # run NAME EXPECT(pass|fail) EXTRA_ARGS...
    name=$1 expect=$2
    shift 2
    start=$(date +%s.%N)
    out=$(cd "$CORPUS" && "$PYTHON" -m pytest -q -p no:cacheprovider "$name" "$@" 2>&1)
    rc=$?
    end=$(date +%s.%N)
    secs=$(awk "BEGIN { printf \"%.2f\", $end - $start }")
    summary=$(printf '%s\n' "$out" | tail -n 1)
    if { [ "$expect" = pass ] && [ $rc -eq 0 ]; } ||
       { [ "$expect" = fail ] && [ $rc -eq 1 ]; }; then
        status=ok
        passed=$((passed + 1))
    else
        status=FAIL
        failed=$((failed + 1))
    fi
    printf '%-4s %-28s %5ss  %s\n' "$status" "$name${1:+ $*}" "$secs" "$summary"
    if [ "$status" = FAIL ]; then
        printf '%s\n' "$out" | tail -n 30 | sed 's/^/     | /'
    fi
}

for dir in "$CORPUS"/*/; do
    name=$(basename "$dir")
    # patches/ and patch_labels*/ are the patch-triage corpora, checked by
    # their own check.py; projects/ holds project shapes, each needing its
    # own set-up (see projects/README.md and tests/e2e/t04*-shape-*.sh).
    case $name in patch*) continue ;; esac
    [ "$name" = projects ] && continue
    if [ "$name" = quix_gcd ]; then
        run quix_gcd pass --correct
        run quix_gcd fail
    else
        run "$name" pass
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
