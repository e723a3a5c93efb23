# Import-time mutants of a module whose constant is built by its own
# generators (bench/corpus/prime_tables: _PRIMES = tuple(sieve(LIMIT)),
# the sieve walking a bytearray through iter_index, which calls its
# argument's index method) run only the tests that can observe them:
# the tests that ran the code and _PRIMES's readers; a version check
# that picks one of two definitions of chunks, the one test that names
# chunks (per-test selection in a test module that imports it by name).
# Every survivor survives plain pytest on a mutated copy.
. "$(dirname "$0")/lib.sh"
cp -r "$CORPUS/prime_tables" "$WORK/prime_tables"
( cd "$WORK/prime_tables" && "$LITMUS" score prime_tables.py \
    --tests test_prime_tables.py --db "$WORK/pt.db" --no-progress \
    >"$WORK/out" 2>"$WORK/err" )
RC=$?
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "litmus exit $RC: $(cat "$WORK/err")"
DB=$WORK/pt.db
# A narrower selection can only turn a kill into a survivor: every
# survivor must survive plain pytest on a mutated copy too.
/usr/bin/python3 "$REPO/tests/groundtruth.py" --db "$DB" --select all \
  --verdict survived --fork --jobs 1 >"$WORK/oracle" 2>&1 ||
  fail "survivors differ from plain pytest: $(tail -5 "$WORK/oracle")"
all=$(q "$DB" "SELECT count(*) FROM tests WHERE outcome = 'passed'")
expect_eq "$all" 13 "tests"
most() { # first last -> the most tests a survivor of those lines ran
  q "$DB" "SELECT count(*) || ' ' || coalesce(max(r.tests_run), 0) FROM mutants m JOIN results r ON r.mutant_id = m.id WHERE m.line BETWEEN $1 AND $2 AND r.verdict = 'survived'"
}
# The version check (line 104): test_chunks alone names chunks.
expect_eq "$(most 104 104)" "2 1" "survivors of the version check, tests run"
# iter_index and sieve ran at import for _PRIMES: their survivors ran
# their own tests and factor's, not the whole suite.
set -- $(most 15 40)
[ "$1" -ge 3 ] || fail "expected survivors in iter_index and sieve, got $1"
[ "$2" -lt 9 ] || fail "a survivor of iter_index or sieve ran $2 of $all tests"
# _WITNESSES (lines 59-63): is_prime's three tests.
expect_eq "$(most 59 63)" "9 3" "survivors of _WITNESSES, tests run"
no_leftovers
exit 0
