# A fresh run stopped for CPU time runs its test again before the
# timeout is recorded (a cold interpreter's cost is what machine load
# stretches most): a mutant of a module-level constant (1 -> 2) that makes the
# only test loop is run twice (the second time as the rest of its run),
# and is still a timeout; a loop in a function (no fresh run) is not run
# again when no other test is left.
. "$(dirname "$0")/lib.sh"
export LITMUS_RUN_LOG=$WORK/run.log
ORACLE_TIMEOUT=4 score_against_pytest fresh_loop
unset LITMUS_RUN_LOG
n=$(q "$DB" "SELECT count(*) FROM mutants WHERE line = 2 AND op = 'number'")
[ "$n" -ge 1 ] || fail "no mutant of STEP = 1"
for id in $(q "$DB" "SELECT id FROM mutants WHERE line = 2 AND op = 'number'"); do
  expect_eq "$(q "$DB" "SELECT verdict FROM results WHERE mutant_id = '$id'")" timeout "STEP mutant $id"
  expect_eq "$(grep -c "^$id" "$WORK/run.log")" 2 "runs of STEP mutant $id"
  grep -q "^$id rest$" "$WORK/run.log" || fail "STEP mutant $id: no confirming run: $(grep "^$id" "$WORK/run.log")"
done
expect_eq "$(verdict_at "$DB" steps.py 8 "" "-=")" timeout "i += STEP -> i -= STEP"
id=$(q "$DB" "SELECT id FROM mutants WHERE line = 8 AND replacement = '-='")
expect_eq "$(grep -c "^$id" "$WORK/run.log")" 1 "runs of a function's loop"
no_leftovers
exit 0
