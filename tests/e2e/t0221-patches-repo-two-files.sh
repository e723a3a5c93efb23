# litmus patches: a candidate that changes two modules of a package, one
# using a name the other newly defines (a constant added to constants.py
# and imported by checks.py, which the diff lists first).  Each file is
# put in place as a fresh import would execute them: the module that is
# imported from comes first, whether the import is relative or absolute,
# in the runs and in the differential run's copies of both sides.
. "$(dirname "$0")/lib.sh"
R=$WORK/repos/litmus__limits
mkdir -p "$R/limits" "$R/tests"
cd "$R" || fail "cd"
git init -q -b main . && git config user.email t@e && git config user.name t
: > tests/__init__.py
: > limits/__init__.py
cat > limits/constants.py <<'PY'
LOW = 0
PY
cat > limits/checks.py <<'PY'
from .constants import LOW


def in_range(x):
    return x >= LOW
PY
cat > tests/test_checks.py <<'PY'
from limits.checks import in_range


def test_low():
    assert in_range(0)
    assert not in_range(-1)
PY
git add -A && git commit -qm base
BASE=$(git rev-parse HEAD)
cat >> tests/test_checks.py <<'PY'


def test_high():
    assert in_range(100)
    assert not in_range(101)
PY
TEST_PATCH=$(git diff)
git checkout -q -- tests
fix() { # IMPORT-LINE: the diff adding HIGH and using it
  printf 'LOW = 0\nHIGH = 100\n' > limits/constants.py
  printf '%s\n\n\ndef in_range(x):\n    return LOW <= x <= HIGH\n' "$1" \
    > limits/checks.py
  git diff; git checkout -q -- limits
}
FIX=$(fix 'from .constants import HIGH, LOW')
ABS=$(fix 'from limits.constants import HIGH, LOW' |
  sed 's/return LOW <= x <= HIGH/return x >= LOW and not x > HIGH/')
cd - >/dev/null || fail "cd back"
/usr/bin/python3 - "$WORK" "$BASE" "$FIX" "$TEST_PATCH" "$ABS" <<'PY' || fail "inputs"
import json, sys
work, base, fix, tests, absolute = sys.argv[1:]
assert fix.index("checks.py") < fix.index("constants.py"), fix
with open(work + "/i.jsonl", "w") as f:
    f.write(json.dumps({"repo": "litmus/limits", "instance_id": "litmus__limits-1",
                        "base_commit": base, "patch": fix + "\n",
                        "test_patch": tests + "\n", "version": "1.0",
                        "FAIL_TO_PASS": ["tests/test_checks.py::test_high"],
                        "PASS_TO_PASS": ["tests/test_checks.py::test_low"]}) + "\n")
with open(work + "/p.jsonl", "w") as f:
    for name, d in (("gold", fix), ("absolute", absolute), ("empty", "")):
        f.write(json.dumps({"instance_id": "litmus__limits-1",
                            "model_name_or_path": name,
                            "model_patch": d + "\n" if d else ""}) + "\n")
PY
printf '{"litmus/limits": {"*": "/usr/bin/python3"}}\n' > "$WORK/env.json"
run_litmus patches --instances "$WORK/i.jsonl" --predictions "$WORK/p.jsonl" \
  --repos "$WORK/repos" --env "$WORK/env.json" --db "$WORK/p.db" \
  --no-progress -f json --diff-budget 1 --no-mutation --worktrees "$WORK/trees"
expect_one_of "$RC" 0 1
/usr/bin/python3 - "$WORK/out" <<'PY' || fail "verdicts: $(cat "$WORK/out")"
import json, sys
rows = {c["model_name_or_path"]: c for c in json.load(open(sys.argv[1]))["candidates"]}
v = {k: (c["verdict"], c["reason"]) for k, c in rows.items()}
assert v["gold"][0] in ("correct", "memorized"), (v, rows["gold"]["detail"])
assert rows["gold"]["evidence"]["resolved"] is True, rows["gold"]
assert v["absolute"] == ("correct", "passes"), (v, rows["absolute"]["detail"])
# The differential run loads both sides' modules as the runs do.
diff = rows["absolute"]["evidence"]["differential"]
assert diff["status"] != "error", diff
assert v["empty"] == ("invalid", "empty_patch"), v
PY
exit 0
