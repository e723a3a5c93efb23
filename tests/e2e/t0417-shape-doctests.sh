# Doctests collected through `addopts = --doctest-modules`: the doctest
# items are in the baseline, and some mutant is killed by a doctest.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy doctests
shape_score score romans.py
shape_check no-note /usr/bin/python3
db=$P/.litmus.db
n=$(q "$db" "SELECT count(*) FROM tests WHERE nodeid LIKE 'romans.py::%'")
[ "$n" = 3 ] || fail "expected 3 doctest items of romans.py, got $n"
# Run the doctests alone against the mutants: they must kill some too.
rm -f "$db"*
shape_score score romans.py -- romans.py
[ "$RC" = 0 ] || fail "doctests alone: exit $RC: $(tail -n 3 "$WORK/err")"
k=$(q "$db" "SELECT count(*) FROM results WHERE verdict = 'killed'")
[ "$k" -gt 0 ] || fail "no mutant killed by the doctests alone"
