# A package with relative imports and a sub-package, imported from the
# project root: scores with the README's command; baseline as pytest's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/shapes.sh"
shape_copy relative_pkg
shape_score score units --tests tests
shape_check no-note /usr/bin/python3 tests
# Mutants in the sub-package were run too, and some killed.
k=$(q "$P/.litmus.db" "SELECT count(*) FROM mutants m JOIN results r
      ON r.mutant_id = m.id WHERE m.file LIKE '%units/parse/quantity.py'
      AND r.verdict = 'killed'")
[ "$k" -gt 0 ] || fail "no mutant of units/parse/quantity.py killed"
