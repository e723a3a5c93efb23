# A write outside the scratch directory fails and leaves no file.
. "$(dirname "$0")/lib.sh"
export LITMUS_TEST_OUTSIDE=$WORK/outside/escaped.txt
mkdir -p "$WORK/outside"
score_dir "$FIXTURES/hostile_write"
expect_eq "$RC" 0 "exit code"
expect_one_of "$(hostile_verdict hostile_write.py 15)" killed crashed
[ ! -e "$LITMUS_TEST_OUTSIDE" ] || fail "the mutant wrote $LITMUS_TEST_OUTSIDE"
no_leftovers
exit 0
