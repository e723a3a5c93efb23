# A test whose CPU time is spent in a Python process it starts (0.4 s,
# against almost nothing in the test's own process): the baseline counts
# that process's time in the test's CPU time, as the engine does when it
# enforces the test's budget (factor x that time + the constant).  Were
# only the test's own process counted, every mutant's run of such a test
# would pass the 0.2 s constant and end as a false timeout.
. "$(dirname "$0")/lib.sh"
score_against_pytest subprocess_cpu
timeouts=$(q "$DB" "SELECT count(*) FROM results WHERE verdict = 'timeout'")
expect_eq "$timeouts" 0 "timeouts"
expect_eq "$(verdict_at "$DB" units.py 5 "" "/")" killed "* -> /"
survived=$(q "$DB" "SELECT count(*) FROM results WHERE verdict = 'survived'")
[ "$survived" -ge 2 ] || fail "only $survived survivors (describe's text is never read)"
no_leftovers
exit 0
