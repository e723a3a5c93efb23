# The tests build Version objects at import and pass them to code that
# checks isinstance against the subject's class: a mutant of module or
# class-body code must not make two Version classes.
. "$(dirname "$0")/lib.sh"
score_against_pytest fresh_isinstance
expect_eq "$(verdict_at "$DB" semver.py 6 string "\"XXreleaseXX\"")" survived "class attribute"
expect_eq "$(verdict_at "$DB" semver.py 2 number 5)" survived "module constant"
expect_eq "$(verdict_at "$DB" semver.py 9 string "\"XX.XX\"")" killed "separator"
no_leftovers
exit 0
