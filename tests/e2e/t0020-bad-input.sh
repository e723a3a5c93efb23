# Bad input: a one-line error, exit 2, and no database left behind.
. "$(dirname "$0")/lib.sh"
check_bad() { # what dir [args...]
  local what=$1 dir=$2; shift 2
  local db=$WORK/bad.db
  rm -f "$db"*
  run_litmus score "$dir" --tests "$dir" --db "$db" --no-progress "$@"
  expect_eq "$RC" 2 "$what: exit code"
  local lines
  lines=$(grep -c 'error' "$WORK/err" || true)
  expect_eq "$lines" 1 "$what: one error line ($(cat "$WORK/err"))"
  [ ! -e "$db" ] || fail "$what: database written"
  [ ! -s "$WORK/out" ] || fail "$what: stdout not empty"
}
check_bad "syntax error" "$FIXTURES/bad_syntax"
grep -q 'bad_syntax.py:[0-9]' "$WORK/err" || fail "syntax error names no line: $(cat "$WORK/err")"
check_bad "failing baseline" "$FIXTURES/bad_baseline"
grep -q 'test_add' "$WORK/err" || fail "failing test not named: $(cat "$WORK/err")"
check_bad "no tests" "$FIXTURES/bad_notests"
check_bad "non-UTF-8 source" "$FIXTURES/bad_encoding"
grep -qi 'utf-8' "$WORK/err" || fail "encoding error unclear: $(cat "$WORK/err")"
check_bad "missing path" "$WORK/does-not-exist"
# A file that is not a litmus database is refused and left unchanged.
head -c 4096 /dev/urandom > "$WORK/corrupt.db"
sum=$(sha256sum < "$WORK/corrupt.db")
run_litmus score "$CORPUS/merge_sort" --tests "$CORPUS/merge_sort" --db "$WORK/corrupt.db" --no-progress
expect_eq "$RC" 2 "corrupt database: exit code"
expect_eq "$(grep -c error "$WORK/err")" 1 "corrupt database: one line"
expect_eq "$(sha256sum < "$WORK/corrupt.db")" "$sum" "corrupt database unchanged"
run_litmus show abcd --db "$WORK/corrupt.db"
expect_eq "$RC" 2 "show on a corrupt database"
no_leftovers
exit 0
