# The CPU budget of a mutant covers its tests, not the re-execution of an
# expensive module that putting a module-level mutant in place needs: such
# a mutant survives instead of being recorded as a timeout.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/slow_import" --timeout-const 0.1
expect_eq "$RC" 0 "exit code"
# ROUNDS = 3_500_000 -> 3_500_001: the module is re-executed (~0.3 s of
# CPU against a budget of 5 x the test's time + 0.1 s), the test passes.
expect_eq "$(verdict_at "$DB" slow_import.py 6 "" 3500001)" survived \
  "module-level number mutant"
[ "$(q "$DB" "SELECT count(*) FROM results WHERE verdict = 'timeout'")" = 0 ] ||
  fail "timeouts recorded: $(q "$DB" "SELECT mutant_id, detail FROM results WHERE verdict = 'timeout'")"
no_leftovers
