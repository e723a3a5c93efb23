# Module-level comprehensions run at import only: their lines count for
# every test and their mutants run on a fresh import (no_coverage before).
. "$(dirname "$0")/lib.sh"
score_against_pytest fresh_comprehension
expect_eq "$(verdict_at "$DB" squares.py 3 number 3)" killed "range(20) % 3"
n=$(q "$DB" "SELECT count(*) FROM results WHERE verdict = 'no_coverage'")
expect_eq "$n" 0 "no_coverage mutants"
no_leftovers
exit 0
