# os.kill(os.getppid(), 9) cannot hurt the engine: the run completes and
# every mutant gets a real verdict.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_killparent"
expect_eq "$RC" 0 "exit code"
expect_one_of "$(hostile_verdict hostile_killparent.py 6)" killed crashed
errors=$(q "$DB" "SELECT count(*) FROM results WHERE verdict='error'")
expect_eq "$errors" 0 "error verdicts"
expect_eq "$(q "$DB" "SELECT count(*) FROM results")" "$(q "$DB" "SELECT count(*) FROM mutants")" "all mutants done"
no_leftovers
exit 0
