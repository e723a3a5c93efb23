# A namespace package (no __init__.py at its top) with a module and a
# regular sub-package: both are mutated and killed; baseline as pytest's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy namespace_pkg
[ ! -e "$P/acme/__init__.py" ] || fail "acme must be a namespace package"
shape_score score acme --tests tests
shape_check no-note /usr/bin/python3 tests
for f in acme/intervals.py acme/textstats/__init__.py; do
  k=$(q "$P/.litmus.db" "SELECT count(*) FROM mutants m JOIN results r
        ON r.mutant_id = m.id WHERE m.file LIKE '%$f' AND r.verdict = 'killed'")
  [ "$k" -gt 0 ] || fail "no mutant of $f killed"
done
