# A mutant whose first run is stopped for CPU time in one test is killed
# by another selected test that fails: the tests the run never reached
# run afterwards (not alone, no re-check of the looping test), and the
# failing one wins over the loop.  A timeout with nothing left to run
# stands at once.
. "$(dirname "$0")/lib.sh"
export LITMUS_RUN_LOG=$WORK/runs.log
score_dir "$FIXTURES/loop_then_fail" --timeout-const 0.2
expect_eq "$RC" 0 "exit code"
id=$(q "$DB" "SELECT id FROM mutants WHERE file LIKE '%/loop_then_fail.py' AND line = 8 AND replacement = '+'")
[ -n "$id" ] || fail "no n - 1 -> n + 1 mutant"
row=$(q "$DB" "SELECT verdict || '|' || killed_by FROM results WHERE mutant_id = '$id'")
case $row in
  "killed|"*test_loop_then_fail.py::test_prev) ;;
  *) fail "n + 1 mutant: $row" ;;
esac
expect_eq "$(grep -c "^$id" "$WORK/runs.log")" 2 "runs of the mutant"
grep -q "^$id rest$" "$WORK/runs.log" || fail "no rest run: $(cat "$WORK/runs.log")"
grep -q " recheck$" "$WORK/runs.log" && fail "a CPU timeout was re-checked alone"
no_leftovers
