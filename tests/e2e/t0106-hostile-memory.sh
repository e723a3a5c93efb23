# bytearray(8 << 30) ends as `memory` under the address-space limit.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_memory"
expect_eq "$RC" 0 "exit code"
v=$(hostile_verdict hostile_memory.py 5)
if [ "${LT_SANITIZED:-0}" = 1 ]; then
  # Sanitizer builds run without RLIMIT_AS (ASan reserves terabytes of
  # address space): the allocation is refused, crashes or exhausts time.
  expect_one_of "$v" memory crashed killed timeout
else
  expect_eq "$v" memory "bytearray(8 << 30)"
fi
no_leftovers
exit 0
