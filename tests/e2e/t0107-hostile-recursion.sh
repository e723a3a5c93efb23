# Unbounded recursion is detected (RecursionError, or a crash once the
# limit is lifted), never survived, and the engine carries on.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_recursion"
expect_eq "$RC" 0 "exit code"
expect_one_of "$(hostile_verdict hostile_recursion.py 17)" killed crashed timeout memory
expect_one_of "$(hostile_verdict hostile_recursion.py 23)" crashed timeout memory killed
no_leftovers
exit 0
