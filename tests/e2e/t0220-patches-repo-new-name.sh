# litmus patches on an instance whose test patch imports what only the
# reference fix defines (a new function): at the base its test file
# cannot even be collected, as in the harness, where the import error
# fails every test of it.  The tests are collected with the fix in place
# (a note says so) and every run puts its own files in: the base's run
# has no such name, so its tests fail and the base is unresolved; a
# candidate that defines it otherwise is judged as any other (correct,
# or overfitting by differential execution); one that does not define it
# fails the tests; a candidate that adds a module of its own is run too.
. "$(dirname "$0")/lib.sh"
R=$WORK/repos/litmus__arith
mkdir -p "$R/arith" "$R/tests"
cd "$R" || fail "cd"
git init -q -b main . && git config user.email t@e && git config user.name t
: > tests/__init__.py
cat > arith/__init__.py <<'PY'
def add(a, b):
    return a + b
PY
cat > tests/test_arith.py <<'PY'
from arith import add


def test_add():
    assert add(2, 3) == 5
PY
git add -A && git commit -qm base
BASE=$(git rev-parse HEAD)
cat > tests/test_arith.py <<'PY'
from arith import add, sub


def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert sub(3, 2) == 1
    assert sub(10, 4) == 6
PY
TEST_PATCH=$(git diff)
git checkout -q -- tests
with() { # TEXT appended to arith/__init__.py: its diff
  printf '%s\n' "$1" >> arith/__init__.py
  git diff; git checkout -q -- arith
}
FIX=$(with '

def sub(a, b):
    return a - b')
GOOD=$(with '

def sub(a, b):
    return a + -b')
OVER=$(with '

def sub(a, b):
    return {(3, 2): 1, (10, 4): 6}.get((a, b), a + b)')
NONE=$(with '

def mul(a, b):
    return a * b')
# The CI form on the same repository, with no reference: a pull request
# whose new test imports the function it adds (the first candidate,
# whose tests decide), and one that adds the test but not the function.
branch() { # NAME DIFF: main + the test patch + DIFF, committed
  git checkout -q -b "$1" main
  printf '%s\n' "$TEST_PATCH" | git apply && printf '%s\n' "$2" | git apply &&
    git add -A && git commit -qm "$1" && git checkout -q main
}
branch pr "$FIX" || fail "branch pr"
branch pr-none "$NONE" || fail "branch pr-none"
cd - >/dev/null || fail "cd back"
/usr/bin/python3 - "$WORK" "$BASE" "$FIX" "$TEST_PATCH" "$GOOD" "$OVER" "$NONE" <<'PY' || fail "inputs"
import json, sys
work, base, fix, tests, good, over, none = sys.argv[1:]
with open(work + "/i.jsonl", "w") as f:
    f.write(json.dumps({"repo": "litmus/arith", "instance_id": "litmus__arith-1",
                        "base_commit": base, "patch": fix + "\n",
                        "test_patch": tests + "\n", "version": "1.0",
                        "FAIL_TO_PASS": ["tests/test_arith.py::test_sub"],
                        "PASS_TO_PASS": ["tests/test_arith.py::test_add"]}) + "\n")
with open(work + "/p.jsonl", "w") as f:
    for name, d in (("gold", fix), ("good", good), ("over", over),
                    ("none", none), ("empty", "")):
        f.write(json.dumps({"instance_id": "litmus__arith-1",
                            "model_name_or_path": name,
                            "model_patch": d + "\n" if d else ""}) + "\n")
PY
printf '{"litmus/arith": {"*": "/usr/bin/python3"}}\n' > "$WORK/env.json"
run_litmus patches --instances "$WORK/i.jsonl" --predictions "$WORK/p.jsonl" \
  --repos "$WORK/repos" --env "$WORK/env.json" --db "$WORK/p.db" \
  --no-progress -f json --diff-budget 1 --no-mutation --worktrees "$WORK/trees"
expect_eq "$RC" 1 "exit code ($(tail -3 "$WORK/err"))"
grep -q "the tests import what only the reference fix defines" "$WORK/err" ||
  fail "no note: $(cat "$WORK/err")"
! grep -q "no FAIL_TO_PASS test fails at the base" "$WORK/err" ||
  fail "the base passes the new test: $(cat "$WORK/err")"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts: $(cat "$WORK/out")"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
v = {k: (c["verdict"], c["reason"]) for k, c in rows.items()}
assert v["gold"][0] in ("correct", "memorized"), v
assert v["good"] == ("correct", "passes"), (v, rows["good"]["detail"])
assert v["over"][0] == "overfitting", (v, rows["over"]["detail"])
assert v["none"] == ("invalid", "fails_tests"), (v, rows["none"]["detail"])
assert "test_sub" in rows["none"]["detail"], rows["none"]["detail"]
assert v["empty"] == ("invalid", "empty_patch"), v
PY
# The same command again takes every result from the store.
LITMUS_RUN_LOG=$WORK/runlog run_litmus patches --instances "$WORK/i.jsonl" \
  --predictions "$WORK/p.jsonl" --repos "$WORK/repos" --env "$WORK/env.json" \
  --db "$WORK/p.db" --no-progress -f json --diff-budget 1 --no-mutation \
  --worktrees "$WORK/trees"
[ ! -s "$WORK/runlog" ] || fail "the second run started runs: $(head -3 "$WORK/runlog")"
run_litmus patches --repo "$R" --base main --candidate pr --candidate pr-none \
  --db "$WORK/ci.db" --no-progress -f json --diff-budget 1 --no-mutation
expect_eq "$RC" 1 "CI form: exit code ($(tail -3 "$WORK/err"))"
grep -q "the tests import what only the first candidate defines" "$WORK/err" ||
  fail "CI form: no note: $(cat "$WORK/err")"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "CI form verdicts: $(cat "$WORK/out")"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
assert rows["pr"]["verdict"] == "correct", rows["pr"]
assert (rows["pr-none"]["verdict"], rows["pr-none"]["reason"]) == \
    ("invalid", "fails_tests"), rows["pr-none"]
assert "test_sub" in rows["pr-none"]["detail"], rows["pr-none"]["detail"]
PY
