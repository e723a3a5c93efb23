# An unknown option or a bad value is a two-line error, exit 2, never the
# help text; --version and -V print the CMake project version.
. "$(dirname "$0")/lib.sh"
cd "$WORK" || fail "cd"
two_lines() { # cmd-name first-line args...
  local name=$1 first=$2; shift 2
  run_litmus "$@"
  expect_eq "$RC" 2 "litmus $*: exit code"
  expect_eq "$(cat "$WORK/err")" "litmus $name: $first
Try 'litmus $name --help'." "litmus $*: message"
  [ ! -s "$WORK/out" ] || fail "litmus $*: stdout not empty"
}
two_lines score "unknown option '--x'" score --x
two_lines score "unknown option '--x'" score a.py --x=3
two_lines score "unknown option '-Z'" score -Z a.py
two_lines score "--jobs: invalid value '0' (1..1024)" score a.py --jobs 0
two_lines score "option '--db' needs a value" score a.py --db
two_lines show "unknown option '--x'" show --x
two_lines report "--format: invalid value 'xml' (text, json, stryker, junit, sarif or github)" report --format xml
two_lines merge "unknown option '--x'" merge --x a b
two_lines slurm "--shards: invalid value 'x' (1..100000)" slurm --shards x score a.py
two_lines patches "--threshold: invalid value '2' (0..1)" patches --threshold 2
two_lines "dataset select" "unknown option '--x'" dataset select --x
two_lines "dataset typed" "--per-cell: invalid value '0' (1..10000)" dataset typed --per-cell 0
two_lines "dataset select" "--per-cell is not an option of this mode" dataset select --per-cell 2
two_lines "dataset rewrite" "--ops: empty composition (e.g. c,v,d)" dataset rewrite --ops ,
# A --vocab that is JSON but not an object: the file, no line number.
echo '[1]' >"$WORK/vocab.json"
echo '{}' >"$WORK/in.jsonl"
run_litmus dataset rewrite "$WORK/in.jsonl" --vocab "$WORK/vocab.json" --no-progress
expect_eq "$RC" 2 "--vocab not an object: exit code"
expect_eq "$(cat "$WORK/err")" "litmus: error: $WORK/vocab.json: the vocabulary must be a JSON object {\"names\", \"comments\", \"dead_code\"}" "--vocab not an object"
if "$LITMUS" similarity --help >/dev/null 2>&1; then
  two_lines similarity "unknown option '--x'" similarity --x a b
  two_lines similarity "need CANDIDATE and REFERENCE files" similarity a.py
fi
run_litmus frobnicate
expect_eq "$(cat "$WORK/err")" "litmus: unknown command 'frobnicate'
Try 'litmus --help'." "unknown command"

# The version is the project's, from CMakeLists.txt.
want=$(sed -n 's/^project(litmus VERSION \([0-9.]*\).*/\1/p' "$REPO/CMakeLists.txt")
[ -n "$want" ] || fail "no version in CMakeLists.txt"
for opt in --version -V; do
  run_litmus $opt
  expect_eq "$RC" 0 "$opt: exit code"
  expect_eq "$(cat "$WORK/out")" "litmus $want" "$opt"
done
exit 0
