# A child that stops itself is killed at its deadline: timeout, and no
# stopped process is left.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_sigstop" --timeout-const 0.5
expect_eq "$RC" 0 "exit code"
expect_eq "$(hostile_verdict hostile_sigstop.py 7)" timeout "SIGSTOP"
no_leftovers
exit 0
