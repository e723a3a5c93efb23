# fork and subprocess are refused: the mutant is not a pass and no
# process survives the run.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_fork"
expect_eq "$RC" 0 "exit code"
v=$(hostile_verdict hostile_fork.py 14)
expect_one_of "$v" killed crashed
v=$(hostile_verdict hostile_fork.py 23)
expect_one_of "$v" killed crashed
left=$(ps -eo args= | grep -E 'litmus|pytest' | grep -v -E 'grep|e2e|run-all|ctest' || true)
no_leftovers
exit 0
