# @functools.total_ordering removed: the class built on a fresh import has
# no >=, which the tests use.  Swapping code could not show it.
. "$(dirname "$0")/lib.sh"
score_against_pytest fresh_ordering
expect_eq "$(verdict_at "$DB" version.py 7 decorator)" killed "decorator removed"
no_leftovers
exit 0
