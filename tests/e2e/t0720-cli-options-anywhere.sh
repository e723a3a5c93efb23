# Options may come before or after operands, up to `--`, in every command.
. "$(dirname "$0")/lib.sh"
cd "$WORK" || fail "cd"
printf 'def f(a, b):\n    return a + b\n' > a.py
printf 'def f(x, y):\n    return x + y\n' > b.py
printf 'from a import f\n\ndef test_f():\n    assert f(1, 2) == 3\n' > test_a.py

# similarity: the same JSON whether --format comes first or last.
if "$LITMUS" similarity --help >/dev/null 2>&1; then
  run_litmus similarity --format json --metric levenshtein a.py b.py
  expect_eq "$RC" 0 "similarity, options first ($(cat "$WORK/err"))"
  cp "$WORK/out" first.json
  run_litmus similarity a.py b.py --format json --metric levenshtein
  expect_eq "$RC" 0 "similarity, options last ($(cat "$WORK/err"))"
  cmp -s first.json "$WORK/out" || fail "similarity: options last give other output"
  grep -q '"levenshtein"' "$WORK/out" || fail "similarity: no JSON: $(cat "$WORK/out")"
  run_litmus similarity a.py --metric levenshtein b.py
  expect_eq "$RC" 0 "similarity, option between operands"
fi

# After an operand, an unknown option is still an option, not an operand.
for cmd in "score a.py" "show abcd" "merge out.db in.db" "patches" \
           "dataset select in.jsonl" "similarity a.py b.py" "report"; do
  run_litmus $cmd --no-such-option
  expect_eq "$RC" 2 "litmus $cmd --no-such-option"
  grep -q "unknown option '--no-such-option'" "$WORK/err" ||
    fail "litmus $cmd: option after operand not parsed: $(cat "$WORK/err")"
done

# score: an option after PATHS takes effect (--explain-sandbox stops
# before any test runs); after `--` it belongs to pytest.
run_litmus score a.py --explain-sandbox --no-config --db e1.db
expect_eq "$RC" 0 "score PATHS --explain-sandbox ($(cat "$WORK/err"))"
[ -s "$WORK/out" ] || [ -s "$WORK/err" ] || fail "explain-sandbox printed nothing"
run_litmus score a.py --no-config --explain-sandbox --db e2.db -- -k test_f
expect_eq "$RC" 0 "after --, options go to pytest ($(cat "$WORK/err"))"

# merge: --force after the operands replaces OUT like --force before them.
run_litmus merge out.db missing.db --force
expect_eq "$RC" 2 "merge with a missing input"
if grep -q "unknown option\|Try 'litmus merge --help'" "$WORK/err"; then
  fail "merge: --force after operands is a usage error: $(cat "$WORK/err")"
fi

# dataset: options after INPUT (a record file) are the mode's.
printf '{"id": "p", "function_name": "f", "code": "def f(a, b):\\n    return a + b\\n", "input": "f(1, 2)", "output": "3"}\n' > rec.jsonl
run_litmus dataset select rec.jsonl --no-db --no-progress -j 1 -o sel.jsonl
expect_eq "$RC" 0 "dataset select INPUT --options ($(cat "$WORK/err"))"
[ -s sel.jsonl ] || fail "dataset select wrote nothing"
# `show` from another directory: the diff's paths keep one slash after a/.
sdb=$WORK/show.db
"$LITMUS" score "$CORPUS/merge_sort" --tests "$CORPUS/merge_sort" --db "$sdb" --no-progress >/dev/null 2>&1 ||
  fail "score for show failed"
id=$(q "$sdb" "SELECT mutant_id FROM results LIMIT 1")
(cd / && "$LITMUS" show "$id" --db "$sdb" --format json) >"$WORK/show.json" || fail "show from / failed"
grep -q 'a//\|b//' "$WORK/show.json" && fail "doubled slash in the diff: $(head -c 300 "$WORK/show.json")"
grep -q '"col": [1-9]' "$WORK/show.json" || fail "show's column is not 1-based: $(head -c 300 "$WORK/show.json")"
exit 0
