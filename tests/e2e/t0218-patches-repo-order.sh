# litmus patches: a wider-suite test that depends on the tests run before
# it is no witness.  The instance's new test leaves a handler in a
# registry that an existing test expects empty: alone, as in the wider
# run, that test passes; after the instance's tests, as in every
# candidate's run, it fails with the reference fix too.  The reference's
# files run on the candidate's very list of tests, and only a test that
# passes there and fails with the candidate is a witness: the correct
# alternative is correct (its note counts the test that fails on both),
# the candidate that breaks another case is still caught by it.
. "$(dirname "$0")/lib.sh"
R=$WORK/repos/litmus__regkit
mkdir -p "$R/regkit" "$R/tests"
cd "$R" || fail "cd"
git init -q -b main . && git config user.email t@e && git config user.name t
: > regkit/__init__.py
: > tests/__init__.py
cat > regkit/core.py <<'PY'
HANDLERS = []


def register(name):
    HANDLERS.append(name)
    return name


def clamp(x, lo, hi):
    if x < lo:
        return hi
    if x > hi:
        return hi
    return x
PY
cat > tests/test_core.py <<'PY'
from regkit import core


def test_no_handlers_at_start():
    assert core.clamp(1, 0, 3) == 1
    assert core.HANDLERS == []


def test_clamp_high():
    assert core.clamp(5, 0, 3) == 3


def test_clamp_inside():
    assert core.clamp(2, 0, 3) == 2
PY
git add -A && git commit -qm base
BASE=$(git rev-parse HEAD)
cat > tests/test_clamp.py <<'PY'
from regkit import core


def test_clamp_low():
    core.register("low")
    assert core.clamp(-1, 0, 3) == 0
PY
git add tests/test_clamp.py
TEST_PATCH=$(git diff --cached)
git reset -q --hard
edit() { # OLD NEW: the diff of core.py with OLD replaced by NEW
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys
s = open("regkit/core.py").read()
assert sys.argv[1] in s
open("regkit/core.py", "w").write(s.replace(sys.argv[1], sys.argv[2]))
PY
  git diff; git checkout -q -- regkit/core.py
}
FIX=$(edit '    if x < lo:
        return hi' '    if x < lo:
        return lo')
GOOD=$(edit '    if x < lo:
        return hi
    if x > hi:
        return hi
    return x' '    return lo if x < lo else hi if x > hi else x')
BREAKS=$(edit '    if x < lo:
        return hi
    if x > hi:
        return hi' '    if x < lo:
        return lo')
cd - >/dev/null || fail "cd back"
/usr/bin/python3 - "$WORK" "$BASE" "$FIX" "$TEST_PATCH" "$GOOD" "$BREAKS" <<'PY' || fail "inputs"
import json, sys
work, base, fix, tests, good, breaks = sys.argv[1:]
with open(work + "/i.jsonl", "w") as f:
    f.write(json.dumps({"repo": "litmus/regkit", "instance_id": "litmus__regkit-1",
                        "base_commit": base, "patch": fix + "\n",
                        "test_patch": tests + "\n", "version": "1.0",
                        "FAIL_TO_PASS": ["tests/test_clamp.py::test_clamp_low"],
                        "PASS_TO_PASS": []}) + "\n")
with open(work + "/p.jsonl", "w") as f:
    for name, d in (("good", good), ("breaks", breaks)):
        f.write(json.dumps({"instance_id": "litmus__regkit-1",
                            "model_name_or_path": name,
                            "model_patch": d + "\n"}) + "\n")
PY
printf '{"litmus/regkit": {"*": "/usr/bin/python3"}}\n' > "$WORK/env.json"
run_litmus patches --instances "$WORK/i.jsonl" --predictions "$WORK/p.jsonl" \
  --repos "$WORK/repos" --env "$WORK/env.json" --db "$WORK/p.db" \
  --no-progress -f json --diff-budget 0.4 --no-mutation --no-probes \
  --worktrees "$WORK/trees"
expect_eq "$RC" 1 "exit code ($(tail -3 "$WORK/err"))"
[ -z "${T0218_KEEP:-}" ] || cp -r "$WORK" "$T0218_KEEP"
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
good, breaks = rows["good"], rows["breaks"]
assert good["verdict"] == "correct", (good["verdict"], good["detail"])
w = good["evidence"]["wider"]
assert w["failing"] == [] and w["failing_on_reference_too"] == 1, w
assert breaks["verdict"] == "overfitting", (breaks["verdict"], breaks["detail"])
assert breaks["reason"] == "fails_wider_suite", breaks["reason"]
assert breaks["evidence"]["witness"]["test"] == \
    "tests/test_core.py::test_clamp_high", breaks["evidence"]["witness"]
PY
