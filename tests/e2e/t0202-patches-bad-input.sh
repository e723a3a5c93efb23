# litmus patches on bad input: one clear error line, exit 2, nothing on
# stdout and no database left behind.
. "$(dirname "$0")/lib.sh"
P=$CORPUS/patches
G=$P/gcd
check_bad() { # what pattern args...
  local what=$1 pattern=$2; shift 2
  local db=$WORK/bad.db
  rm -f "$db"*
  run_litmus patches --db "$db" --no-progress "$@"
  expect_eq "$RC" 2 "$what: exit code ($(cat "$WORK/err"))"
  expect_eq "$(grep -c 'error' "$WORK/err")" 1 "$what: one error line ($(cat "$WORK/err"))"
  grep -q -- "$pattern" "$WORK/err" || fail "$what: message lacks '$pattern': $(cat "$WORK/err")"
  [ ! -e "$db" ] || fail "$what: database written"
  [ ! -s "$WORK/out" ] || fail "$what: stdout not empty"
}
one() { printf '{"program": "gcd", "run_id": "%s", "patch_text": "def gcd(a, b):\\n    return a\\n"}\n' "$1"; }

run_litmus patches --help
expect_eq "$RC" 0 "--help"
grep -q '^usage: litmus patches' "$WORK/out" || fail "no usage text"
grep -q 'exit codes' "$WORK/out" || fail "usage lacks exit codes"

check_bad "no --patches" "patches is required" --buggy "$G/gcd.py" --tests "$G/test_gcd.py"
check_bad "no --buggy" "give --buggy" --patches "$G/patches"
check_bad "manifest and --buggy" "drop --buggy" --manifest "$P/manifest.json" --buggy "$G/gcd.py" --patches "$G/patches"
check_bad "missing buggy file" "nope.py" --buggy "$WORK/nope.py" --tests "$G/test_gcd.py" --patches "$G/patches"
check_bad "missing patches" "no-such" --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --patches "$WORK/no-such"
mkdir -p "$WORK/empty"
check_bad "empty patch folder" "no patch found" --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --patches "$WORK/empty"

{ one run1; echo '{"program": "gcd", "run_id": "run2", "patch_text": '; one run3; } > "$WORK/broken.jsonl"
check_bad "malformed JSON line" "broken.jsonl:2:" --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --patches "$WORK/broken.jsonl"
{ one run1; echo '{"program": "gcd", "run_id": "run2"}'; } > "$WORK/notext.jsonl"
check_bad "missing patch_text" "notext.jsonl:2: \"patch_text\"" --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --patches "$WORK/notext.jsonl"
{ one run1; one run1; } > "$WORK/dup.jsonl"
check_bad "duplicate run_id" "appears twice" --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --patches "$WORK/dup.jsonl"
check_bad "program not in the manifest" "not in the manifest" --manifest "$P/manifest.json" --patches <(printf '{"program": "nope", "run_id": "r", "patch_text": "x = 1\\n"}\n')
check_bad "patches of another program" "use --manifest" --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --patches "$P/patches.jsonl"

printf '{"gcd": {"buggy": "gcd.py"}}\n' > "$WORK/m1.json"
check_bad "manifest entry without tests" "needs \"buggy\" and \"tests\"" --manifest "$WORK/m1.json" --patches "$G/patches"
printf '{"gcd": {"buggy": "gcd.py", "tests": "test_gcd.py"}}\n' > "$WORK/m2.json"
check_bad "manifest path missing" "m2.json: program 'gcd': buggy file" --manifest "$WORK/m2.json" --patches "$G/patches"
printf '{"gcd": ' > "$WORK/m3.json"
check_bad "manifest not JSON" "m3.json:1: not valid JSON" --manifest "$WORK/m3.json" --patches "$G/patches"
printf '[1, 2]\n{"x": 1}\n' > "$WORK/inputs.jsonl"
check_bad "bad inputs line" "inputs.jsonl: input 2" --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --reference "$G/reference/gcd.py" --inputs "$WORK/inputs.jsonl" --patches "$G/patches"
# A bad option value is a usage error: two lines, no database.
rm -f "$WORK/bad.db"*
run_litmus patches --db "$WORK/bad.db" --no-progress --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --patches "$G/patches" --threshold 2
expect_eq "$RC" 2 "bad option value: exit code"
expect_eq "$(cat "$WORK/err")" "litmus patches: --threshold: invalid value '2' (0..1)
Try 'litmus patches --help'." "bad option value: message"
[ ! -e "$WORK/bad.db" ] || fail "bad option value: database written"

# A reference fix that fails its own tests (the buggy file as its own
# fix) is an input error, named as such.
grep -qs calls_main "$REPO/runners/shim.py" || [ -f "$REPO/runners/calls.py" ] ||
  skip "the runner side of litmus patches has not landed"
printf 'def gcd(a, b):\n    return a\n' > "$WORK/wrong_fix.py"
check_bad "reference failing its tests" "the reference fix .*wrong_fix.py does not pass its own tests: fails_tests" \
  --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --reference "$WORK/wrong_fix.py" --patches "$G/patches"
grep -q 'test_gcd.py::' "$WORK/err" || fail "the failing test is not named: $(cat "$WORK/err")"
check_bad "the buggy file as its own fix" "same code as the buggy file" \
  --buggy "$G/gcd.py" --tests "$G/test_gcd.py" --reference "$G/gcd.py" --patches "$G/patches"
no_leftovers
exit 0
