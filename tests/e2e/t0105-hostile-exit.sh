# os._exit(0) and sys.exit(0) in the middle of a test are never a pass.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_exit"
expect_eq "$RC" 0 "exit code"
expect_one_of "$(hostile_verdict hostile_exit.py 15)" killed crashed
expect_one_of "$(hostile_verdict hostile_exit.py 24)" killed crashed
no_leftovers
exit 0
