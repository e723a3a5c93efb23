# pytest options after `--` reach conftest; several files in one call.
. "$(dirname "$0")/lib.sh"
cd "$CORPUS/quix_gcd"
run_litmus score correct_programs/gcd.py --tests test_gcd.py --db "$WORK/q.db" --no-progress -- --correct
expect_eq "$RC" 0 "with --correct"
run_litmus score correct_programs/gcd.py --tests test_gcd.py --db "$WORK/q2.db" --no-progress
expect_eq "$RC" 2 "without --correct the baseline fails"
cd "$CORPUS/linalg"
run_litmus score . --tests . --db "$WORK/l.db" --no-progress --format json
expect_eq "$RC" 0 "multi-file"
files=$(q "$WORK/l.db" "SELECT count(DISTINCT file) FROM mutants")
expect_eq "$files" 2 "files mutated"
undecided=$(q "$WORK/l.db" "SELECT count(*) FROM mutants m LEFT JOIN results r ON r.mutant_id=m.id WHERE r.verdict IS NULL OR r.verdict IN ('error')")
expect_eq "$undecided" 0 "mutants without a verdict"
exit 0
