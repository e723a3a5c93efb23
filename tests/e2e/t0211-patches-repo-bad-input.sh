# litmus patches on repository candidates with bad input: one error line
# naming the file, the line or instance and the field; exit 2.
. "$(dirname "$0")/lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/repo_patches" && pwd)
bash "$FIX/make_repos.sh" "$WORK/rp" >/dev/null || fail "make_repos.sh"
R=$WORK/rp
check_bad() { # what pattern args...
  local what=$1 pattern=$2; shift 2
  run_litmus patches --db "$WORK/bad.db" --no-progress "$@"
  expect_eq "$RC" 2 "$what: exit code ($(cat "$WORK/err"))"
  expect_eq "$(grep -c 'error' "$WORK/err")" 1 "$what: one error line ($(cat "$WORK/err"))"
  grep -q -- "$pattern" "$WORK/err" || fail "$what: message lacks '$pattern': $(cat "$WORK/err")"
  [ ! -s "$WORK/out" ] || fail "$what: stdout not empty"
}
I=$R/instances.jsonl P=$R/predictions.jsonl
ok=(--repos "$R/repos" --env "$R/env.json")
check_bad "missing --predictions" "together" --instances "$I" --repos "$R/repos"
check_bad "mixed with --patches" "take diffs" --instances "$I" --predictions "$P" --repos "$R/repos" --patches "$P"
check_bad "no such instances file" "no-such" --instances "$WORK/no-such" --predictions "$P" "${ok[@]}"
head -2 "$I" > "$WORK/i.jsonl"; echo '{"instance_id": "x"' >> "$WORK/i.jsonl"
check_bad "malformed line" "i.jsonl: line 3" --instances "$WORK/i.jsonl" --predictions "$P" "${ok[@]}"
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); del r["test_patch"]; print(json.dumps(r))' "$I" > "$WORK/i2.jsonl"
check_bad "missing field" "field 'test_patch' is missing" --instances "$WORK/i2.jsonl" --predictions "$P" "${ok[@]}"
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); r["FAIL_TO_PASS"]="nope"; print(json.dumps(r))' "$I" > "$WORK/i3.jsonl"
check_bad "bad test list" "FAIL_TO_PASS" --instances "$WORK/i3.jsonl" --predictions "$P" "${ok[@]}"
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); r["base_commit"]="f"*40; print(json.dumps(r))' "$I" > "$WORK/i4.jsonl"
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); print(json.dumps({"instance_id": r["instance_id"], "model_name_or_path": "m", "model_patch": ""}))' "$I" > "$WORK/p4.jsonl"
check_bad "unknown base commit" "base_commit" --instances "$WORK/i4.jsonl" --predictions "$WORK/p4.jsonl" "${ok[@]}"
echo '{"instance_id": "nope", "model_name_or_path": "m", "model_patch": ""}' > "$WORK/p5.jsonl"
check_bad "prediction of no instance" "no instance 'nope'" --instances "$I" --predictions "$WORK/p5.jsonl" "${ok[@]}"
head -1 "$P" > "$WORK/p6.jsonl"; head -1 "$P" >> "$WORK/p6.jsonl"
check_bad "duplicate prediction" "second prediction" --instances "$I" --predictions "$WORK/p6.jsonl" "${ok[@]}"
check_bad "no clone" "no clone of litmus/textkit" --instances "$I" --predictions "$P" --repos "$WORK"
check_bad "CI form without a candidate" "needs --candidate" --repo "$R/ci-repo" --base main
check_bad "CI form, bad revision" "neither a diff file nor a revision" --repo "$R/ci-repo" --base main --candidate no-such-branch
# --tests names tests that decide in the CI form only, each a test file,
# a folder holding some or a node id of one, inside the repository.
check_bad "--tests with instances" "goes with --repo" --instances "$I" --predictions "$P" "${ok[@]}" --tests tests
check_bad "CI form, --tests missing" "no such file or folder" --repo "$R/ci-repo" --base main --candidate cand-good --tests tests/test_nope.py
check_bad "CI form, --tests outside" "not a path inside --repo" --repo "$R/ci-repo" --base main --candidate cand-good --tests /etc/passwd
check_bad "CI form, --tests a package file" "not a test file" --repo "$R/ci-repo" --base main --candidate cand-good --tests textkit/numbers.py
check_bad "CI form, --tests node of a folder" "is not a file" --repo "$R/ci-repo" --base main --candidate cand-good --tests "tests::test_x"
check_bad "two --tests with --buggy" "one file or folder" --buggy "$R/ci-repo/textkit/numbers.py" --tests a --tests b --patches "$P"
