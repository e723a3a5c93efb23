# `litmus completion bash` is built from the option tables: sourced in
# bash, its function completes commands, options, dataset modes and
# their options, completion's shell.
. "$(dirname "$0")/lib.sh"
cd "$WORK" || fail "cd"
run_litmus completion bash
expect_eq "$RC" 0 "completion bash"
cp "$WORK/out" litmus.bash
bash -n litmus.bash || fail "the script does not parse"
complete_words() { # words of the command line; the last one is completed
  bash -c '. ./litmus.bash
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
_litmus
printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$@"
}
expect_eq "$(complete_words litmus sc)" "score" "litmus sc"
expect_eq "$(complete_words litmus s | tr '\n' ' ')" "score show similarity slurm " "litmus s" 2>/dev/null ||
  expect_eq "$(complete_words litmus s | tr '\n' ' ')" "score show slurm " "litmus s"
expect_eq "$(complete_words litmus score --timeout-c)" "--timeout-const" "score --timeout-c"
expect_eq "$(complete_words litmus score a.py --baseline | tr '\n' ' ')" "--baseline-runs --baseline-timeout " "score --baseline"
expect_eq "$(complete_words litmus score a.py --max)" "--max-time" "score --max"
expect_eq "$(complete_words litmus report --junit | tr '\n' ' ')" "--junit-no-coverage --junit-timeout " "report --junit"
expect_eq "$(complete_words litmus dataset re)" "rewrite" "dataset re"
expect_eq "$(complete_words litmus dataset rewrite --st)" "--strength" "dataset rewrite --st"
expect_eq "$(complete_words litmus dataset select --st)" "" "dataset select has no --strength"
expect_eq "$(complete_words litmus dataset typed x.jsonl --per)" "--per-cell" "dataset typed FILE --per"
expect_eq "$(complete_words litmus completion b)" "bash" "completion b"
expect_eq "$(complete_words litmus merge --f)" "--force" "merge --f"
expect_eq "$(complete_words litmus score -- --time)" "" "no litmus options after --"
expect_eq "$(complete_words litmus --ver)" "--version" "litmus --ver"
run_litmus completion zsh
expect_eq "$RC" 2 "completion zsh"
exit 0
