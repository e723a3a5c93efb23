# Property tests with Debian's hypothesis: the baseline is stable (no test
# flaky), mutants are killed, and no .hypothesis database appears in the
# project (shape_check compares listings).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
/usr/bin/python3 -c 'import hypothesis' 2>/dev/null || skip "python3-hypothesis is not installed"
shape_copy hypothesis_suite
shape_score score rle.py --tests tests
[ ! -e "$P/.hypothesis" ] || fail "litmus left .hypothesis in the project"
shape_check no-note /usr/bin/python3 tests
f=$(q "$P/.litmus.db" "SELECT count(*) FROM tests WHERE outcome = 'flaky'")
[ "$f" = 0 ] || fail "$f flaky tests in a seeded hypothesis suite"
