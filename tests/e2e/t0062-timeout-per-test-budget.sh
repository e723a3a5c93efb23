# A looping test is stopped on its own CPU budget (factor x its baseline
# time + the constant), not after the budget of every test selected with
# it: the timeout costs about the constant, and says so.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/loop_among_tests" --timeout-const 0.1
expect_eq "$RC" 0 "exit code"
expect_eq "$(verdict_at "$DB" loop_among_tests.py 9 "" "-=")" timeout \
  "i += 1 -> i -= 1"
row=$(q "$DB" "SELECT r.detail || '|' || r.duration_ms || '|' || r.killed_by FROM mutants m JOIN results r ON r.mutant_id = m.id WHERE m.file LIKE '%/loop_among_tests.py' AND m.line = 9 AND m.replacement = '-='")
detail=${row%%|*}
case $detail in
  "CPU time limit of "*" s for one test") ;;
  *) fail "timeout detail: $detail" ;;
esac
# Every test calls step(), so each loops; the test named is the one that
# was running when the limit hit.
case $row in
  *"|"*test_loop_among_tests.py::test_*) ;;
  *) fail "killing test: $row" ;;
esac
# With the job's budget alone (the nine tests' time x 5 + 0.1 s) the
# detail would name that larger limit instead.
no_leftovers
