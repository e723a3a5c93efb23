# No "<db>.lock" is left beside the store after a run, a report or a
# refused second run; the lock still keeps a second litmus out (t0040).
. "$(dirname "$0")/lib.sh"
cd "$WORK" || fail "cd"
printf 'def f(a, b):\n    return a + b\n' > a.py
printf 'from a import f\n\ndef test_f():\n    assert f(1, 2) == 3\n' > test_a.py
run_litmus score a.py --tests test_a.py --no-config --no-progress -j 1 --db s.db
expect_eq "$RC" 0 "score ($(cat "$WORK/err"))"
[ -e s.db ] || fail "no store"
[ ! -e s.db.lock ] || fail "s.db.lock left after score"
run_litmus report --db s.db
expect_eq "$RC" 0 "report"
[ ! -e s.db.lock ] || fail "s.db.lock left after report"
run_litmus score a.py --tests test_a.py --no-config --no-progress -j 1 --db s.db
expect_eq "$RC" 0 "resumed score"
[ ! -e s.db.lock ] || fail "s.db.lock left after a resumed score"
exit 0
