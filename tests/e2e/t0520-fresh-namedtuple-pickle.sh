# A module-level namedtuple whose instances the tests pickle (built at
# collection, in parametrize): a mutant of module-level code must not
# make pickle see two CacheInfo classes.  Verdicts equal plain pytest's.
. "$(dirname "$0")/lib.sh"
score_against_pytest fresh_namedtuple
# Unused by the tests: plain pytest passes, so these survive (re-executing
# the module killed them with "not the same object as stats.CacheInfo").
expect_eq "$(verdict_at "$DB" stats.py 6 number 129)" survived "default size"
expect_eq "$(verdict_at "$DB" stats.py 4 string "\"XXmaxsizeXX\"")" survived "field name"
expect_eq "$(verdict_at "$DB" stats.py 4 string "\"XXhitsXX\"")" killed "used field"
no_leftovers
exit 0
