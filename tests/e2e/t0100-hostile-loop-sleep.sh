# `while True: pass` and `time.sleep(10**6)` end as timeouts, and no
# process is left behind.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_loop" --timeout-const 0.5
expect_eq "$RC" 0 "hostile_loop exit code"
expect_eq "$(hostile_verdict hostile_loop.py 5)" timeout "while True: pass"
score_dir "$FIXTURES/hostile_sleep" --timeout-const 0.5
expect_eq "$RC" 0 "hostile_sleep exit code"
expect_eq "$(hostile_verdict hostile_sleep.py 6)" timeout "time.sleep(10**6)"
no_leftovers
exit 0
