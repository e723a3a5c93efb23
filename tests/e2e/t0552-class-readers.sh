# Mutants of class-body bindings and module constants run only the tests
# that can observe them: a special method bound to a def, the tests that
# ran that def (its implicit calls run its lines); one bound to what a
# factory returns, the tests that ran the factory's nested def; a plain
# class attribute or a module constant, its readers; a version check
# that picks a function, the readers of that function.  vars() of an
# instance a test made reads no module.  Every verdict equals plain
# pytest's.
. "$(dirname "$0")/lib.sh"
score_against_pytest class_readers
tests_run() { # line op [replacement] -> tests_run of the first such mutant
  local where="m.file LIKE '%bag.py' AND m.line = $1 AND m.op = '$2'"
  [ -n "${3:-}" ] && where="$where AND m.replacement = '$3'"
  q "$DB" "SELECT r.tests_run FROM mutants m JOIN results r ON r.mutant_id = m.id WHERE $where ORDER BY m.start LIMIT 1"
}
all=$(q "$DB" "SELECT count(*) FROM tests WHERE outcome = 'passed'")
expect_eq "$all" 9 "tests"
# LIMITS (line 9): size_label reads it; 10 -> 11 survives its one test.
expect_eq "$(tests_run 9 number 11)" 1 "tests run for LIMITS's 10 -> 11"
expect_eq "$(verdict_at "$DB" bag.py 9 number 11)" survived "LIMITS 10 -> 11"
# __copy__ = copy (line 32): copy.copy calls copy's body.
expect_eq "$(verdict_at "$DB" bag.py 32 assignment)" killed "__copy__ = None"
expect_eq "$(tests_run 32 assignment)" 1 "tests run for __copy__ = None"
# __radd__ = __add__ (line 37): the tests that ran __add__'s body.
expect_eq "$(verdict_at "$DB" bag.py 37 assignment)" killed "__radd__ = None"
# __eq__ (line 49): the comparer's tests; its symbol only reaches a
# docstring, which they do not read.
n=$(tests_run 49 string)
[ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -lt "$all" ] || fail "__eq__'s string mutant ran $n of $all tests"
expect_eq "$(verdict_at "$DB" bag.py 49 string)" survived "__eq__'s symbol"
expect_eq "$(verdict_at "$DB" bag.py 50 assignment)" killed "__lt__ = None"
# KIND (line 52): describe reads it, test_describe kills it.
expect_eq "$(tests_run 52 string)" 1 "tests run for KIND's mutant"
expect_eq "$(verdict_at "$DB" bag.py 52 string)" killed "KIND"
# The version check (line 55) binds describe: test_other.py names it.
n=$(tests_run 55 operator)
[ -n "$n" ] && [ "$n" -lt "$all" ] || fail "the version check's mutant ran $n of $all tests"
# _make_cmp = staticmethod(...) (line 51): its code ran at import: every
# test.
expect_eq "$(tests_run 51 assignment)" "$all" "tests run for _make_cmp = None"
no_leftovers
exit 0
