# A base class changed in shapes/base.py: the subclass in shapes/square.py
# must inherit from the mutant class (re-execution left it on the old
# base, a false survivor).
. "$(dirname "$0")/lib.sh"
score_against_pytest fresh_subclass
expect_eq "$(verdict_at "$DB" shapes/base.py 2 number 2)" killed "unit = 2"
no_leftovers
exit 0
