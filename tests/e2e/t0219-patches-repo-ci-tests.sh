# litmus patches, the CI form on the repository at hand: without a
# reference fix every test of the candidate's test files is meant to pass
# (one failing at the base only where the candidate adds or changes it)
# and the suite covering the changed files is PASS_TO_PASS (a candidate
# that breaks a test of it that passes at the base is invalid, and the
# gate exits 1); --tests names more tests that decide (a node id or a
# folder), and a candidate's edit of a named test file is left out.
. "$(dirname "$0")/lib.sh"
FIX=$(cd "$(dirname "$0")/../fixtures/repo_patches" && pwd)
bash "$FIX/make_repos.sh" "$WORK/rp" >/dev/null || fail "make_repos.sh"
CI=$WORK/rp/ci-repo
common=(patches --repo "$CI" --base main -f json --no-progress --diff-budget 0.4
        --no-mutation --no-probes --timeout 5)
verdicts() { # file -> "model verdict reason" lines
  python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["candidates"]:
    print(c["model_name_or_path"], c["verdict"], c["reason"])' "$1"
}

# No reference: the first candidate's tests decide.
run_litmus "${common[@]}" --candidate cand-good --candidate cand-breaks --db "$WORK/a.db"
expect_eq "$RC" 1 "no reference: exit code ($(tail -3 "$WORK/err"))"
v=$(verdicts "$WORK/out")
grep -q "^cand-good correct " <<<"$v" || fail "no reference: cand-good: $v"
grep -q "^cand-breaks invalid fails_tests" <<<"$v" || fail "no reference: cand-breaks: $v"
python3 - "$WORK/out" <<'PY' || fail "no reference: details"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
b = rows["cand-breaks"]
assert "pass at the base and fail" in b["detail"], b["detail"]
assert "tests/test_api.py::test_report_line" in b["detail"], b["detail"]
assert b["evidence"]["resolved"] is False, b["evidence"]
assert "no reference fix" in rows["cand-good"]["detail"], rows["cand-good"]["detail"]
PY

# No reference, and a test of the candidate's test file that fails at the
# base whatever the code does (a service the machine lacks): the
# candidate neither adds nor changes it, so it is not held against it.
git -C "$CI" checkout -q -b env-base main
cat >> "$CI/tests/test_numbers.py" <<'PY'


def test_needs_a_service():
    # Fails here whatever the code does: a service this machine lacks.
    import os
    assert os.environ.get("LITMUS_E2E_NO_SUCH_SERVICE"), "no service"
PY
git -C "$CI" -c user.name=t -c user.email=t@e commit -qam "a test that needs a service"
git -C "$CI" checkout -q -b env-good
git -C "$CI" diff main cand-good | git -C "$CI" apply
git -C "$CI" -c user.name=t -c user.email=t@e commit -qam "format_number: the good one"
git -C "$CI" checkout -q main
run_litmus "${common[@]}" --base env-base --candidate env-good --db "$WORK/env.db"
expect_eq "$RC" 0 "a test failing at the base: exit code ($(tail -3 "$WORK/err"))"
v=$(verdicts "$WORK/out")
grep -q "^env-good correct " <<<"$v" || fail "a test failing at the base: $v"

# --tests: a node id joins the tests that decide; the named test fails on
# cand-breaks, so it is not resolved (before, it was resolved and caught
# only as overfitting by the wider suite).  Given from inside the
# repository, the path is taken from there.
(cd "$CI/tests" && "$LITMUS" "${common[@]}" --reference fix --candidate cand-good \
   --candidate cand-breaks --tests test_api.py::test_report_line --db "$WORK/b.db") \
  >"$WORK/out" 2>"$WORK/err"
expect_eq "$?" 1 "--tests node id: exit code ($(tail -3 "$WORK/err"))"
v=$(verdicts "$WORK/out")
grep -q "^cand-good correct " <<<"$v" || fail "--tests node id: cand-good: $v"
grep -q "^cand-breaks invalid fails_tests" <<<"$v" || fail "--tests node id: cand-breaks: $v"
grep -q "listed test(s) fail; first tests/test_api.py::test_report_line" "$WORK/out" \
  || fail "--tests node id: the named test is not the witness: $(cat "$WORK/out")"

# A folder: every test file in it decides.  A candidate that also edits
# the named test's expectation is judged on the test as it is: its edit
# is left out and listed (only its package file counts as changed).
git -C "$CI" diff main cand-breaks > "$WORK/cheat.diff"
cat >> "$WORK/cheat.diff" <<'DIFF'
diff --git a/tests/test_api.py b/tests/test_api.py
--- a/tests/test_api.py
+++ b/tests/test_api.py
@@ -12,3 +12,3 @@ def test_public_names():
 def test_report_line():
     total = textkit.parse_number("1,234.5")
-    assert "total: " + textkit.format_number(total, 2) == "total: 1,234.50"
+    assert "total: " + textkit.format_number(total, 2) == "total: 1,234.5"
DIFF
run_litmus "${common[@]}" --reference fix --candidate "$WORK/cheat.diff" --tests tests \
  --db "$WORK/c.db"
expect_eq "$RC" 1 "--tests folder: exit code ($(tail -3 "$WORK/err"))"
python3 - "$WORK/out" <<'PY' || fail "--tests folder: $(cat "$WORK/out")"
import json, sys
(c,) = json.load(open(sys.argv[1]))["candidates"]
assert (c["verdict"], c["reason"]) == ("invalid", "fails_tests"), c
assert "tests/test_api.py::test_report_line" in c["detail"], c["detail"]
assert c["evidence"]["changed"] == ["textkit/numbers.py"], c["evidence"]
# Its edit of the named test is listed as left out; its new test, the
# same as the reference's, is the instance's own and is not.
left = {n["path"]: n["kind"] for n in c["evidence"]["left_out"]}
assert left == {"tests/test_api.py": "instance_test"}, left
PY

# A pull request that only adds tests is judged by them on the code as it
# is: correct when they pass there, invalid when one fails (the gate
# exits 1), never an empty patch.
for kind in passes fails; do
  # 1234 formats well at the base; -123456 is the bug the fix mends.
  check=$([ "$kind" = passes ] && echo 'format_number(1234) == "1,234"' ||
          echo 'format_number(-123456) == "-123,456"')
  cat > "$WORK/only-$kind.diff" <<DIFF
diff --git a/tests/test_more.py b/tests/test_more.py
new file mode 100644
--- /dev/null
+++ b/tests/test_more.py
@@ -0,0 +1,5 @@
+import textkit
+
+
+def test_negative_thousands():
+    assert textkit.$check
DIFF
done
run_litmus "${common[@]}" --candidate "$WORK/only-passes.diff" --db "$WORK/d.db"
expect_eq "$RC" 0 "tests only, passing: exit code ($(tail -3 "$WORK/err"))"
grep -q '"verdict": "correct"' "$WORK/out" || fail "tests only, passing: $(cat "$WORK/out")"
grep -q "changes only tests, which pass" "$WORK/out" || fail "tests only: detail"
run_litmus "${common[@]}" --candidate "$WORK/only-fails.diff" --db "$WORK/e.db"
expect_eq "$RC" 1 "tests only, failing: exit code ($(tail -3 "$WORK/err"))"
grep -q '"reason": "fails_tests"' "$WORK/out" || fail "tests only, failing: $(cat "$WORK/out")"
grep -q "test_more.py::test_negative_thousands" "$WORK/out" || fail "tests only: no failing test named"
