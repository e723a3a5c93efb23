# Compiler equivalence, duplicates and coverage-based selection.
. "$(dirname "$0")/lib.sh"
score_dir "$FIXTURES/select_equiv" --format json
expect_eq "$RC" 0 "exit code"
f=select_equiv.py
expect_eq "$(verdict_at "$DB" $f 9 number 2)" equivalent "if 1 -> if 2"
id_a=$(q "$DB" "SELECT id FROM mutants WHERE line=15 AND op='number' AND col=11")
id_b=$(q "$DB" "SELECT id FROM mutants WHERE line=15 AND op='number' AND col=15")
[ -n "$id_a" ] && [ -n "$id_b" ] || fail "the two number mutants of line 15 are missing"
va=$(q "$DB" "SELECT verdict FROM results WHERE mutant_id='$id_a'")
vb=$(q "$DB" "SELECT verdict FROM results WHERE mutant_id='$id_b'")
expect_eq "$va" killed "2 + 1"
expect_eq "$vb" "$va" "1 + 2 shares the verdict of 2 + 1"
dups=$(q "$DB" "SELECT count(*) FROM results WHERE detail LIKE 'same code as mutant %'")
[ "$dups" -ge 1 ] || fail "no duplicate recorded"
nocov=$(q "$DB" "SELECT count(*) FROM mutants m JOIN results r ON r.mutant_id=m.id WHERE m.line=19 AND r.verdict != 'no_coverage'")
expect_eq "$nocov" 0 "mutants of never_called are no_coverage"
[ "$(q "$DB" "SELECT count(*) FROM mutants WHERE line=19")" -ge 1 ] || fail "no mutant on line 19"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "JSON summary lacks duplicates/equivalent"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["equivalent"] >= 1 and s["duplicates"] >= 1 and s["no_coverage"] >= 1, s
PY
# Per-test coverage is kept in the store.
cov=$(q "$DB" "SELECT coverage FROM tests WHERE nodeid LIKE '%test_three'")
echo "$cov" | grep -q "select_equiv.py:.*15" || fail "coverage of test_three lacks line 15: $cov"
exit 0
