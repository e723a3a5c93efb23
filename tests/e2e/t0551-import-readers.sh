# Mutants of import-time code run only the tests that can observe what
# their statement binds: a constant's, its readers' tests; a table built
# at import by two functions, the table's readers; a statement that
# fills a registry, every test.  Every verdict equals plain pytest's.
. "$(dirname "$0")/lib.sh"
score_against_pytest import_readers
tests_run() { # line op -> tests_run of the first such mutant
  q "$DB" "SELECT r.tests_run FROM mutants m JOIN results r ON r.mutant_id = m.id WHERE m.file LIKE '%units.py' AND m.line = $1 AND m.op = '$2' ORDER BY m.start LIMIT 1"
}
all=$(q "$DB" "SELECT count(*) FROM tests WHERE outcome = 'passed'")
expect_eq "$all" 7 "tests"
# KILO (line 5): scale and big read it, and MEGA's statement passes it on.
[ "$(tests_run 5 number)" -lt "$all" ] || fail "KILO's mutant ran every test"
expect_eq "$(verdict_at "$DB" units.py 5 number)" killed "KILO"
# MEGA (line 6) is read by big alone, loosely: it survives after one test.
expect_eq "$(tests_run 6 number)" 1 "tests run for MEGA's mutant"
expect_eq "$(verdict_at "$DB" units.py 6 number)" survived "MEGA"
# __lazy_modules__: nothing reads it; one test runs, on a fresh import.
expect_eq "$(tests_run 8 string)" 1 "tests run for __lazy_modules__"
# The sieve runs at import for PRIMES: its mutants run PRIMES's readers.
n=$(q "$DB" "SELECT max(r.tests_run) FROM mutants m JOIN results r ON r.mutant_id = m.id WHERE m.file LIKE '%units.py' AND m.line BETWEEN 26 AND 33 AND r.verdict IN ('killed', 'survived')")
[ -n "$n" ] && [ "$n" -lt "$all" ] || fail "the sieve's mutants ran every test ($n)"
# register() fills REGISTRY at import: its call's mutant may be seen by
# any test, and test_registry kills it.
expect_eq "$(verdict_at "$DB" units.py 18 string)" killed "the registered name"
no_leftovers
exit 0
