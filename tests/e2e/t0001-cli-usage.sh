# --help everywhere, and usage errors exit 2 with one line.
. "$(dirname "$0")/lib.sh"
for cmd in "" score show report; do
  run_litmus $cmd --help
  expect_eq "$RC" 0 "litmus $cmd --help"
  grep -q usage "$WORK/out" || fail "no usage text for '$cmd'"
done
run_litmus
expect_eq "$RC" 2 "no command"
run_litmus frobnicate
expect_eq "$RC" 2 "unknown command"
grep -q "unknown command 'frobnicate'" "$WORK/err" || fail "no message"
run_litmus score
expect_eq "$RC" 2 "score without paths"
run_litmus score x.py --jobs 0
expect_eq "$RC" 2 "--jobs 0"
run_litmus score x.py --format xml
expect_eq "$RC" 2 "--format xml"
run_litmus score x.py --fail-under 1.5
expect_eq "$RC" 2 "--fail-under 1.5"
run_litmus show
expect_eq "$RC" 2 "show without id"
run_litmus --version
expect_eq "$RC" 0 "--version"
exit 0
