# Fresh imports where plain pytest decides the corner cases: a mutant that
# breaks collection is killed by <module import>; one whose module-level
# loop never ends times out (and the looping child, a grandchild of the
# zygote, is killed); a parametrized test the mutant's collection no
# longer produces is not run, as plain pytest would not run it.
. "$(dirname "$0")/lib.sh"
ORACLE_TIMEOUT=4 score_against_pytest fresh_corners --timeout-const 0.5
v=$(q "$DB" "SELECT r.verdict || ' ' || coalesce(r.killed_by, '') FROM mutants m JOIN results r ON r.mutant_id = m.id WHERE m.line = 3 AND m.op = 'assignment'")
expect_eq "$v" "killed <module import>" "CASES = None breaks collection"
expect_eq "$(verdict_at "$DB" corners.py 7 operator -)" timeout "loop at import"
# 3 -> 4 renames test_double[3]: not collected, reported skipped.
expect_eq "$(verdict_at "$DB" corners.py 3 number 4)" survived "renamed case"
no_leftovers
exit 0
