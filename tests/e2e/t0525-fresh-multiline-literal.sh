# A multi-line list literal is covered when any of its lines runs: the
# tracer sees only its first line, so its continuation lines were
# no_coverage.  Both at module level and inside a function.
. "$(dirname "$0")/lib.sh"
score_against_pytest fresh_multiline
expect_eq "$(verdict_at "$DB" cli.py 18 string "\"XXquietXX\"")" killed "in a function"
expect_eq "$(verdict_at "$DB" cli.py 5 string "\"XXhelpXX\"")" killed "module level"
cov=$(q "$DB" "SELECT coverage FROM tests WHERE nodeid LIKE '%test_levels'")
case $cov in *cli.py:17-22*) ;; *) fail "test_levels coverage is not 17-22: $cov" ;; esac
no_leftovers
exit 0
