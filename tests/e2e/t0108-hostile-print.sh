# Printing forever is stopped at the output cap.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/hostile_print"
expect_eq "$RC" 0 "exit code"
v=$(hostile_verdict hostile_print.py 5)
expect_one_of "$v" crashed timeout
id=$(q "$DB" "SELECT m.id FROM mutants m WHERE m.line=5 AND m.replacement='True'")
len=$(q "$DB" "SELECT length(coalesce(output,'')) FROM results WHERE mutant_id='$id'")
[ "$len" -le 70000 ] || fail "stored output not capped: $len bytes"
no_leftovers
exit 0
